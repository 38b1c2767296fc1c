/**
 * Generates the read-only demo site (`demo`): fixtures/demo.ttl and fixtures/demo-ifc-ids.json.
 *
 *   npm run generate:demo            # write both files
 *   npm run generate:demo -- --check # exit 1 if the committed files differ from what would be generated
 *
 * The output is deterministic: no clock, no Math.random(); a seeded PRNG for the few varied values
 * (room areas) and SHA-256-derived IFC GlobalIds. The demo deliberately mixes the ways real Brick models
 * state things (relationships in either direction, deprecated class names, three timeseries styles),
 * because the service must answer the same whichever way the data says it (see docs/brick-mapping.md).
 */
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import {
  brickPrefixes,
  ifcProject,
  ifcReference,
  label,
  literalProperties,
  quantity,
  timeseries,
  unit,
  type LiteralValue,
  type TimeseriesStyle,
} from './lib/brick.ts';
import { deterministicIfcGlobalId } from './lib/ifc-guid.ts';
import { Prng } from './lib/prng.ts';
import { ArrayLineSink, FileLineSink, TurtleWriter, type LineSink } from './lib/turtle-writer.ts';

export const DEMO_SITE_ID = 'demo';
export const DEMO_NAMESPACE = 'https://example.org/buildings/demo#';
export const PROP_NAMESPACE = 'https://example.org/buildings/props#';
export const DEMO_SEED = 20260521;
/** The IFC project every IFC reference of the demo names: the site's file fixtures/demo-files/demo-tower.ifc. */
export const DEMO_IFC_PROJECT = 'Demo-Tower-IFC';
export const DEMO_IFC_FILE = 'demo-tower.ifc';

// ---------------------------------------------------------------------------------------------------
// In-memory model (small: a few hundred entities). Relations are recorded once with the direction
// in which the file states them; the writer puts each into the block of the subject that states it.

type Kind = 'building' | 'level' | 'room' | 'zone' | 'equipment' | 'point' | 'system';
type Relation = 'hasPart' | 'hasPoint' | 'feeds' | 'hasLocation';

const INVERSE: Record<Relation, string> = {
  hasPart: 'isPartOf',
  hasPoint: 'isPointOf',
  feeds: 'isFedBy',
  hasLocation: 'isLocationOf',
};
/** Order in which relationship predicates appear inside a subject block. */
const PREDICATE_ORDER = [
  'hasPart',
  'isPartOf',
  'hasLocation',
  'isLocationOf',
  'feeds',
  'isFedBy',
  'hasPoint',
  'isPointOf',
];

interface Quantity {
  predicate: string;
  value: number;
  unit: string;
}

interface Entity {
  id: string;
  kind: Kind;
  /** Class terms such as `brick:AHU` or `rec:Level`. */
  classes: string[];
  label: string;
  section: string;
  literals: Array<[string, LiteralValue]>;
  quantities: Quantity[];
  /** Points only. */
  unit?: string;
  legacyUnit?: boolean;
  ts?: { id: string; style: TimeseriesStyle };
  ifcId?: string;
  outputSubstance?: string;
  /** Equipment only: written as prop:controllerName / prop:pointCount / prop:virtual. */
  equipment?: { controllerName: string; virtual: boolean };
}

interface StatedRelation {
  s: string;
  rel: Relation;
  o: string;
  /** Stated as `o inverse(rel) s` instead of `s rel o`. */
  inverse: boolean;
}

class Model {
  readonly entities: Entity[] = [];
  readonly byId = new Map<string, Entity>();
  readonly relations: StatedRelation[] = [];
  private readonly relationKeys = new Set<string>();
  private section = '';

  startSection(title: string): void {
    this.section = title;
  }

  add(
    e: Omit<Entity, 'section' | 'literals' | 'quantities'> & Partial<Pick<Entity, 'literals' | 'quantities'>>,
  ): Entity {
    if (this.byId.has(e.id)) throw new Error(`Duplicate entity id ${e.id}`);
    const entity: Entity = { literals: [], quantities: [], ...e, section: this.section };
    this.entities.push(entity);
    this.byId.set(entity.id, entity);
    return entity;
  }

  get(id: string): Entity {
    const e = this.byId.get(id);
    if (!e) throw new Error(`Unknown entity id ${id}`);
    return e;
  }

  relate(s: string, rel: Relation, o: string, inverse = false): void {
    this.get(s);
    this.get(o);
    if (s === o) throw new Error(`Self relation ${s} ${rel}`);
    const key = `${s} ${rel} ${o}`;
    if (this.relationKeys.has(key)) throw new Error(`Duplicate relation ${key}`);
    this.relationKeys.add(key);
    this.relations.push({ s, rel, o, inverse });
  }

  /** Objects of `rel` from s (forward direction, whichever way it is stated). */
  targets(s: string, rel: Relation): string[] {
    return this.relations.filter((r) => r.s === s && r.rel === rel).map((r) => r.o);
  }
}

// ---------------------------------------------------------------------------------------------------
// The demo building

interface PointTemplate {
  /** Suffix of the point id: `${owner}-${key}`. */
  key: string;
  /** Brick local class name. */
  cls: string;
  /** Label text after the owner's label. */
  text: string;
  unit?: string;
}

const pt = (key: string, cls: string, text: string, unit?: string): PointTemplate =>
  unit === undefined ? { key, cls, text } : { key, cls, text, unit };

