/**
 * The IFC class ↔ Brick class table the alignment scores class evidence with (docs/ifc-alignment.md
 * renders it). Brick classes are local names, resolved through the ontology: each entry matches its
 * classes and every subclass, equivalent and replacement of them (brick:Floor → rec:Level, Pump →
 * Hot_Water_Pump). `generic` marks IFC 2x3's catch-all classes (a pump there may be an
 * IfcFlowMovingDevice), whose class evidence weighs less. An IFC class not in the table is never
 * proposed (walls, slabs, ducts, pipes, fittings).
 */

/** Which of the coverage report's groups an IFC class falls in. */
export type ElementGroup = 'building' | 'storey' | 'space' | 'equipment' | 'sensor';

export interface IfcBrickClass {
  /** The IFC class as IFC writes it (the service stores them upper-case, as web-ifc names them). */
  readonly ifc: string;
  /** Brick (or REC) classes by local name: the first the ontology knows of each is used. */
  readonly brick: readonly string[];
  readonly group: ElementGroup;
  /** An IFC 2x3 catch-all class: weaker class evidence. */
  readonly generic?: boolean;
}

export const IFC_BRICK_CLASSES: readonly IfcBrickClass[] = [
  { ifc: 'IfcBuilding', brick: ['Building'], group: 'building' },
  { ifc: 'IfcBuildingStorey', brick: ['Floor', 'Level'], group: 'storey' },
  { ifc: 'IfcSpace', brick: ['Room', 'Hallway', 'Lobby', 'HVAC_Zone'], group: 'space' },
  { ifc: 'IfcBoiler', brick: ['Boiler'], group: 'equipment' },
  { ifc: 'IfcChiller', brick: ['Chiller'], group: 'equipment' },
  { ifc: 'IfcCoolingTower', brick: ['Cooling_Tower'], group: 'equipment' },
  { ifc: 'IfcHeatExchanger', brick: ['Heat_Exchanger'], group: 'equipment' },
  { ifc: 'IfcPump', brick: ['Pump'], group: 'equipment' },
  { ifc: 'IfcFan', brick: ['Fan'], group: 'equipment' },
  { ifc: 'IfcCompressor', brick: ['Compressor'], group: 'equipment' },
  { ifc: 'IfcCondenser', brick: ['Condenser'], group: 'equipment' },
  { ifc: 'IfcValve', brick: ['Valve'], group: 'equipment' },
  { ifc: 'IfcDamper', brick: ['Damper'], group: 'equipment' },
  { ifc: 'IfcCoil', brick: ['Coil'], group: 'equipment' },
  { ifc: 'IfcFilter', brick: ['Filter'], group: 'equipment' },
  { ifc: 'IfcHumidifier', brick: ['Humidifier'], group: 'equipment' },
  { ifc: 'IfcTank', brick: ['Tank', 'Water_Tank'], group: 'equipment' },
  { ifc: 'IfcAirTerminal', brick: ['Terminal_Unit', 'Air_Diffuser'], group: 'equipment' },
  { ifc: 'IfcAirTerminalBox', brick: ['VAV', 'Terminal_Unit'], group: 'equipment' },
  { ifc: 'IfcUnitaryEquipment', brick: ['AHU', 'FCU', 'Rooftop_Unit'], group: 'equipment' },
  { ifc: 'IfcSpaceHeater', brick: ['Radiator', 'Space_Heater', 'Terminal_Unit'], group: 'equipment' },
  { ifc: 'IfcAirToAirHeatRecovery', brick: ['Heat_Exchanger', 'Heat_Wheel'], group: 'equipment' },
  { ifc: 'IfcFlowMeter', brick: ['Meter'], group: 'equipment' },
  { ifc: 'IfcController', brick: ['Controller'], group: 'equipment' },
  { ifc: 'IfcSensor', brick: ['Sensor'], group: 'sensor' },
  // IFC 2x3 writes these where IFC4 has the specific classes above.
  {
    ifc: 'IfcEnergyConversionDevice',
    brick: ['Boiler', 'Chiller', 'Heat_Exchanger', 'Coil', 'AHU', 'Cooling_Tower'],
    group: 'equipment',
    generic: true,
  },
  { ifc: 'IfcFlowMovingDevice', brick: ['Pump', 'Fan', 'Compressor'], group: 'equipment', generic: true },
  { ifc: 'IfcFlowController', brick: ['Valve', 'Damper', 'VAV'], group: 'equipment', generic: true },
  { ifc: 'IfcFlowTerminal', brick: ['Terminal_Unit', 'Air_Diffuser', 'Radiator'], group: 'equipment', generic: true },
  { ifc: 'IfcFlowStorageDevice', brick: ['Tank', 'Water_Tank'], group: 'equipment', generic: true },
  { ifc: 'IfcFlowTreatmentDevice', brick: ['Filter'], group: 'equipment', generic: true },
  { ifc: 'IfcDistributionControlElement', brick: ['Controller', 'Sensor'], group: 'sensor', generic: true },
];

const BY_NAME = new Map(IFC_BRICK_CLASSES.map((entry) => [entry.ifc.toUpperCase(), entry]));

/** The table's entry for an IFC class, in any case (web-ifc names them upper-case), or undefined. */
export function ifcBrickClass(ifcClass: string): IfcBrickClass | undefined {
  return BY_NAME.get(ifcClass.toUpperCase());
}
