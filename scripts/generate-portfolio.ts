/**
 * Generates a portfolio site for benchmarks: many buildings in one Brick model, of any size.
 *
 *   npm run generate -- --triples 1M                 # about 1,000,000 triples → bench/data/portfolio-1M.ttl
 *   npm run generate -- --triples 100k --seed 7      # another portfolio of the same size
 *   npm run generate -- --buildings 3 --floors 10 --vavs-per-floor 8 --out /tmp/p.ttl
 *
 * Options: `--triples N` (accepts 20000, 100k, 1M, 5M) fills buildings until the file is as close as it
 * can get to N triples (the last building gets fewer floors); `--buildings N` writes N whole buildings
 * (with `--triples` too, at most N); `--floors`, `--vavs-per-floor`, `--floors-per-ahu` fix what is
 * otherwise drawn per building; `--seed`; `--out` (default `bench/data/portfolio-<size>.ttl`).
 * The Turtle is written building by building (one building in memory at a time), with progress on
 * stderr and a summary (counts by kind) at the end, also appended to the file as a comment.
 *
 * Output is deterministic for given options: a seeded PRNG (one stream per building, so building 7 is the
 * same whatever the target) and SHA-256-derived IFC GlobalIds; no clock, no Math.random().
 *
 * Model (per building, Brick 1.4 with RealEstateCore classes, the conventions of the demo site):
 *   building hasPart floors (rec:Level, or brick:Floor in older buildings) and a roof;
 *   floor hasPart rooms (offices, conference rooms, a hallway, a toilet, a telecom room; the mechanical
 *   room on floor 1); HVAC zones (one per VAV, one per FCU) hasPart their rooms;
 *   water plant: cooling towers feed condenser water pumps feed chillers feed chilled water pumps feed
 *   AHUs and FCUs; boilers feed hot water pumps feed a heat exchanger that feeds AHUs and reheat VAVs;
 *   AHU hasPart supply fan, return fan (some), cooling coil, heating coil; AHU feeds the VAVs of its
 *   floors; VAV feeds its zone and hasLocation its room; FCU feeds the telecom room's zone;
 *   meters (one electrical, virtual ones), some weather stations, a lighting control panel typed with a
 *   vendor class outside Brick (ext:LightingControlPanel: equipment only by the kind fallback, as
 *   "something with points"; docs/brick-mapping.md, "Kinds add up"); systems (chilled water, hot water,
 *   one air system per AHU with its VAVs, an HVAC system over them) hasPart their members.
 *   Every equipment has 5–15 points with Brick point classes, units and timeseries references, and the
 *   properties controllerName, pointCount and virtual. Like real models: about 12% of relationships are
 *   stated in the inverse direction (isPartOf, isPointOf, isFedBy, isLocationOf), older buildings (B02,
 *   B05, B08, ...) use pre-1.4 class names (brick:Floor, brick:Office, brick:HVAC_Zone,
 *   brick:Zone_Air_Temperature_Setpoint, ...) and a few points elsewhere do too, timeseries
 *   ids come in three styles, a few units use the legacy brick:hasUnits, and buildings, floors, most
 *   rooms, AHUs, chillers, boilers and some VAVs carry IFC GlobalIds.
 *
 * Naming (so benchmark queries can target entities): building n is `B` + n with at least two digits
 * (`B03`, `B123`). Every entity's IRI is `pf:<B>-<local>` in https://example.org/buildings/portfolio#
 * and its rdfs:label is `<B> <local>` (the first hyphen becomes a space), both unique:
 *   Building                 B03 Building                 (B03-Building)
 *   Floor-<f>, Roof          B03 Floor-2, B03 Roof         floors 1..F, unpadded
 *   Room-<f>-<nn>            B03 Room-2-05                 nn two digits; Room-MER is the mechanical room
 *   Zone-<f>-<nn>            B03 Zone-2-04                 zone nn is served by VAV-<f>-<nn> (the last one by the FCU)
 *   AHU-<k>                  B03 AHU-2                     parts AHU-2-SF, AHU-2-RF, AHU-2-CC, AHU-2-HC
 *   VAV-<f>-<nn>             B03 VAV-2-04                  served by the AHU of floor f
 *   FCU-<f>                  B03 FCU-2
 *   CT-<i>, CWP-<i>, CH-<i>, CHWP-<i>, BLR-<i>, HWP-<i>, HX-1, EM-MAIN, VM-HVAC, VM-CHW, WS-1, LCP-1
 *   CHW-SYS, HW-SYS, AIR-SYS-<k>, HVAC-SYS
 *   points: <owner>-<key>    B03 VAV-2-04 Zone Air Temp    (B03-VAV-2-04-ZAT); label = owner label + text
 * Timeseries ids are `portfolio:<IRI local name>` (portfolio:B03-VAV-2-04-ZAT).
 */