/** Points whose timeseries id uses the Brick 1.2 form `brick:timeseries [ brick:hasTimeseriesId … ]`. */
const TS_BRICK_12 = new Set(['EM-MAIN-PWR', 'EM-MAIN-ENERGY', 'EM-MAIN-VOLT']);
/** Points using `ref:hasTimeseriesReference` instead of `ref:hasExternalReference`. */
const TS_HAS_TIMESERIES_REFERENCE = new Set(['CT-1-LCWT', 'CT-1-ECWT']);
/** Points without any timeseries (configuration parameters, a point never trended). */
const TS_NONE = new Set(['VAV-4-03-MINF', 'VAV-4-03-MAXF', 'AHU-2-SF-FAULT', 'Room-3-04-OCC-CNT']);
/** Points whose unit uses the legacy predicate `brick:hasUnits`. */
const LEGACY_UNIT = new Set(['EM-MAIN-CURR']);
/** Points stated as `point brick:isPointOf owner` instead of `owner brick:hasPoint point`. */
const POINT_OF_INVERSE = new Set([
  'VAV-3-01-OCC',
  'VAV-3-02-OCC',
  'VAV-3-03-OCC',
  'VAV-3-04-OCC',
  'AHU-2-SAT',
  'AHU-2-RAT',
  'CH-1-RUN',
  'Room-2-04-CO2',
  'Zone-1-02-AVG-ZAT',
]);
/** Custom literal properties on a few points (prop:writable overrides the class-derived default). */
const POINT_LITERALS: Record<string, Array<[string, LiteralValue]>> = {
  'AHU-1-SAT-SP': [
    ['writable', 'true'],
    ['valueType', 'float'],
  ],
  'AHU-1-SF-STS': [['valueType', 'boolean']],
  'VAV-1-01-DPR-CMD': [['valueType', 'float']],
  'CH-1-EN-CMD': [['valueType', 'boolean']],
  // A setpoint the plant sequence owns: read-only to operators despite being a Setpoint.
  'CH-1-LCHWT-SP': [
    ['writable', 'false'],
    ['valueType', 'float'],
  ],
  'B-1-LHWT-SP': [
    ['writable', 'true'],
    ['valueType', 'float'],
  ],
};

const FLOORS = [1, 2, 3, 4] as const;
const VAVS_PER_FLOOR = 4;
const ROOMS_PER_FLOOR = 8;
const two = (n: number): string => String(n).padStart(2, '0');

