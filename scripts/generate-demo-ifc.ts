/**
 * Generates the demo site's IFC model, fixtures/demo-files/demo-tower.ifc (IFC4), from the demo
 * graph (fixtures/demo.ttl): the building, its levels as storeys, its rooms as spaces, and the
 * equipment the graph gives an IFC GlobalId (AHUs, VAVs, the chiller, the boiler) as boxes in their
 * rooms, all with the graph's GlobalIds (the project too: the graph's ref:ifcProjectID), so a
 * click in the viewer finds the graph entity. Slabs,
 * walls and ducts are added with GlobalIds of their own that the graph does not map, as real
 * models have. Deterministic: the same bytes every run.
 *
 *   npm run generate:demo-ifc              # rewrites the file
 *   npm run generate:demo-ifc -- --check   # exit 1 if the committed file is stale
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Parser, type Quad } from 'n3';
import { deterministicIfcGlobalId } from './lib/ifc-guid.ts';
import {
  writeIfc,
  type IfcBox,
  type IfcBuildingSpec,
  type IfcElementKind,
  type IfcElementSpec,
  type IfcStoreySpec,
} from './lib/ifc-step-writer.ts';

const FIXTURES_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
export const DEMO_TTL = resolve(FIXTURES_DIR, 'demo.ttl');
export const DEMO_IFC_PATH = resolve(FIXTURES_DIR, 'demo-files', 'demo-tower.ifc');

const BRICK = 'https://brickschema.org/schema/Brick#';
const REC = 'https://w3id.org/rec#';
const REF = 'https://brickschema.org/schema/Brick/ref#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const DEMO = 'https://example.org/buildings/demo#';

const STOREY_HEIGHT = 4;
const ROOM = 10;
const SLAB = 0.3;
const WALL_HEIGHT = STOREY_HEIGHT - SLAB;

/** Equipment boxes (metres: footprint, height) and where they hang: plant stands on the floor, VAVs in the ceiling. */
const EQUIPMENT: ReadonlyArray<{
  cls: string;
  kind: IfcElementKind;
  size: readonly [number, number, number];
  z: number;
}> = [
  { cls: 'AHU', kind: 'ahu', size: [4, 2, 2.2], z: 0 },
  { cls: 'Air_Handling_Unit', kind: 'ahu', size: [4, 2, 2.2], z: 0 },
  { cls: 'VAV', kind: 'vav', size: [1.6, 0.8, 0.5], z: 2.9 },
  { cls: 'Chiller', kind: 'chiller', size: [3, 1.5, 1.8], z: 0 },
  { cls: 'Boiler', kind: 'boiler', size: [2, 1.2, 1.6], z: 0 },
];

/** The demo graph as far as the IFC model needs it. */
interface DemoGraph {
  readonly ifcId: Map<string, string>;
  /** The ref:ifcProjectID of the project the graph's IFC references name. */
  projectId?: string;
  readonly label: Map<string, string>;
  readonly types: Map<string, string[]>;
  /** level → its rooms */
  readonly rooms: Map<string, string[]>;
  /** equipment → its room or level */
  readonly location: Map<string, string>;
}

function readGraph(turtle: string): DemoGraph {
  const quads: Quad[] = new Parser({ format: 'text/turtle' }).parse(turtle);
  const local = (iri: string) => (iri.startsWith(DEMO) ? iri.slice(DEMO.length) : undefined);
  const graph: DemoGraph = {
    ifcId: new Map(),
    label: new Map(),
    types: new Map(),
    rooms: new Map(),
    location: new Map(),
  };
  const references = new Map<string, string>();
  const globalIds = new Map<string, string>();
  const partOf: Array<[string, string]> = [];
  for (const { subject, predicate, object } of quads) {
    const s = local(subject.value) ?? subject.value;
    const o = local(object.value);
    switch (predicate.value) {
      case RDF_TYPE:
        graph.types.set(s, [...(graph.types.get(s) ?? []), object.value]);
        break;
      case LABEL:
        graph.label.set(s, object.value);
        break;
      case `${REF}hasExternalReference`:
        references.set(object.value, s);
        break;
      case `${REF}ifcGlobalID`:
        globalIds.set(s, object.value);
        break;
      case `${REF}ifcProjectID`:
        graph.projectId = object.value;
        break;
      case `${BRICK}hasPart`:
        if (o) partOf.push([o, s]);
        break;
      case `${BRICK}isPartOf`:
        if (o) partOf.push([s, o]);
        break;
      case `${BRICK}hasLocation`:
        if (o) graph.location.set(s, o);
        break;
      case `${BRICK}isLocationOf`:
        if (o) graph.location.set(o, s);
        break;
    }
  }
  for (const [node, globalId] of globalIds) {
    const entity = references.get(node);
    if (entity) graph.ifcId.set(entity, globalId);
  }
  const isLevel = (id: string) =>
    (graph.types.get(id) ?? []).some((t) => [`${REC}Level`, `${BRICK}Floor`, `${REC}RoofLevel`].includes(t));
  for (const [part, whole] of partOf) {
    if (isLevel(whole) && !isLevel(part)) graph.rooms.set(whole, [...(graph.rooms.get(whole) ?? []), part].sort());
  }
  return graph;
}

/** Where a room lies on its floor: `Room-<f>-0n` in a 4 × 2 grid of 10 m rooms, the mechanical room in an annex east of it. */
function roomOrigin(room: string): { x: number; y: number } {
  const n = /-0(\d)$/.exec(room)?.[1];
  if (!n) return { x: 4 * ROOM, y: 0 };
  const i = Number(n) - 1;
  return { x: (i % 4) * ROOM, y: Math.floor(i / 4) * ROOM };
}