import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import { PROP_NAMESPACE } from './generate-demo.ts';
import { brickPrefixes, type LiteralValue, type TimeseriesStyle } from './lib/brick.ts';
import { EntityModel, type ModelEntity, type RelationName } from './lib/brick-model.ts';
import { formatCount, groupDigits, parseCount } from './lib/counts.ts';
import { deterministicIfcGlobalId } from './lib/ifc-guid.ts';
import {
  AHU_POINTS,
  BOILER_POINTS,
  CHILLED_WATER_COIL_POINTS,
  CHILLED_WATER_METER_POINTS,
  CHILLER_POINTS,
  COOLING_TOWER_POINTS,
  ELECTRICAL_METER_POINTS,
  FAN_POINTS,
  FCU_POINTS,
  HEAT_EXCHANGER_POINTS,
  HOT_WATER_COIL_POINTS,
  ROOM_IAQ_POINTS,
  VIRTUAL_METER_POINTS,
  WEATHER_STATION_POINTS,
  ZONE_POINTS,
  LIGHTING_PANEL_POINTS,
  isParameterClass,
  isWritableClass,
  pumpPoints,
  templateClass,
  vavPoints,
  type PointTemplate,
} from './lib/point-templates.ts';
import { Prng } from './lib/prng.ts';
import { TripleProgress } from './lib/progress.ts';
import { ArrayLineSink, FileLineSink, TurtleWriter, type LineSink } from './lib/turtle-writer.ts';

export const PORTFOLIO_SITE_ID = 'portfolio';
export const PORTFOLIO_NAMESPACE = 'https://example.org/buildings/portfolio#';
export const PORTFOLIO_SEED = 20260601;

/** Share of relationships stated in the inverse direction. */
const INVERSE_SHARE = 0.12;
/** Every third building, from B02 on, is an older model with pre-1.4 class names; most of its points use them. */
const isLegacyBuilding = (n: number): boolean => n % 3 === 2;
const LEGACY_POINT_SHARE_IN_LEGACY_BUILDING = 0.7;
const LEGACY_POINT_SHARE_ELSEWHERE = 0.03;

type Kind = 'building' | 'level' | 'room' | 'zone' | 'equipment' | 'point' | 'system';
const KINDS: readonly Kind[] = ['building', 'level', 'room', 'zone', 'equipment', 'point', 'system'];

// ---------------------------------------------------------------------------------------------------
// Building shapes

export interface BuildingShape {
  floors: number;
  vavsPerFloor: number;
  floorsPerAhu: number;
  chillers: number;
  boilers: number;
  /** Older model: pre-1.4 class names for floors, rooms, zones and most points. */
  legacy: boolean;
  returnFans: boolean;
  weatherStation: boolean;
  chilledWaterMeter: boolean;
}

export type ShapeOverrides = Partial<Pick<BuildingShape, 'floors' | 'vavsPerFloor' | 'floorsPerAhu'>>;

/** The shape of building `n`, drawn from its own stream; overrides win. */
export function buildingShape(seed: number, n: number, overrides: ShapeOverrides = {}): BuildingShape {
  const rng = new Prng(seed).fork(`shape:${n}`);
  const drawn: BuildingShape = {
    floors: rng.int(4, 20),
    vavsPerFloor: rng.int(6, 14),
    floorsPerAhu: rng.int(2, 5),
    chillers: rng.int(1, 3),
    boilers: rng.int(1, 2),
    legacy: isLegacyBuilding(n),
    returnFans: rng.chance(0.6),
    weatherStation: rng.chance(0.5),
    chilledWaterMeter: rng.chance(0.5),
  };
  return { ...drawn, ...overrides };
}

export function buildingCode(n: number): string {
  return `B${String(n).padStart(2, '0')}`;
}

// ---------------------------------------------------------------------------------------------------
// One building as an in-memory model

const two = (n: number): string => String(n).padStart(2, '0');

interface BuildingModel {
  model: EntityModel<Kind>;
  /** Uses of pre-1.4 class names. */
  legacyClasses: number;
}