function buildDemoModel(seed: number): Model {
  const m = new Model();
  const rng = new Prng(seed);
  const areaRng = rng.fork('room-areas');
  const ifc = (id: string): string => deterministicIfcGlobalId(`${DEMO_SITE_ID}:${id}`);

  /** Points of `owner`, named (id and label) after `namesake`, by default the owner. */
  const addPoints = (owner: Entity, templates: PointTemplate[], namesake: Entity = owner): void => {
    for (const t of templates) {
      const id = `${namesake.id}-${t.key}`;
      const style: TimeseriesStyle = TS_NONE.has(id)
        ? 'none'
        : TS_BRICK_12.has(id)
          ? 'brick-1.2'
          : TS_HAS_TIMESERIES_REFERENCE.has(id)
            ? 'ref-timeseries-reference'
            : 'ref';
      m.add({
        id,
        kind: 'point',
        classes: [`brick:${t.cls}`],
        label: `${namesake.label} ${t.text}`,
        ...(t.unit ? { unit: t.unit } : {}),
        ...(LEGACY_UNIT.has(id) ? { legacyUnit: true } : {}),
        ...(style === 'none' ? {} : { ts: { id: `${DEMO_SITE_ID}:${id}`, style } }),
        literals: POINT_LITERALS[id] ?? [],
      });
      m.relate(owner.id, 'hasPoint', id, POINT_OF_INVERSE.has(id));
    }
  };

  const equipment = (
    id: string,
    cls: string,
    controllerName: string,
    opts: { label?: string; virtual?: boolean; ifc?: boolean; outputSubstance?: string; quantities?: Quantity[] } = {},
  ): Entity =>
    m.add({
      id,
      kind: 'equipment',
      classes: [`brick:${cls}`],
      label: opts.label ?? id,
      equipment: { controllerName, virtual: opts.virtual ?? false },
      ...(opts.ifc ? { ifcId: ifc(id) } : {}),
      ...(opts.outputSubstance ? { outputSubstance: opts.outputSubstance } : {}),
      ...(opts.quantities ? { quantities: opts.quantities } : {}),
    });

  // --- Building and levels -------------------------------------------------------------------------
  m.startSection('Building and levels');
  const building = m.add({
    id: 'Demo-Tower',
    kind: 'building',
    classes: ['brick:Building'],
    label: 'Demo Tower',
    ifcId: ifc('Demo-Tower'),
    literals: [['yearBuilt', 2011]],
    quantities: [{ predicate: 'brick:grossArea', value: 2640, unit: 'M2' }],
  });
  for (const f of FLOORS) {
    m.add({
      id: `Floor-${f}`,
      kind: 'level',
      // Real models mix the pre-1.4 brick:Floor with rec:Level.
      classes: [f === 3 ? 'brick:Floor' : 'rec:Level'],
      label: `Floor ${f}`,
      ifcId: ifc(`Floor-${f}`),
    });
    m.relate(building.id, 'hasPart', `Floor-${f}`);
  }
  m.add({ id: 'Roof', kind: 'level', classes: ['rec:RoofLevel'], label: 'Roof', ifcId: ifc('Roof') });
  m.relate(building.id, 'hasPart', 'Roof');

  // --- Rooms ---------------------------------------------------------------------------------------
  m.startSection('Rooms');
  const roomClass = (f: number, n: number): string => {
    switch (n) {
      case 1:
        return f === 1 ? 'rec:Lobby' : 'rec:Office';
      case 2:
        return 'rec:Office';
      case 4:
        return 'rec:ConferenceRoom';
      case 6:
        return f === 2 || f === 3 ? 'brick:Room' : 'rec:Room'; // older Brick class on two floors
      case 7:
        return 'rec:TelecommunicationRoom';
      case 8:
        return 'rec:Hallway';
      default:
        return 'rec:Room';
    }
  };
  const roomArea = (f: number, n: number): number => {
    switch (roomClass(f, n)) {
      case 'rec:Lobby':
        return areaRng.float(80, 120, 1);
      case 'rec:ConferenceRoom':
        return areaRng.float(30, 45, 1);
      case 'rec:TelecommunicationRoom':
        return areaRng.float(8, 14, 1);
      case 'rec:Hallway':
        return areaRng.float(40, 60, 1);
      default:
        return areaRng.float(14, 32, 1);
    }
  };
  for (const f of FLOORS) {
    for (let n = 1; n <= ROOMS_PER_FLOOR; n++) {
      const id = `Room-${f}-${two(n)}`;
      m.add({
        id,
        kind: 'room',
        classes: [roomClass(f, n)],
        label: `Room ${f}-${two(n)}`,
        ifcId: ifc(id),
        quantities: [{ predicate: 'brick:area', value: roomArea(f, n), unit: 'M2' }],
      });
      // One room states its floor the other way round.
      m.relate(`Floor-${f}`, 'hasPart', id, id === 'Room-4-02');
    }
  }
  m.add({
    id: 'Room-1-MER',
    kind: 'room',
    classes: ['rec:UtilitiesRoom'],
    label: 'Mechanical Room',
    ifcId: ifc('Room-1-MER'),
    quantities: [{ predicate: 'brick:area', value: 148, unit: 'M2' }],
  });
  m.relate('Floor-1', 'hasPart', 'Room-1-MER');

  // --- HVAC zones ----------------------------------------------------------------------------------
  m.startSection('HVAC zones: one per VAV (Zone-f-01..04) and one per FCU (Zone-f-05)');
  const zoneRooms: Record<number, number[]> = { 1: [1], 2: [2, 3], 3: [4], 4: [5, 6], 5: [7] };
  for (const f of FLOORS) {
    for (let z = 1; z <= VAVS_PER_FLOOR + 1; z++) {
      const id = `Zone-${f}-${two(z)}`;
      m.add({
        id,
        kind: 'zone',
        classes: [z === VAVS_PER_FLOOR + 1 ? 'rec:HVACZone' : 'brick:HVAC_Zone'],
        label: `Zone ${f}-${two(z)}`,
      });
      for (const r of zoneRooms[z] ?? []) {
        const room = `Room-${f}-${two(r)}`;
        m.relate(id, 'hasPart', room, room === 'Room-3-04'); // one stated as room isPartOf zone
      }
    }
  }

  // --- Water plant ---------------------------------------------------------------------------------
  m.startSection('Water plant: condenser water, chilled water and hot water loops');
  const plantCtl = 'DDC-PLANT-1';
  const ct = equipment('CT-1', 'Cooling_Tower', plantCtl);
  addPoints(ct, [
    pt('LCWT', 'Leaving_Condenser_Water_Temperature_Sensor', 'Leaving Condenser Water Temp', 'DEG_C'),
    pt('ECWT', 'Entering_Condenser_Water_Temperature_Sensor', 'Entering Condenser Water Temp', 'DEG_C'),
    pt('LCWT-SP', 'Leaving_Condenser_Water_Temperature_Setpoint', 'Leaving Condenser Water Temp Setpoint', 'DEG_C'),
    pt('FAN-SPD-CMD', 'Fan_Speed_Command', 'Fan Speed Command', 'PERCENT'),
    pt('FAN-STS', 'Fan_Status', 'Fan Status'),
    pt('EN-CMD', 'Enable_Command', 'Enable Command'),
    pt('FAULT', 'Fault_Status', 'Fault'),
  ]);
  const pumpPoints = (dpCls: string, dpSpCls?: string): PointTemplate[] => [
    pt('SPD-CMD', 'Speed_Command', 'Speed Command', 'PERCENT'),
    pt('STS', 'Pump_Status', 'Status'),
    pt('SS-CMD', 'Start_Stop_Command', 'Start Stop Command'),
    pt('DP', dpCls, 'Differential Pressure', 'KiloPA'),
    ...(dpSpCls ? [pt('DP-SP', dpSpCls, 'Differential Pressure Setpoint', 'KiloPA')] : []),
    pt('FREQ', 'Frequency_Sensor', 'Drive Frequency', 'HZ'),
    pt('FAULT', 'Fault_Status', 'Fault'),
  ];
  const cwp = equipment('CWP-1', 'Condenser_Water_Pump', plantCtl);
  addPoints(cwp, pumpPoints('Differential_Pressure_Sensor'));
  const ch = equipment('CH-1', 'Chiller', plantCtl, {
    ifc: true,
    // 650 kW, in watts: Brick's shape for a cooling capacity takes W, BTU/h or refrigeration tons only.
    quantities: [{ predicate: 'brick:coolingCapacity', value: 650_000, unit: 'W' }],
  });
  addPoints(ch, [
    pt('LCHWT', 'Leaving_Chilled_Water_Temperature_Sensor', 'Leaving Chilled Water Temp', 'DEG_C'),
    pt('ECHWT', 'Entering_Chilled_Water_Temperature_Sensor', 'Entering Chilled Water Temp', 'DEG_C'),
    pt('LCHWT-SP', 'Leaving_Chilled_Water_Temperature_Setpoint', 'Leaving Chilled Water Temp Setpoint', 'DEG_C'),
    pt('LCWT', 'Leaving_Condenser_Water_Temperature_Sensor', 'Leaving Condenser Water Temp', 'DEG_C'),
    pt('ECWT', 'Entering_Condenser_Water_Temperature_Sensor', 'Entering Condenser Water Temp', 'DEG_C'),
    pt('CHWF', 'Chilled_Water_Flow_Sensor', 'Chilled Water Flow', 'L-PER-SEC'),
    pt('EN-CMD', 'Enable_Command', 'Enable Command'),
    pt('RUN', 'Run_Status', 'Run Status'),
    pt('FAULT', 'Fault_Status', 'Fault'),
    pt('PWR', 'Electric_Power_Sensor', 'Electric Power', 'KiloW'),
  ]);
  const chwp = equipment('CHWP-1', 'Chilled_Water_Pump', plantCtl);
  addPoints(
    chwp,
    pumpPoints('Chilled_Water_Differential_Pressure_Sensor', 'Chilled_Water_Differential_Pressure_Setpoint'),
  );
  const boiler = equipment('B-1', 'Boiler', plantCtl, {
    ifc: true,
    quantities: [{ predicate: 'brick:ratedPowerOutput', value: 400, unit: 'KiloW' }],
  });
  addPoints(boiler, [
    // Deprecated pre-1.4 name (replaced by Leaving_Hot_Water_Temperature_Sensor), as in older models.
    pt('LHWT', 'Hot_Water_Supply_Temperature_Sensor', 'Leaving Hot Water Temp', 'DEG_C'),
    pt('EHWT', 'Entering_Hot_Water_Temperature_Sensor', 'Entering Hot Water Temp', 'DEG_C'),
    pt('LHWT-SP', 'Leaving_Hot_Water_Temperature_Setpoint', 'Leaving Hot Water Temp Setpoint', 'DEG_C'),
    pt('HWF', 'Hot_Water_Flow_Sensor', 'Hot Water Flow', 'L-PER-SEC'),
    pt('EN-CMD', 'Enable_Command', 'Enable Command'),
    pt('RUN', 'Run_Status', 'Run Status'),
    pt('FAULT', 'Fault_Status', 'Fault'),
  ]);
  const hwp = equipment('HWP-1', 'Hot_Water_Pump', plantCtl);
  addPoints(hwp, pumpPoints('Hot_Water_Differential_Pressure_Sensor', 'Hot_Water_Differential_Pressure_Setpoint'));
  const hx = equipment('HX-1', 'Heat_Exchanger', plantCtl, { outputSubstance: 'brick:Hot_Water' });
  addPoints(hx, [
    pt('PRI-EWT', 'Entering_Hot_Water_Temperature_Sensor', 'Primary Entering Water Temp', 'DEG_C'),
    pt('PRI-LWT', 'Leaving_Hot_Water_Temperature_Sensor', 'Primary Leaving Water Temp', 'DEG_C'),
    pt('SEC-LWT', 'Heat_Exchanger_Leaving_Water_Temperature_Sensor', 'Secondary Leaving Water Temp', 'DEG_C'),
    pt('SEC-LWT-SP', 'Leaving_Hot_Water_Temperature_Setpoint', 'Secondary Leaving Water Temp Setpoint', 'DEG_C'),
    pt('VLV-CMD', 'Valve_Position_Command', 'Control Valve Command', 'PERCENT'),
    pt('EN-STS', 'Heat_Exchanger_System_Enable_Status', 'Enable Status'),
  ]);
  for (const e of [ch, boiler, cwp, chwp, hwp, hx]) m.relate(e.id, 'hasLocation', 'Room-1-MER');
  m.relate(ct.id, 'hasLocation', 'Roof');
  // Condenser loop and chilled water: CT-1 → CWP-1 → CH-1 → CHWP-1
  m.relate('CT-1', 'feeds', 'CWP-1');
  m.relate('CWP-1', 'feeds', 'CH-1', true); // stated as CH-1 isFedBy CWP-1
  m.relate('CH-1', 'feeds', 'CHWP-1');
  // Hot water: B-1 → HWP-1 → HX-1
  m.relate('B-1', 'feeds', 'HWP-1');
  m.relate('HWP-1', 'feeds', 'HX-1');

  // --- Air handling units --------------------------------------------------------------------------
  m.startSection('Air handling units and their parts');
  const ahus: Array<{ id: string; cls: string; floors: number[]; location: string }> = [
    { id: 'AHU-1', cls: 'AHU', floors: [1, 2], location: 'Room-1-MER' },
    { id: 'AHU-2', cls: 'Air_Handling_Unit', floors: [3, 4], location: 'Roof' },
  ];
  for (const a of ahus) {
    const ctl = `DDC-${a.id}`;
    const ahu = equipment(a.id, a.cls, ctl, { ifc: true });
    addPoints(ahu, [
      pt('SAT', 'Supply_Air_Temperature_Sensor', 'Supply Air Temp', 'DEG_C'),
      pt('SAT-SP', 'Supply_Air_Temperature_Setpoint', 'Supply Air Temp Setpoint', 'DEG_C'),
      pt('RAT', 'Return_Air_Temperature_Sensor', 'Return Air Temp', 'DEG_C'),
      pt('MAT', 'Mixed_Air_Temperature_Sensor', 'Mixed Air Temp', 'DEG_C'),
      pt('OAT', 'Outside_Air_Temperature_Sensor', 'Outside Air Temp', 'DEG_C'),
      pt('SAP', 'Supply_Air_Static_Pressure_Sensor', 'Supply Air Static Pressure', 'PA'),
      pt('SAP-SP', 'Supply_Air_Static_Pressure_Setpoint', 'Supply Air Static Pressure Setpoint', 'PA'),
      pt('FLT-DP', 'Filter_Differential_Pressure_Sensor', 'Filter Differential Pressure', 'PA'),
      pt('OAH', 'Outside_Air_Humidity_Sensor', 'Outside Air Humidity', 'PERCENT_RH'),
      pt('RAH', 'Return_Air_Humidity_Sensor', 'Return Air Humidity', 'PERCENT_RH'),
      pt('OAD-CMD', 'Damper_Position_Command', 'Outside Air Damper Command', 'PERCENT'),
      pt('SAF', 'Supply_Air_Flow_Sensor', 'Supply Air Flow', 'M3-PER-SEC'),
    ]);
    m.relate(a.id, 'hasLocation', a.location);

    const sf = equipment(`${a.id}-SF`, 'Supply_Fan', ctl);
    addPoints(sf, [
      pt('SPD-CMD', 'Fan_Speed_Command', 'Speed Command', 'PERCENT'),
      pt('STS', 'Fan_Status', 'Status'),
      pt('SS-CMD', 'Start_Stop_Command', 'Start Stop Command'),
      pt('FREQ', 'Frequency_Sensor', 'Drive Frequency', 'HZ'),
      pt('PWR', 'Electric_Power_Sensor', 'Electric Power', 'KiloW'),
      pt('FAULT', 'Fault_Status', 'Fault'),
    ]);
    const cc = equipment(`${a.id}-CC`, 'Chilled_Water_Coil', ctl);
    addPoints(cc, [
      pt('VLV-CMD', 'Valve_Position_Command', 'Valve Command', 'PERCENT'),
      pt('VLV-POS', 'Valve_Position_Sensor', 'Valve Position', 'PERCENT'),
      pt('ECHWT', 'Entering_Chilled_Water_Temperature_Sensor', 'Entering Chilled Water Temp', 'DEG_C'),
      pt('LCHWT', 'Leaving_Chilled_Water_Temperature_Sensor', 'Leaving Chilled Water Temp', 'DEG_C'),
      pt('LAT', 'Discharge_Air_Temperature_Sensor', 'Leaving Air Temp', 'DEG_C'),
    ]);
    const hc = equipment(`${a.id}-HC`, 'Hot_Water_Coil', ctl);
    addPoints(hc, [
      pt('VLV-CMD', 'Valve_Position_Command', 'Valve Command', 'PERCENT'),
      pt('VLV-POS', 'Valve_Position_Sensor', 'Valve Position', 'PERCENT'),
      pt('EHWT', 'Entering_Hot_Water_Temperature_Sensor', 'Entering Hot Water Temp', 'DEG_C'),
      pt('LHWT', 'Leaving_Hot_Water_Temperature_Sensor', 'Leaving Hot Water Temp', 'DEG_C'),
      pt('FRZ', 'Freeze_Status', 'Freezestat'),
    ]);
    m.relate(a.id, 'hasPart', sf.id);
    m.relate(a.id, 'hasPart', cc.id, a.id === 'AHU-2'); // stated as AHU-2-CC isPartOf AHU-2
    m.relate(a.id, 'hasPart', hc.id);
    m.relate('CHWP-1', 'feeds', a.id);
    m.relate('HX-1', 'feeds', a.id, a.id === 'AHU-2'); // stated as AHU-2 isFedBy HX-1
  }

  // --- VAV boxes -----------------------------------------------------------------------------------
  m.startSection('VAV boxes: VAV-<floor>-<nn> feeds Zone-<floor>-<nn>; VAV-<floor>-01 have hot water reheat');
  for (const f of FLOORS) {
    const ahu = f <= 2 ? 'AHU-1' : 'AHU-2';
    const legacy = f <= 2; // floors 1-2: older controllers, pre-1.4 class names
    for (let n = 1; n <= VAVS_PER_FLOOR; n++) {
      const id = `VAV-${f}-${two(n)}`;
      const reheat = n === 1;
      const vav = equipment(id, 'VAV', `DDC-${id}`, { ifc: true });
      addPoints(vav, [
        pt('ZAT', 'Zone_Air_Temperature_Sensor', 'Zone Air Temp', 'DEG_C'),
        legacy
          ? pt('ZAT-SP', 'Zone_Air_Temperature_Setpoint', 'Zone Air Temp Setpoint', 'DEG_C') // deprecated in 1.4
          : pt('ZAT-SP', 'Target_Zone_Air_Temperature_Setpoint', 'Zone Air Temp Setpoint', 'DEG_C'),
        legacy
          ? pt('SAF', 'Supply_Air_Flow_Sensor', 'Supply Air Flow', 'L-PER-SEC')
          : pt('DAF', 'Discharge_Air_Flow_Sensor', 'Discharge Air Flow', 'L-PER-SEC'),
        legacy
          ? pt('SAF-SP', 'Supply_Air_Flow_Setpoint', 'Supply Air Flow Setpoint', 'L-PER-SEC')
          : pt('DAF-SP', 'Discharge_Air_Flow_Setpoint', 'Discharge Air Flow Setpoint', 'L-PER-SEC'),
        pt('DPR-CMD', 'Damper_Position_Command', 'Damper Command', 'PERCENT'),
        pt('DPR-POS', 'Damper_Position_Sensor', 'Damper Position', 'PERCENT'),
        ...(n % 2 === 1 ? [pt('ZAH', 'Zone_Air_Humidity_Sensor', 'Zone Air Humidity', 'PERCENT_RH')] : []),
        pt('OCC', 'Occupancy_Sensor', 'Occupancy'),
        ...(reheat
          ? [
              pt('RHV-CMD', 'Valve_Position_Command', 'Reheat Valve Command', 'PERCENT'),
              pt('DAT', 'Discharge_Air_Temperature_Sensor', 'Discharge Air Temp', 'DEG_C'),
            ]
          : []),
        ...(legacy
          ? []
          : [
              pt('MINF', 'Min_Air_Flow_Setpoint_Limit', 'Min Air Flow Limit', 'L-PER-SEC'),
              pt('MAXF', 'Max_Air_Flow_Setpoint_Limit', 'Max Air Flow Limit', 'L-PER-SEC'),
            ]),
      ]);
      const zone = `Zone-${f}-${two(n)}`;
      const room = `Room-${f}-${two(zoneRooms[n]?.[0] ?? n)}`;
      m.relate(ahu, 'feeds', id, id === 'VAV-2-03' || id === 'VAV-3-02'); // two stated as vav isFedBy ahu
      if (reheat) m.relate('HX-1', 'feeds', id);
      m.relate(id, 'feeds', zone, zone === 'Zone-4-02'); // one stated as zone isFedBy vav
      m.relate(id, 'hasLocation', room, id === 'VAV-2-02' || id === 'VAV-4-04'); // two as room isLocationOf vav
    }
  }

  // --- Fan coil units ------------------------------------------------------------------------------
  m.startSection('Fan coil units: one per floor, cooling the telecom room (Zone-<floor>-05)');
  for (const f of FLOORS) {
    const id = `FCU-${f}-1`;
    const fcu = equipment(id, 'FCU', `DDC-${id}`);
    addPoints(fcu, [
      pt('ZAT', 'Zone_Air_Temperature_Sensor', 'Zone Air Temp', 'DEG_C'),
      pt('ZAT-SP', 'Target_Zone_Air_Temperature_Setpoint', 'Zone Air Temp Setpoint', 'DEG_C'),
      pt('DAT', 'Discharge_Air_Temperature_Sensor', 'Discharge Air Temp', 'DEG_C'),
      pt('FAN-SPD-CMD', 'Fan_Speed_Command', 'Fan Speed Command', 'PERCENT'),
      pt('FAN-STS', 'Fan_Status', 'Fan Status'),
      pt('CHW-VLV-CMD', 'Valve_Position_Command', 'Chilled Water Valve Command', 'PERCENT'),
      pt('HW-VLV-CMD', 'Valve_Position_Command', 'Hot Water Valve Command', 'PERCENT'),
      pt('MODE', 'Operating_Mode_Status', 'Operating Mode'),
    ]);
    m.relate('CHWP-1', 'feeds', id);
    m.relate('HWP-1', 'feeds', id);
    m.relate(id, 'feeds', `Zone-${f}-05`);
    m.relate(id, 'hasLocation', `Room-${f}-07`);
  }

  // --- Meters and weather station ------------------------------------------------------------------
  m.startSection('Meters (two virtual) and the rooftop weather station');
  const em = equipment('EM-MAIN', 'Building_Electrical_Meter', 'EM-GW-1');
  addPoints(em, [
    pt('PWR', 'Active_Power_Sensor', 'Active Power', 'KiloW'),
    pt('ENERGY', 'Electric_Energy_Sensor', 'Active Energy', 'KiloW-HR'),
    pt('VOLT', 'Voltage_Sensor', 'Voltage', 'V'),
    pt('CURR', 'Current_Sensor', 'Current', 'A'),
    pt('PF', 'Power_Factor_Sensor', 'Power Factor', 'UNITLESS'),
    pt('FREQ', 'Frequency_Sensor', 'Frequency', 'HZ'),
  ]);
  m.relate(em.id, 'hasLocation', 'Room-1-MER');
  const vmHvac = equipment('VM-HVAC', 'Electrical_Meter', 'VMS-1', { virtual: true });
  addPoints(vmHvac, [
    pt('PWR', 'Active_Power_Sensor', 'Active Power', 'KiloW'),
    pt('ENERGY', 'Electric_Energy_Sensor', 'Active Energy', 'KiloW-HR'),
    pt('RPWR', 'Reactive_Power_Sensor', 'Reactive Power', 'KiloV-A_Reactive'),
    pt('RENERGY', 'Reactive_Energy_Sensor', 'Reactive Energy', 'KiloV-A_Reactive-HR'),
    pt('PF', 'Power_Factor_Sensor', 'Power Factor', 'UNITLESS'),
  ]);
  const vmChw = equipment('VM-CHW', 'Chilled_Water_Meter', 'VMS-1', { virtual: true });
  addPoints(vmChw, [
    pt('THPWR', 'Thermal_Power_Sensor', 'Thermal Power', 'KiloW'),
    pt('THENERGY', 'Thermal_Energy_Usage_Sensor', 'Thermal Energy', 'KiloW-HR'),
    pt('FLOW', 'Chilled_Water_Flow_Sensor', 'Chilled Water Flow', 'L-PER-SEC'),
    pt('ECHWT', 'Entering_Chilled_Water_Temperature_Sensor', 'Entering Chilled Water Temp', 'DEG_C'),
    pt('LCHWT', 'Leaving_Chilled_Water_Temperature_Sensor', 'Leaving Chilled Water Temp', 'DEG_C'),
  ]);
  const ws = equipment('WS-1', 'Weather_Station', 'DDC-ROOF-1');
  addPoints(ws, [
    pt('OAT', 'Outside_Air_Temperature_Sensor', 'Outside Air Temp', 'DEG_C'),
    pt('OAH', 'Outside_Air_Humidity_Sensor', 'Outside Air Humidity', 'PERCENT_RH'),
    pt('OAWB', 'Outside_Air_Wet_Bulb_Temperature_Sensor', 'Outside Air Wet Bulb Temp', 'DEG_C'),
    pt('OADP', 'Outside_Air_Dewpoint_Sensor', 'Outside Air Dewpoint', 'DEG_C'),
    pt('WIND', 'Wind_Speed_Sensor', 'Wind Speed', 'M-PER-SEC'),
    pt('SOLAR', 'Solar_Irradiance_Sensor', 'Solar Irradiance', 'W-PER-M2'),
  ]);
  m.relate(ws.id, 'hasLocation', 'Roof');

  // --- Room and zone points ------------------------------------------------------------------------
  m.startSection('Room-level and zone-level points');
  for (const f of FLOORS) {
    addPoints(m.get(`Room-${f}-01`), [
      pt('CO2', 'CO2_Level_Sensor', 'CO2', 'PPM'),
      pt('OCC', 'Occupancy_Sensor', 'Occupancy'),
    ]);
    addPoints(m.get(`Room-${f}-04`), [
      pt('CO2', 'CO2_Level_Sensor', 'CO2', 'PPM'),
      pt('OCC', 'Occupancy_Sensor', 'Occupancy'),
      pt('OCC-CNT', 'Occupancy_Count_Sensor', 'People Count'),
    ]);
    addPoints(m.get(`Zone-${f}-02`), [
      pt('AVG-ZAT', 'Average_Zone_Air_Temperature_Sensor', 'Average Air Temp', 'DEG_C'),
      pt('OCC-STS', 'Occupancy_Status', 'Occupancy Status'),
    ]);
  }

  // --- Systems -------------------------------------------------------------------------------------
  m.startSection('Systems');
  const system = (id: string, cls: string, members: string[], inverseMembers: string[] = []): Entity => {
    const s = m.add({ id, kind: 'system', classes: [`brick:${cls}`], label: id });
    for (const e of members) m.relate(id, 'hasPart', e, inverseMembers.includes(e));
    return s;
  };
  // Brick 1.4's shapes let a point be a point of equipment or a location, not of a system: each
  // plant's enable command is a point of the equipment the plant sequence starts first (the chiller,
  // the boiler), named after its system, and so still among the system's points.
  const chwSys = system('CHW-SYS', 'Chilled_Water_System', ['CH-1', 'CHWP-1', 'CT-1', 'CWP-1']);
  addPoints(ch, [pt('EN-CMD', 'Chilled_Water_System_Enable_Command', 'Enable Command')], chwSys);
  const hwSys = system('HW-SYS', 'Hot_Water_System', ['B-1', 'HWP-1', 'HX-1']);
  addPoints(boiler, [pt('EN-CMD', 'Hot_Water_System_Enable_Command', 'Enable Command')], hwSys);
  const vavsOf = (floors: number[]): string[] =>
    floors.flatMap((f) => Array.from({ length: VAVS_PER_FLOOR }, (_, i) => `VAV-${f}-${two(i + 1)}`));
  system('AIR-SYS-1', 'Air_System', ['AHU-1', ...vavsOf([1, 2])], ['VAV-1-03']);
  system('AIR-SYS-2', 'Air_System', ['AHU-2', ...vavsOf([3, 4])]);
  system('HVAC-SYS', 'HVAC_System', ['CHW-SYS', 'HW-SYS', 'AIR-SYS-1', 'AIR-SYS-2']);

  // Every override set must name real points (catches typos when editing the tables above).
  for (const set of [TS_BRICK_12, TS_HAS_TIMESERIES_REFERENCE, TS_NONE, LEGACY_UNIT, POINT_OF_INVERSE]) {
    for (const id of set) if (m.get(id).kind !== 'point') throw new Error(`${id} is not a point`);
  }
  for (const id of Object.keys(POINT_LITERALS)) if (m.get(id).kind !== 'point') throw new Error(`${id} is not a point`);
  return m;
}

