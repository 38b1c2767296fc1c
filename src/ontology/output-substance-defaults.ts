/**
 * The substance an equipment class outputs when the data states no brick:hasOutputSubstance: what a
 * `feeds` edge from that equipment carries (docs/brick-mapping.md, "Output substances"). Brick 1.4 has no
 * such default itself.
 *
 * An entry applies to the class's whole closure (subclasses, equivalents such as AHU, replacements), and
 * the most specific entry wins: a Chilled_Water_Pump is a Water_Pump, but carries chilled water. An entry
 * whose substance is null says "no default" for a subtree that a broader entry would otherwise cover.
 * Classes and substances are Brick local names; each was checked against Brick 1.4.4.
 *
 * Why water where the exact water is unknown: an edge of plain Water matches every water medium
 * (WATER, HOT_WATER, CHILLED_WATER, CONDENSER_WATER), so traversal with any of them still follows it.
 */
export interface OutputSubstanceDefault {
  readonly equipmentClass: string;
  readonly substance: string | null;
}

/** The project's defaults. Between two equally specific entries that both apply, the earlier wins. */
export const OUTPUT_SUBSTANCE_DEFAULTS: readonly OutputSubstanceDefault[] = [
  // Air side. Air_Handling_Unit covers AHU, Air_Handler_Unit, RTU, DOAS, MAU and their aliases.
  { equipmentClass: 'Air_Handling_Unit', substance: 'Air' },
  { equipmentClass: 'Computer_Room_Air_Conditioning', substance: 'Air' },
  { equipmentClass: 'Computer_Room_Air_Handler', substance: 'Air' },
  { equipmentClass: 'Packaged_Heat_Pump', substance: 'Air' },
  // Terminal units (VAV, CAV, FCU, chilled beams, induction units, diffusers) supply air to a zone...
  { equipmentClass: 'Terminal_Unit', substance: 'Air' },
  // ...except radiators and radiant panels, which heat or cool by radiation, with no supply stream.
  { equipmentClass: 'Radiator', substance: null },
  { equipmentClass: 'Radiant_Panel', substance: null },
  { equipmentClass: 'Fan', substance: 'Air' },
  { equipmentClass: 'Damper', substance: 'Air' },
  { equipmentClass: 'Economizer', substance: 'Air' },
  { equipmentClass: 'Filter', substance: 'Air' },
  { equipmentClass: 'Air_Plenum', substance: 'Air' },

  // Plant. A heat exchanger's secondary loop is most often water of some kind (see above); coils and
  // heat wheels, which Brick files under Heat_Exchanger, sit in an air stream and pass air on.
  { equipmentClass: 'Heat_Exchanger', substance: 'Water' },
  { equipmentClass: 'Coil', substance: 'Air' },
  { equipmentClass: 'Heat_Wheel', substance: 'Air' },
  { equipmentClass: 'Chiller', substance: 'Chilled_Water' },
  { equipmentClass: 'Water_Heater', substance: 'Hot_Water' },
  { equipmentClass: 'Boiler', substance: 'Hot_Water' },
  { equipmentClass: 'Cooling_Tower', substance: 'Condenser_Water' },

  // Pumps: brick:Pump itself says nothing (booster and circulator pumps may move anything), its named
  // water subclasses do. Chilled/hot/condenser booster and circulator pumps are subclasses of these.
  { equipmentClass: 'Water_Pump', substance: 'Water' },
  { equipmentClass: 'Chilled_Water_Pump', substance: 'Chilled_Water' },
  { equipmentClass: 'Hot_Water_Pump', substance: 'Hot_Water' },
  { equipmentClass: 'Condenser_Water_Pump', substance: 'Condenser_Water' },
  { equipmentClass: 'Domestic_Hot_Water_Circulator_Pump', substance: 'Domestic_Hot_Water' },

  // Valves named for what flows through them sit in the same chains as the pumps.
  { equipmentClass: 'Water_Valve', substance: 'Water' },
  { equipmentClass: 'Chilled_Water_Valve', substance: 'Chilled_Water' },
  { equipmentClass: 'Hot_Water_Valve', substance: 'Hot_Water' },
  { equipmentClass: 'Domestic_Hot_Water_Valve', substance: 'Domestic_Hot_Water' },
  { equipmentClass: 'Condenser_Water_Valve', substance: 'Condenser_Water' },
  { equipmentClass: 'Steam_Valve', substance: 'Steam' },
  { equipmentClass: 'Gas_Valve', substance: 'Natural_Gas' },
];