function buildBuilding(seed: number, n: number, shape: BuildingShape): BuildingModel {
  const B = buildingCode(n);
  const root = new Prng(seed).fork(`building:${n}`);
  const rng = root.fork('structure');
  const inv = root.fork('inverse');
  const pts = root.fork('points');
  const m = new EntityModel<Kind>();
  let legacyClasses = 0;

  const id = (local: string): string => `${B}-${local}`;
  const labelOf = (local: string): string => `${B} ${local}`;
  const ifc = (local: string): string => deterministicIfcGlobalId(`${PORTFOLIO_SITE_ID}:${id(local)}`);
  const relate = (s: string, rel: RelationName, o: string): void =>
    m.relate(id(s), rel, id(o), inv.chance(INVERSE_SHARE));
  const cls = (current: string, old: string, useOld: boolean): string => {
    if (useOld) legacyClasses++;
    return useOld ? old : current;
  };
  const pointLegacy = (): boolean =>
    pts.chance(shape.legacy ? LEGACY_POINT_SHARE_IN_LEGACY_BUILDING : LEGACY_POINT_SHARE_ELSEWHERE);

  const addPoints = (ownerLocal: string, templates: readonly PointTemplate[]): void => {
    const owner = m.get(id(ownerLocal));
    for (const t of templates) {
      const local = `${ownerLocal}-${t.key}`;
      const useLegacy = t.legacy !== undefined && pointLegacy();
      if (useLegacy) legacyClasses++;
      const pointCls = templateClass(t, useLegacy);
      const r = pts.next();
      const style: TimeseriesStyle | 'none' = isParameterClass(pointCls)
        ? 'none'
        : r < 0.02
          ? 'none'
          : r < 0.06
            ? 'brick-1.2'
            : r < 0.1
              ? 'ref-timeseries-reference'
              : 'ref';
      const literals: Array<[string, LiteralValue]> = [];
      if (isWritableClass(pointCls) && pts.chance(0.1)) {
        literals.push(
          ['writable', pts.chance(0.8) ? 'true' : 'false'],
          ['valueType', /Command$/.test(pointCls) ? 'boolean' : 'float'],
        );
      }
      const entity: ModelEntity<Kind> = {
        id: id(local),
        kind: 'point',
        classes: [`brick:${pointCls}`],
        label: `${owner.label} ${t.text}`,
        ...(t.unit ? { unit: t.unit, ...(pts.chance(0.01) ? { legacyUnit: true } : {}) } : {}),
        ...(style === 'none' ? {} : { ts: { id: `${PORTFOLIO_SITE_ID}:${id(local)}`, style } }),
        ...(literals.length > 0 ? { literals } : {}),
      };
      m.add(entity);
      relate(ownerLocal, 'hasPoint', local);
    }
  };

  const equipment = (
    local: string,
    classes: string[],
    opts: {
      controller?: string;
      virtual?: boolean;
      ifc?: boolean;
      outputSubstance?: string;
      quantities?: ModelEntity['quantities'];
    } = {},
  ): void => {
    m.add({
      id: id(local),
      kind: 'equipment',
      classes,
      label: labelOf(local),
      equipment: { controllerName: opts.controller ?? `DDC-${id(local)}`, virtual: opts.virtual ?? false },
      ...(opts.ifc ? { ifcId: ifc(local) } : {}),
      ...(opts.outputSubstance ? { outputSubstance: opts.outputSubstance } : {}),
      ...(opts.quantities ? { quantities: opts.quantities } : {}),
    });
  };

  // --- Building, floors, rooms ----------------------------------------------------------------------
  const F = shape.floors;
  const V = shape.vavsPerFloor;
  m.add({
    id: id('Building'),
    kind: 'building',
    classes: [rng.chance(0.2) ? 'rec:Building' : 'brick:Building'],
    label: labelOf('Building'),
    ifcId: ifc('Building'),
    literals: [['yearBuilt', shape.legacy ? rng.int(1975, 2009) : rng.int(2010, 2025)]],
    quantities: [{ predicate: 'brick:grossArea', value: F * V * rng.int(90, 140), unit: 'M2' }],
  });
  for (let f = 1; f <= F; f++) {
    m.add({
      id: id(`Floor-${f}`),
      kind: 'level',
      classes: [cls('rec:Level', 'brick:Floor', shape.legacy)],
      label: labelOf(`Floor-${f}`),
      ifcId: ifc(`Floor-${f}`),
    });
    relate('Building', 'hasPart', `Floor-${f}`);
  }
  m.add({ id: id('Roof'), kind: 'level', classes: ['rec:RoofLevel'], label: labelOf('Roof'), ifcId: ifc('Roof') });
  relate('Building', 'hasPart', 'Roof');

  const room = (f: number | 'MER', local: string, current: string, old: string, area: [number, number]): void => {
    m.add({
      id: id(local),
      kind: 'room',
      classes: [cls(current, old, shape.legacy && rng.chance(0.8))],
      label: labelOf(local),
      ...(rng.chance(0.6) ? { ifcId: ifc(local) } : {}),
      quantities: [{ predicate: 'brick:area', value: rng.float(area[0], area[1], 1), unit: 'M2' }],
    });
    relate(f === 'MER' ? 'Floor-1' : `Floor-${f}`, 'hasPart', local);
  };
  const conference = new Set<string>();
  for (let f = 1; f <= F; f++) {
    for (let r = 1; r <= V; r++) {
      const local = `Room-${f}-${two(r)}`;
      const kind = rng.next();
      if (kind < 0.15) {
        room(f, local, 'rec:ConferenceRoom', 'brick:Conference_Room', [20, 45]);
        conference.add(local);
      } else if (kind < 0.35) {
        room(f, local, 'rec:OfficeLandscape', 'brick:Open_Office', [60, 140]);
      } else {
        room(f, local, 'rec:Office', 'brick:Office', [12, 32]);
      }
    }
    room(f, `Room-${f}-${two(V + 1)}`, 'rec:Hallway', 'brick:Hallway', [30, 80]);
    room(f, `Room-${f}-${two(V + 2)}`, 'rec:Toilet', 'brick:Restroom', [12, 30]);
    room(f, `Room-${f}-${two(V + 3)}`, 'rec:TelecommunicationRoom', 'brick:Telecom_Room', [6, 14]);
  }
  room('MER', 'Room-MER', 'rec:UtilitiesRoom', 'brick:Mechanical_Room', [90, 220]);

  // --- HVAC zones -------------------------------------------------------------------------------------
  for (let f = 1; f <= F; f++) {
    for (let z = 1; z <= V + 1; z++) {
      const local = `Zone-${f}-${two(z)}`;
      m.add({
        id: id(local),
        kind: 'zone',
        classes: [cls('rec:HVACZone', 'brick:HVAC_Zone', shape.legacy)],
        label: labelOf(local),
      });
      if (z <= V) {
        relate(local, 'hasPart', `Room-${f}-${two(z)}`);
        if (z === 1) relate(local, 'hasPart', `Room-${f}-${two(V + 1)}`); // the hallway
        if (z === 2) relate(local, 'hasPart', `Room-${f}-${two(V + 2)}`); // the toilet
      } else {
        relate(local, 'hasPart', `Room-${f}-${two(V + 3)}`); // the telecom room, cooled by the FCU
      }
    }
  }

  // --- Water plant ------------------------------------------------------------------------------------
  const plantCtl = `DDC-${B}-PLANT`;
  for (let i = 1; i <= shape.chillers; i++) {
    equipment(`CT-${i}`, ['brick:Cooling_Tower'], { controller: plantCtl });
    addPoints(`CT-${i}`, COOLING_TOWER_POINTS);
    equipment(`CWP-${i}`, ['brick:Condenser_Water_Pump'], { controller: plantCtl });
    addPoints(`CWP-${i}`, pumpPoints('Differential_Pressure_Sensor'));
    equipment(`CH-${i}`, ['brick:Chiller'], {
      controller: plantCtl,
      ifc: true,
      quantities: [{ predicate: 'brick:coolingCapacity', value: rng.int(4, 20) * 50, unit: 'KiloW' }],
    });
    addPoints(`CH-${i}`, CHILLER_POINTS);
    equipment(`CHWP-${i}`, ['brick:Chilled_Water_Pump'], { controller: plantCtl });
    addPoints(
      `CHWP-${i}`,
      pumpPoints('Chilled_Water_Differential_Pressure_Sensor', 'Chilled_Water_Differential_Pressure_Setpoint'),
    );
    relate(`CT-${i}`, 'feeds', `CWP-${i}`);
    relate(`CWP-${i}`, 'feeds', `CH-${i}`);
    relate(`CH-${i}`, 'feeds', `CHWP-${i}`);
    relate(`CT-${i}`, 'hasLocation', 'Roof');
    for (const e of [`CWP-${i}`, `CH-${i}`, `CHWP-${i}`]) relate(e, 'hasLocation', 'Room-MER');
  }
  for (let i = 1; i <= shape.boilers; i++) {
    equipment(`BLR-${i}`, ['brick:Boiler'], {
      controller: plantCtl,
      ifc: true,
      quantities: [{ predicate: 'brick:ratedPowerOutput', value: rng.int(4, 16) * 50, unit: 'KiloW' }],
    });
    addPoints(`BLR-${i}`, BOILER_POINTS);
    equipment(`HWP-${i}`, ['brick:Hot_Water_Pump'], { controller: plantCtl });
    addPoints(
      `HWP-${i}`,
      pumpPoints('Hot_Water_Differential_Pressure_Sensor', 'Hot_Water_Differential_Pressure_Setpoint'),
    );
    relate(`BLR-${i}`, 'feeds', `HWP-${i}`);
    for (const e of [`BLR-${i}`, `HWP-${i}`]) relate(e, 'hasLocation', 'Room-MER');
  }
  equipment('HX-1', ['brick:Heat_Exchanger'], { controller: plantCtl, outputSubstance: 'brick:Hot_Water' });
  addPoints('HX-1', HEAT_EXCHANGER_POINTS);
  for (let i = 1; i <= shape.boilers; i++) relate(`HWP-${i}`, 'feeds', 'HX-1');
  relate('HX-1', 'hasLocation', 'Room-MER');

  // --- AHUs with their parts, VAVs, FCUs ---------------------------------------------------------------
  const ahus = Math.ceil(F / shape.floorsPerAhu);
  const chwPumps = Array.from({ length: shape.chillers }, (_, i) => `CHWP-${i + 1}`);
  for (let k = 1; k <= ahus; k++) {
    const ahu = `AHU-${k}`;
    const ctl = `DDC-${id(ahu)}`;
    equipment(ahu, [rng.chance(0.5) ? 'brick:AHU' : 'brick:Air_Handling_Unit'], { controller: ctl, ifc: true });
    addPoints(ahu, AHU_POINTS);
    relate(ahu, 'hasLocation', k === 1 ? 'Room-MER' : 'Roof');
    const parts: Array<[string, string, readonly PointTemplate[]]> = [
      ['SF', 'brick:Supply_Fan', FAN_POINTS],
      ...(shape.returnFans
        ? [['RF', 'brick:Return_Fan', FAN_POINTS.slice(0, 5)] as [string, string, readonly PointTemplate[]]]
        : []),
      ['CC', 'brick:Chilled_Water_Coil', CHILLED_WATER_COIL_POINTS],
      ['HC', 'brick:Hot_Water_Coil', HOT_WATER_COIL_POINTS],
    ];
    for (const [suffix, partCls, templates] of parts) {
      const part = `${ahu}-${suffix}`;
      equipment(part, [partCls], { controller: ctl });
      addPoints(part, templates);
      relate(ahu, 'hasPart', part);
    }
    for (const p of chwPumps) relate(p, 'feeds', ahu);
    relate('HX-1', 'feeds', ahu);
  }
  for (let f = 1; f <= F; f++) {
    const ahu = `AHU-${Math.ceil(f / shape.floorsPerAhu)}`;
    for (let n = 1; n <= V; n++) {
      const vav = `VAV-${f}-${two(n)}`;
      const reheat = n === 1 || rng.chance(0.25);
      equipment(vav, [rng.chance(0.2) ? 'brick:Variable_Air_Volume_Box' : 'brick:VAV'], { ifc: rng.chance(0.4) });
      addPoints(vav, vavPoints({ reheat, humidity: n % 2 === 1, limits: !shape.legacy && rng.chance(0.5) }));
      relate(ahu, 'feeds', vav);
      if (reheat) relate('HX-1', 'feeds', vav);
      relate(vav, 'feeds', `Zone-${f}-${two(n)}`);
      relate(vav, 'hasLocation', `Room-${f}-${two(n)}`);
    }
    const fcu = `FCU-${f}`;
    equipment(fcu, [rng.chance(0.3) ? 'brick:Fan_Coil_Unit' : 'brick:FCU']);
    addPoints(fcu, FCU_POINTS);
    relate('CHWP-1', 'feeds', fcu);
    relate('HWP-1', 'feeds', fcu);
    relate(fcu, 'feeds', `Zone-${f}-${two(V + 1)}`);
    relate(fcu, 'hasLocation', `Room-${f}-${two(V + 3)}`);
  }

  // --- Meters and weather station --------------------------------------------------------------------
  equipment('EM-MAIN', ['brick:Building_Electrical_Meter'], { controller: `EM-GW-${B}` });
  addPoints('EM-MAIN', ELECTRICAL_METER_POINTS);
  relate('EM-MAIN', 'hasLocation', 'Room-MER');
  equipment('VM-HVAC', ['brick:Electrical_Meter'], { controller: `VMS-${B}`, virtual: true });
  addPoints('VM-HVAC', VIRTUAL_METER_POINTS);
  if (shape.chilledWaterMeter) {
    equipment('VM-CHW', ['brick:Chilled_Water_Meter'], { controller: `VMS-${B}`, virtual: true });
    addPoints('VM-CHW', CHILLED_WATER_METER_POINTS);
  }
  if (shape.weatherStation) {
    equipment('WS-1', ['brick:Weather_Station'], { controller: `DDC-${B}-ROOF` });
    addPoints('WS-1', WEATHER_STATION_POINTS);
    relate('WS-1', 'hasLocation', 'Roof');
  }
  // A vendor class outside Brick, as integrators add: the service finds it as equipment by its points.
  equipment('LCP-1', ['ext:LightingControlPanel'], { controller: `LCP-GW-${B}` });
  addPoints('LCP-1', LIGHTING_PANEL_POINTS);
  relate('LCP-1', 'hasLocation', `Room-1-${two(V + 3)}`);

  // --- Room and zone points ----------------------------------------------------------------------------
  for (const r of conference) addPoints(r, ROOM_IAQ_POINTS);
  for (let f = 1; f <= F; f++) {
    for (let z = 1; z <= V; z += 4) addPoints(`Zone-${f}-${two(z)}`, ZONE_POINTS);
  }

  // --- Systems -----------------------------------------------------------------------------------------
  const system = (local: string, systemCls: string, members: string[]): void => {
    m.add({ id: id(local), kind: 'system', classes: [`brick:${systemCls}`], label: labelOf(local) });
    for (const member of members) relate(local, 'hasPart', member);
  };
  const range = (prefix: string, count: number): string[] =>
    Array.from({ length: count }, (_, i) => `${prefix}-${i + 1}`);
  system('CHW-SYS', 'Chilled_Water_System', [
    ...range('CH', shape.chillers),
    ...chwPumps,
    ...range('CT', shape.chillers),
    ...range('CWP', shape.chillers),
  ]);
  addPoints('CHW-SYS', [{ key: 'EN-CMD', cls: 'Chilled_Water_System_Enable_Command', text: 'Enable Command' }]);
  system('HW-SYS', 'Hot_Water_System', [...range('BLR', shape.boilers), ...range('HWP', shape.boilers), 'HX-1']);
  addPoints('HW-SYS', [{ key: 'EN-CMD', cls: 'Hot_Water_System_Enable_Command', text: 'Enable Command' }]);
  const airSystems: string[] = [];
  for (let k = 1; k <= ahus; k++) {
    const vavs: string[] = [];
    for (let f = (k - 1) * shape.floorsPerAhu + 1; f <= Math.min(F, k * shape.floorsPerAhu); f++) {
      for (let n = 1; n <= V; n++) vavs.push(`VAV-${f}-${two(n)}`);
    }
    system(`AIR-SYS-${k}`, 'Air_System', [`AHU-${k}`, ...vavs]);
    airSystems.push(`AIR-SYS-${k}`);
  }
  system('HVAC-SYS', 'HVAC_System', ['CHW-SYS', 'HW-SYS', ...airSystems]);

  return { model: m, legacyClasses };
}