// ---------------------------------------------------------------------------------------------------
// Statistics

export interface FeedsChain {
  /** Entity ids from the first equipment to the zone. */
  path: string[];
  hops: number;
}

export interface DemoStats {
  triples: number;
  subjects: number;
  byKind: Record<Kind, number>;
  /** Class term → number of instances, per kind. */
  classesByKind: Record<Kind, Record<string, number>>;
  timeseriesStyles: Record<TimeseriesStyle, number>;
  ifcIds: number;
  relations: number;
  relationsStatedInverse: number;
  longestFeedsChain: FeedsChain;
}

function longestFeedsChain(m: Model): FeedsChain {
  const next = new Map<string, string[]>();
  for (const r of m.relations) if (r.rel === 'feeds') next.set(r.s, [...(next.get(r.s) ?? []), r.o]);
  const memo = new Map<string, string[]>(); // longest path from a node to a zone
  const visiting = new Set<string>();
  const longest = (id: string): string[] => {
    const cached = memo.get(id);
    if (cached) return cached;
    if (visiting.has(id)) throw new Error(`feeds cycle through ${id}`);
    visiting.add(id);
    let best: string[] = m.get(id).kind === 'zone' ? [id] : [];
    for (const n of next.get(id) ?? []) {
      const p = longest(n);
      if (p.length > 0 && p.length + 1 > best.length) best = [id, ...p];
    }
    visiting.delete(id);
    memo.set(id, best);
    return best;
  };
  let best: string[] = [];
  for (const e of m.entities) {
    if (e.kind !== 'equipment') continue;
    const p = longest(e.id);
    if (p.length > best.length) best = p;
  }
  return { path: best, hops: Math.max(0, best.length - 1) };
}