const box = (x: number, y: number, z: number, [dx, dy, dz]: readonly [number, number, number]): IfcBox => ({
  x,
  y,
  z,
  dx,
  dy,
  dz,
});

/** The demo building as an IFC spec, from the demo graph's Turtle. */
export function demoIfcSpec(turtle: string): IfcBuildingSpec {
  const graph = readGraph(turtle);
  const gid = (id: string) => {
    const globalId = graph.ifcId.get(id);
    if (!globalId) throw new Error(`${id} has no IFC GlobalId in the demo graph`);
    return globalId;
  };
  const unmapped = (key: string) => deterministicIfcGlobalId(`demo-ifc:${key}`);
  const levels = ['Floor-1', 'Floor-2', 'Floor-3', 'Floor-4', 'Roof'];
  const equipmentAt = new Map<string, string[]>();
  for (const [equipment, place] of [...graph.location].sort(([a], [b]) => a.localeCompare(b))) {
    if (graph.ifcId.has(equipment)) equipmentAt.set(place, [...(equipmentAt.get(place) ?? []), equipment]);
  }
  const equipmentKind = (id: string) => {
    const types = graph.types.get(id) ?? [];
    const found = EQUIPMENT.find((e) => types.includes(`${BRICK}${e.cls}`));
    if (!found) throw new Error(`${id}: no IFC shape for its class ${types.join(', ')}`);
    return found;
  };
  /** The equipment of a room or level, side by side along x around the centre. */
  const equipmentIn = (place: string, centre: { x: number; y: number }, space?: string): IfcElementSpec[] => {
    const here = equipmentAt.get(place) ?? [];
    return here.map((id, i) => {
      const shape = equipmentKind(id);
      const x = centre.x + (i - (here.length - 1) / 2) * 3;
      return {
        globalId: gid(id),
        name: graph.label.get(id) ?? id,
        kind: shape.kind,
        box: box(x, centre.y, shape.z, shape.size),
        ...(space ? { space } : {}),
      };
    });
  };

  const storeys: IfcStoreySpec[] = levels.map((level, index) => {
    const rooms = graph.rooms.get(level) ?? [];
    const roof = level === 'Roof';
    const width = rooms.includes('Room-1-MER') ? 5 * ROOM : 4 * ROOM;
    const depth = 2 * ROOM;
    const label = graph.label.get(level) ?? level;
    const elements: IfcElementSpec[] = [
      {
        globalId: unmapped(`${level}:slab`),
        name: `${roof ? 'Roof slab' : 'Floor slab'} ${label}`,
        kind: roof ? 'roof-slab' : 'slab',
        box: box(width / 2, depth / 2, -SLAB, [width, depth, SLAB]),
      },
    ];
    if (!roof) {
      // Only the north and west walls: the viewer looks in from the south-east.
      elements.push(
        {
          globalId: unmapped(`${level}:wall-north`),
          name: `Wall ${label} north`,
          kind: 'wall',
          box: box(width / 2, depth - 0.125, 0, [width, 0.25, WALL_HEIGHT]),
        },
        {
          globalId: unmapped(`${level}:wall-west`),
          name: `Wall ${label} west`,
          kind: 'wall',
          box: box(0.125, depth / 2, 0, [0.25, depth, WALL_HEIGHT]),
        },
        {
          globalId: unmapped(`${level}:duct`),
          name: `Supply duct ${label}`,
          kind: 'duct',
          box: box((4 * ROOM) / 2, depth / 2, 3.0, [4 * ROOM - 4, 0.6, 0.4]),
        },
      );
    }
    for (const room of rooms) {
      const origin = roomOrigin(room);
      elements.push(...equipmentIn(room, { x: origin.x + ROOM / 2, y: origin.y + ROOM / 2 }, gid(room)));
    }
    elements.push(...equipmentIn(level, { x: width / 2, y: depth / 2 }));
    return {
      globalId: gid(level),
      name: label,
      elevation: index * STOREY_HEIGHT,
      spaces: rooms.map((room) => ({
        globalId: gid(room),
        name: graph.label.get(room) ?? room,
        longName: (graph.types.get(room)?.[0] ?? '').replace(/^.*[#/]/, ''),
      })),
      elements,
    };
  });
  return {
    fileName: 'demo-tower.ifc',
    seed: 'demo-ifc',
    projectName: 'Demo Tower',
    ...(graph.projectId ? { projectGlobalId: graph.projectId } : {}),
    building: { globalId: gid('Demo-Tower'), name: graph.label.get('Demo-Tower') ?? 'Demo Tower' },
    storeys,
  };
}

/** The demo IFC file's text. */
export function generateDemoIfc(turtle: string = readFileSync(DEMO_TTL, 'utf8')): string {
  return writeIfc(demoIfcSpec(turtle), 'IFC4');
}

function main(argv: string[]): number {
  const text = generateDemoIfc();
  if (argv.includes('--check')) {
    let current = '';
    try {
      current = readFileSync(DEMO_IFC_PATH, 'utf8');
    } catch {
      // missing: stale
    }
    const ok = current === text;
    console.error(`[generate-demo-ifc] ${ok ? 'up to date' : 'out of date: run npm run generate:demo-ifc'}`);
    return ok ? 0 : 1;
  }
  writeFileSync(DEMO_IFC_PATH, text);
  console.error(`[generate-demo-ifc] wrote ${DEMO_IFC_PATH} (${text.length} bytes)`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