// ---------------------------------------------------------------------------------------------------
// Statistics

export interface PortfolioStats {
  triples: number;
  subjects: number;
  buildings: number;
  floors: number;
  byKind: Record<Kind, number>;
  /** Equipment class term → count. */
  equipmentClasses: Record<string, number>;
  relations: number;
  relationsStatedInverse: number;
  timeseriesStyles: Record<TimeseriesStyle, number>;
  ifcIds: number;
  legacyClassUses: number;
}

function emptyStats(): PortfolioStats {
  return {
    triples: 0,
    subjects: 0,
    buildings: 0,
    floors: 0,
    byKind: Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>,
    equipmentClasses: {},
    relations: 0,
    relationsStatedInverse: 0,
    timeseriesStyles: { ref: 0, 'ref-timeseries-reference': 0, 'brick-1.2': 0, none: 0 },
    ifcIds: 0,
    legacyClassUses: 0,
  };
}

function addBuildingStats(stats: PortfolioStats, b: RenderedBuilding): void {
  stats.triples += b.triples;
  stats.subjects += b.subjects;
  stats.buildings++;
  stats.floors += b.shape.floors;
  const { model } = b.built;
  for (const e of model.entities) {
    stats.byKind[e.kind]++;
    if (e.kind === 'equipment')
      for (const c of e.classes) stats.equipmentClasses[c] = (stats.equipmentClasses[c] ?? 0) + 1;
    if (e.kind === 'point') stats.timeseriesStyles[e.ts?.style ?? 'none']++;
    if (e.ifcId) stats.ifcIds++;
  }
  stats.relations += model.relationCount;
  stats.relationsStatedInverse += model.inverseRelationCount;
  stats.legacyClassUses += b.built.legacyClasses;
}