function computeStats(m: Model, writer: TurtleWriter): DemoStats {
  const kinds: Kind[] = ['building', 'level', 'room', 'zone', 'equipment', 'point', 'system'];
  const byKind = Object.fromEntries(kinds.map((k) => [k, 0])) as Record<Kind, number>;
  const classesByKind = Object.fromEntries(kinds.map((k) => [k, {}])) as Record<Kind, Record<string, number>>;
  const timeseriesStyles: Record<TimeseriesStyle, number> = {
    ref: 0,
    'ref-timeseries-reference': 0,
    'brick-1.2': 0,
    none: 0,
  };
  for (const e of m.entities) {
    byKind[e.kind]++;
    for (const c of e.classes) classesByKind[e.kind][c] = (classesByKind[e.kind][c] ?? 0) + 1;
    if (e.kind === 'point') timeseriesStyles[e.ts?.style ?? 'none']++;
  }
  return {
    triples: writer.tripleCount,
    subjects: writer.subjectCount,
    byKind,
    classesByKind,
    timeseriesStyles,
    ifcIds: m.entities.filter((e) => e.ifcId).length,
    relations: m.relations.length,
    relationsStatedInverse: m.relations.filter((r) => r.inverse).length,
    longestFeedsChain: longestFeedsChain(m),
  };
}