export function formatStats(stats: PortfolioStats): string {
  const lines: string[] = [];
  lines.push(`triples: ${groupDigits(stats.triples)} (${groupDigits(stats.subjects)} subject blocks)`);
  lines.push(`buildings: ${stats.buildings}, floors: ${stats.floors}`);
  lines.push(`entities: ${KINDS.map((k) => `${k} ${groupDigits(stats.byKind[k])}`).join(', ')}`);
  lines.push(
    `equipment: ${Object.entries(stats.equipmentClasses)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([c, n]) => `${c} ${groupDigits(n)}`)
      .join(', ')}`,
  );
  lines.push(
    `relations: ${groupDigits(stats.relations)} (${groupDigits(stats.relationsStatedInverse)} stated in the inverse direction)`,
  );
  lines.push(
    `timeseries: ${Object.entries(stats.timeseriesStyles)
      .map(([s, n]) => `${s} ${groupDigits(n)}`)
      .join(', ')}`,
  );
  lines.push(
    `IFC GlobalIds: ${groupDigits(stats.ifcIds)}; pre-1.4 class names used: ${groupDigits(stats.legacyClassUses)}`,
  );
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------------
// Writing

export interface PortfolioOptions {
  seed?: number;
  /** Fill buildings until the document is as close as possible to this many triples. */
  targetTriples?: number;
  /** Number of whole buildings (without a target), or the most buildings (with one). */
  buildings?: number;
  overrides?: ShapeOverrides;
  /** Called after each building with the triples written so far. */
  onBuilding?: (triplesSoFar: number, building: string) => void;
}

interface RenderedBuilding {
  n: number;
  shape: BuildingShape;
  built: BuildingModel;
  lines: string[];
  triples: number;
  subjects: number;
}

/**
 * Classes outside Brick (a vendor's), for entities only the kind fallback finds (docs/brick-mapping.md,
 * "Kinds add up").
 */
export const EXT_NAMESPACE = 'https://example.org/vendor/ext#';
const PREFIXES = brickPrefixes({ pf: PORTFOLIO_NAMESPACE, prop: PROP_NAMESPACE, ext: EXT_NAMESPACE });

function renderBuilding(seed: number, n: number, shape: BuildingShape): RenderedBuilding {
  const built = buildBuilding(seed, n, shape);
  const sink = new ArrayLineSink();
  const w = new TurtleWriter(sink, PREFIXES);
  w.blankLine();
  w.comment(
    `--- ${buildingCode(n)}: ${shape.floors} floors, ${shape.vavsPerFloor} VAVs per floor, ` +
      `${Math.ceil(shape.floors / shape.floorsPerAhu)} AHUs, ${shape.chillers} chillers, ${shape.boilers} boilers` +
      `${shape.legacy ? ', pre-1.4 class names' : ''} ---`,
  );
  built.model.write(w, { entity: w.ns('pf'), property: w.ns('prop') });
  return { n, shape, built, lines: sink.lines, triples: w.tripleCount, subjects: w.subjectCount };
}

/**
 * The building to end on when a whole one would pass the target: the floor count whose total is
 * closest to it (or none, when stopping before it is closer).
 */
function lastBuilding(
  seed: number,
  full: RenderedBuilding,
  total: number,
  target: number,
): RenderedBuilding | undefined {
  const { n, shape } = full;
  const render = (floors: number) => renderBuilding(seed, n, { ...shape, floors });
  let lo = 1;
  let hi = shape.floors - 1;
  let under: RenderedBuilding | undefined;
  let over: RenderedBuilding | undefined = full;
  // Invariant: floors < lo fit under the target; floors >= hi+1 do not.
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const b = render(mid);
    if (total + b.triples <= target) {
      under = b;
      lo = mid + 1;
    } else {
      over = b;
      hi = mid - 1;
    }
  }
  const candidates = [under, over].filter((b): b is RenderedBuilding => b !== undefined);
  let best: RenderedBuilding | undefined;
  let bestDistance = n > 1 ? target - total : Infinity; // stopping is allowed once one building exists
  for (const b of candidates) {
    const distance = Math.abs(total + b.triples - target);
    if (distance < bestDistance) {
      best = b;
      bestDistance = distance;
    }
  }
  return best;
}

/** Writes the portfolio as Turtle, line by line, to `sink`; one building is in memory at a time. */
export function generatePortfolio(sink: LineSink, options: PortfolioOptions = {}): PortfolioStats {
  const seed = options.seed ?? PORTFOLIO_SEED;
  const target = options.targetTriples;
  const maxBuildings = options.buildings ?? (target === undefined ? 1 : Infinity);
  const stats = emptyStats();

  const header = new TurtleWriter(sink, PREFIXES);
  header.comment(
    [
      `Portfolio site "${PORTFOLIO_SITE_ID}" for benchmarks (Brick 1.4 with RealEstateCore classes).`,
      `Generated by scripts/generate-portfolio.ts (npm run generate) with seed ${seed}, ` +
        `${target !== undefined ? `target ${groupDigits(target)} triples` : `${maxBuildings} buildings`}` +
        `${Object.keys(options.overrides ?? {}).length > 0 ? `, ${JSON.stringify(options.overrides)}` : ''}. Do not edit by hand.`,
      'Names: entity IRI pf:<B>-<local>, rdfs:label "<B> <local>", e.g. pf:B03-VAV-2-04 "B03 VAV-2-04";',
      'points <owner>-<key>, e.g. pf:B03-VAV-2-04-ZAT "B03 VAV-2-04 Zone Air Temp". See the generator header.',
    ].join('\n'),
  );
  header.blankLine();
  header.writePrefixes();

  const commit = (b: RenderedBuilding): void => {
    for (const line of b.lines) sink.write(line);
    addBuildingStats(stats, b);
    options.onBuilding?.(stats.triples, buildingCode(b.n));
  };

  for (let n = 1; n <= maxBuildings; n++) {
    const shape = buildingShape(seed, n, options.overrides);
    const b = renderBuilding(seed, n, shape);
    if (target === undefined || stats.triples + b.triples <= target) {
      commit(b);
      if (target !== undefined && stats.triples === target) break;
      continue;
    }
    const last = lastBuilding(seed, b, stats.triples, target);
    if (last) commit(last);
    break;
  }

  sink.write('');
  header.comment(`Summary\n${formatStats(stats)}`);
  return stats;
}