// ---------------------------------------------------------------------------------------------------
// Writing

export interface DemoGenerationOptions {
  seed?: number;
  /** Progress messages (the CLI prints them to stderr). */
  onProgress?: (message: string) => void;
}

export interface DemoGenerationResult {
  stats: DemoStats;
  /** [IFC GlobalId, entity local name] in document order. */
  ifcIds: Array<[string, string]>;
}

/** Write the demo building as Turtle, line by line, to `sink`. */
export function generateDemo(sink: LineSink, options: DemoGenerationOptions = {}): DemoGenerationResult {
  const seed = options.seed ?? DEMO_SEED;
  const progress = options.onProgress ?? (() => {});
  const model = buildDemoModel(seed);
  progress(`model: ${model.entities.length} entities, ${model.relations.length} relations`);

  // Index relations by the subject whose block states them.
  const stated = new Map<string, Array<[string, string]>>(); // subject → [predicate local name, object id]
  for (const r of model.relations) {
    const [subject, predicate, object] = r.inverse ? [r.o, INVERSE[r.rel], r.s] : [r.s, r.rel, r.o];
    stated.set(subject, [...(stated.get(subject) ?? []), [predicate, object]]);
  }
  const pointCount = (id: string): number => model.targets(id, 'hasPoint').length;

  const w = new TurtleWriter(sink, brickPrefixes({ demo: DEMO_NAMESPACE, prop: PROP_NAMESPACE }));
  const demo = w.ns('demo');
  const prop = w.ns('prop');

  w.comment(
    [
      `Demo site "${DEMO_SITE_ID}": the Demo Tower, a modeled office building (Brick 1.4 with RealEstateCore classes).`,
      'Generated by scripts/generate-demo.ts (npm run generate:demo). Do not edit by hand: change the generator.',
      'Deliberately mixed like real models: relationships stated in either direction, some pre-1.4 class names,',
      'three styles of timeseries reference, a legacy brick:hasUnits. See fixtures/README.md.',
    ].join('\n'),
  );
  w.blankLine();
  w.writePrefixes();

  // Brick 1.4's shapes require each ref:IFCReference to name its project (ref:hasIfcProjectReference).
  w.comment('--- The IFC project the IFC references belong to ---');
  w.blankLine();
  const project = demo(DEMO_IFC_PROJECT);
  const projectBlock = label(w.subject(project).a('ref:ifcProject'), 'Demo Tower IFC model');
  ifcProject(projectBlock, deterministicIfcGlobalId(`${DEMO_SITE_ID}:${DEMO_IFC_PROJECT}`), DEMO_IFC_FILE).end();
  w.blankLine();

  let section = '';
  const ifcIds: Array<[string, string]> = [];
  for (const e of model.entities) {
    if (e.section !== section) {
      if (section !== '') {
        progress(`wrote section "${section}" (${w.tripleCount} triples so far)`);
        w.blankLine();
      }
      section = e.section;
      w.comment(`--- ${section} ---`);
    }
    if (e.kind !== 'point') w.blankLine();
    const b = w.subject(demo(e.id)).a(...e.classes);
    label(b, e.label);
    const rels = (stated.get(e.id) ?? [])
      .slice()
      .sort(([a], [c]) => PREDICATE_ORDER.indexOf(a) - PREDICATE_ORDER.indexOf(c));
    for (const [predicate, object] of rels) b.add(`brick:${predicate}`, demo(object));
    // Brick 1.4 names a collection's members with rec:includes (its shapes require one); hasPart,
    // stated above, is what the service reads for system membership (docs/brick-mapping.md, "System members").
    if (e.kind === 'system') b.add('rec:includes', ...model.targets(e.id, 'hasPart').map(demo));
    if (e.outputSubstance) b.add('brick:hasOutputSubstance', e.outputSubstance);
    if (e.equipment) {
      literalProperties(b, prop, [
        ['controllerName', e.equipment.controllerName],
        ['pointCount', pointCount(e.id)],
        ['virtual', e.equipment.virtual],
      ]);
    }
    literalProperties(b, prop, e.literals);
    for (const q of e.quantities) quantity(b, q.predicate, q.value, q.unit);
    if (e.unit) unit(b, e.unit, e.legacyUnit);
    if (e.ts) timeseries(b, e.ts.id, e.ts.style);
    if (e.ifcId) {
      ifcReference(b, e.ifcId, project);
      ifcIds.push([e.ifcId, e.id]);
    }
    b.end();
  }
  progress(`wrote section "${section}" (${w.tripleCount} triples)`);
  return { stats: computeStats(model, w), ifcIds };
}