/** The whole document as text (for tests and small sizes). */
export function generatePortfolioText(options: PortfolioOptions = {}): { text: string; stats: PortfolioStats } {
  const sink = new ArrayLineSink();
  const stats = generatePortfolio(sink, options);
  return { text: sink.text(), stats };
}

// ---------------------------------------------------------------------------------------------------
// CLI

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
export const BENCH_DATA_DIR = resolve(REPO_ROOT, 'bench', 'data');

/** `bench/data/portfolio-1M.ttl` (a non-default seed adds `-s<seed>`). */
export function defaultPortfolioPath(sizeLabel: string, seed = PORTFOLIO_SEED): string {
  return resolve(BENCH_DATA_DIR, `portfolio-${sizeLabel}${seed === PORTFOLIO_SEED ? '' : `-s${seed}`}.ttl`);
}

export interface PortfolioFileResult {
  path: string;
  stats: PortfolioStats;
  bytes: number;
  ms: number;
}

/** Generates a portfolio into a file (written under a temporary name, renamed when complete). */
export function writePortfolioFile(
  path: string,
  options: PortfolioOptions,
  log: (message: string) => void,
): PortfolioFileResult {
  mkdirSync(dirname(path), { recursive: true });
  const progress = new TripleProgress(log, options.targetTriples);
  const sink = new FileLineSink(path, 1 << 20);
  let stats: PortfolioStats;
  try {
    stats = generatePortfolio(sink, {
      ...options,
      onBuilding: (triples, building) => {
        progress.update(triples, `${building} done`);
        options.onBuilding?.(triples, building);
      },
    });
    sink.close();
  } catch (error) {
    sink.abort();
    throw error;
  }
  log(progress.line(stats.triples, `${groupDigits(sink.bytesWritten)} bytes`));
  return { path, stats, bytes: sink.bytesWritten, ms: progress.elapsedMs() };
}

function main(argv: string[]): number {
  const { values } = parseArgs({
    args: argv,
    options: {
      triples: { type: 'string' },
      buildings: { type: 'string' },
      floors: { type: 'string' },
      'vavs-per-floor': { type: 'string' },
      'floors-per-ahu': { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
  });
  const log = (msg: string): void => console.error(`[generate-portfolio] ${msg}`);
  if (values.help || (values.triples === undefined && values.buildings === undefined)) {
    console.error(
      'usage: npm run generate -- (--triples 1M | --buildings N) [--floors F] [--vavs-per-floor V] [--floors-per-ahu A] [--seed S] [--out FILE]',
    );
    return values.help ? 0 : 2;
  }
  const int = (name: string, text: string | undefined): number | undefined => {
    if (text === undefined) return undefined;
    const n = parseCount(text);
    if (n < 1) throw new RangeError(`--${name} must be at least 1`);
    return n;
  };
  const seed = values.seed === undefined ? PORTFOLIO_SEED : Number.parseInt(values.seed, 10);
  if (!Number.isSafeInteger(seed)) throw new RangeError(`--seed must be an integer`);
  const overrides: ShapeOverrides = {};
  const floors = int('floors', values.floors);
  const vavs = int('vavs-per-floor', values['vavs-per-floor']);
  const perAhu = int('floors-per-ahu', values['floors-per-ahu']);
  if (floors !== undefined) overrides.floors = floors;
  if (vavs !== undefined) overrides.vavsPerFloor = vavs;
  if (perAhu !== undefined) overrides.floorsPerAhu = perAhu;
  const targetTriples = int('triples', values.triples);
  const buildings = int('buildings', values.buildings);

  const sizeLabel =
    targetTriples !== undefined
      ? formatCount(targetTriples)
      : [`b${buildings}`, floors && `f${floors}`, vavs && `v${vavs}`, perAhu && `a${perAhu}`].filter(Boolean).join('-');
  const out = values.out ? resolve(values.out) : defaultPortfolioPath(sizeLabel, seed);
  log(`writing ${out}`);
  const result = writePortfolioFile(
    out,
    {
      seed,
      ...(targetTriples !== undefined ? { targetTriples } : {}),
      ...(buildings !== undefined ? { buildings } : {}),
      overrides,
    },
    log,
  );
  log(`summary\n${formatStats(result.stats)}`);
  if (targetTriples !== undefined) {
    const off = (100 * (result.stats.triples - targetTriples)) / targetTriples;
    log(`target ${groupDigits(targetTriples)} triples: ${off >= 0 ? '+' : ''}${off.toFixed(2)}%`);
  }
  log(`done in ${(result.ms / 1000).toFixed(1)} s: ${out} (${groupDigits(result.bytes)} bytes)`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