/** The whole demo document as text (for tests and --check). */
export function generateDemoText(options: DemoGenerationOptions = {}): { text: string; result: DemoGenerationResult } {
  const sink = new ArrayLineSink();
  const result = generateDemo(sink, options);
  return { text: sink.text(), result };
}

/** fixtures/demo-ifc-ids.json: `{ "<GlobalId>": "<entity local name>" }` in document order. */
export function ifcIdsJson(ifcIds: ReadonlyArray<readonly [string, string]>): string {
  const seen = new Set<string>();
  for (const [g] of ifcIds) {
    if (seen.has(g)) throw new Error(`Duplicate IFC GlobalId ${g}`);
    seen.add(g);
  }
  const body = ifcIds.map(([g, id]) => `  ${JSON.stringify(g)}: ${JSON.stringify(id)}`).join(',\n');
  return `{\n${body}\n}\n`;
}

export function formatStats(stats: DemoStats): string {
  const lines: string[] = [];
  lines.push(`triples: ${stats.triples} (${stats.subjects} subject blocks)`);
  lines.push(
    `entities: ${Object.entries(stats.byKind)
      .map(([k, n]) => `${k} ${n}`)
      .join(', ')}`,
  );
  for (const [kind, classes] of Object.entries(stats.classesByKind)) {
    const list = Object.entries(classes)
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([c, n]) => `${c} ${n}`)
      .join(', ');
    if (list) lines.push(`  ${kind}: ${list}`);
  }
  lines.push(
    `timeseries: ${Object.entries(stats.timeseriesStyles)
      .map(([s, n]) => `${s} ${n}`)
      .join(', ')}`,
  );
  lines.push(`IFC GlobalIds: ${stats.ifcIds}`);
  lines.push(`relations: ${stats.relations} (${stats.relationsStatedInverse} stated in the inverse direction)`);
  lines.push(`longest feeds chain: ${stats.longestFeedsChain.hops} hops: ${stats.longestFeedsChain.path.join(' -> ')}`);
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------
// CLI

const FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
export const DEMO_TTL_PATH = resolve(FIXTURES_DIR, 'demo.ttl');
export const DEMO_IFC_IDS_PATH = resolve(FIXTURES_DIR, 'demo-ifc-ids.json');

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function main(argv: string[]): number {
  const check = argv.includes('--check');
  const log = (msg: string): void => console.error(`[generate-demo] ${msg}`);
  const started = performance.now();

  if (check) {
    const { text, result } = generateDemoText({ onProgress: log });
    const ok = readOrEmpty(DEMO_TTL_PATH) === text && readOrEmpty(DEMO_IFC_IDS_PATH) === ifcIdsJson(result.ifcIds);
    log(ok ? 'fixtures are up to date' : 'fixtures are out of date: run npm run generate:demo');
    return ok ? 0 : 1;
  }

  const sink = new FileLineSink(DEMO_TTL_PATH);
  let result: DemoGenerationResult;
  try {
    result = generateDemo(sink, { onProgress: log });
    sink.close();
  } catch (err) {
    sink.abort();
    throw err;
  }
  const ifcSink = new FileLineSink(DEMO_IFC_IDS_PATH);
  ifcSink.write(ifcIdsJson(result.ifcIds).trimEnd());
  ifcSink.close();
  log(`wrote ${DEMO_TTL_PATH} (${sink.bytesWritten} bytes) and ${DEMO_IFC_IDS_PATH} (${result.ifcIds.length} ids)`);
  log(formatStats(result.stats));
  log(`done in ${Math.round(performance.now() - started)} ms`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
