/**
 * Reads what the service keeps of an IFC file with web-ifc: its schema, its storeys (names and
 * elevations in metres) and every product with a GlobalId (class, name, storey). Runs in the IFC
 * child process (ifc-child.ts), never in the service: web-ifc holds the whole parsed file in
 * WebAssembly memory.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import * as WebIFC from 'web-ifc';

/** A storey as read: elevation in metres, null when the file gives none. */
export interface ReadStorey {
  readonly globalId: string;
  readonly name: string;
  readonly elevation: number | null;
}

/** A product as read: its storey's name, or '' outside any storey. */
export interface ReadElement {
  readonly globalId: string;
  readonly ifcClass: string;
  readonly name: string;
  readonly storey: string;
  /** Its IFC Tag (IfcElement.Tag), '' when none. */
  readonly tag: string;
}

/** Two elements joined port to port (IfcRelConnectsPorts), by GlobalId. */
export type ReadConnection = readonly [a: string, b: string];

export interface IfcHeader {
  readonly schema: string;
  /** The GlobalId of the file's IfcProject; '' when it has none. */
  readonly project: string;
  readonly storeys: readonly ReadStorey[];
}

/** Reads the file at offset, up to `size` bytes: web-ifc pulls the file through this in chunks. */
export type ReadChunk = (offset: number, size: number) => Uint8Array;

/** The directory holding web-ifc's .wasm files (its package folder), so nothing is fetched. */
export const webIfcDir = `${dirname(createRequire(import.meta.url).resolve('web-ifc'))}/`;

type Line = Record<string, { value?: unknown } | Array<{ value?: unknown }> | null | undefined> & { type: number };

const ref = (attribute: unknown): number | undefined => {
  const value = (attribute as { value?: unknown } | null | undefined)?.value;
  return typeof value === 'number' ? value : undefined;
};
const refs = (attribute: unknown): number[] =>
  Array.isArray(attribute)
    ? attribute.map(ref).filter((id): id is number => id !== undefined)
    : [ref(attribute)].filter((id): id is number => id !== undefined);
const label = (attribute: unknown): string => {
  const value = (attribute as { value?: unknown } | null | undefined)?.value;
  return typeof value === 'string' ? value : '';
};

const SI_PREFIXES: Readonly<Record<string, number>> = {
  EXA: 1e18,
  PETA: 1e15,
  TERA: 1e12,
  GIGA: 1e9,
  MEGA: 1e6,
  KILO: 1e3,
  HECTO: 1e2,
  DECA: 1e1,
  DECI: 1e-1,
  CENTI: 1e-2,
  MILLI: 1e-3,
  MICRO: 1e-6,
  NANO: 1e-9,
};
const IMPERIAL: Readonly<Record<string, number>> = {
  FOOT: 0.3048,
  FEET: 0.3048,
  INCH: 0.0254,
  YARD: 0.9144,
  MILE: 1609.344,
};

/** Metres per length unit of the model: from its IfcSIUnit (with prefix) or conversion-based unit. */
function lengthScale(api: WebIFC.IfcAPI, model: number): number {
  for (const id of api.GetLineIDsWithType(model, WebIFC.IFCUNITASSIGNMENT)) {
    const assignment = api.GetLine(model, id) as Line;
    for (const unitId of refs(assignment.Units)) {
      const unit = api.GetLine(model, unitId) as Line;
      if ((unit.UnitType as { value?: unknown } | null)?.value !== 'LENGTHUNIT') continue;
      if (unit.type === WebIFC.IFCSIUNIT) {
        const prefix = (unit.Prefix as { value?: unknown } | null)?.value;
        return typeof prefix === 'string' ? (SI_PREFIXES[prefix] ?? 1) : 1;
      }
      const named = IMPERIAL[label(unit.Name).toUpperCase()];
      if (named) return named;
      const factorId = ref(unit.ConversionFactor);
      const factor = factorId === undefined ? undefined : (api.GetLine(model, factorId) as Line).ValueComponent;
      const value = (factor as { value?: unknown } | null | undefined)?.value;
      if (typeof value === 'number' && value > 0) return value;
    }
  }
  return 1;
}

/** The spatial and part-of relations, as child → parent: enough to find each product's storey. */
function parents(api: WebIFC.IfcAPI, model: number): Map<number, number> {
  const parent = new Map<number, number>();
  const relate = (type: number, parentAttribute: string, childAttribute: string) => {
    for (const id of api.GetLineIDsWithType(model, type)) {
      const rel = api.GetLine(model, id) as Line;
      const of = ref(rel[parentAttribute]);
      if (of === undefined) continue;
      for (const child of refs(rel[childAttribute])) if (!parent.has(child)) parent.set(child, of);
    }
  };
  relate(WebIFC.IFCRELCONTAINEDINSPATIALSTRUCTURE, 'RelatingStructure', 'RelatedElements');
  relate(WebIFC.IFCRELAGGREGATES, 'RelatingObject', 'RelatedObjects');
  relate(WebIFC.IFCRELNESTS, 'RelatingObject', 'RelatedObjects');
  relate(WebIFC.IFCRELVOIDSELEMENT, 'RelatingBuildingElement', 'RelatedOpeningElement');
  relate(WebIFC.IFCRELFILLSELEMENT, 'RelatingOpeningElement', 'RelatedBuildingElement');
  relate(WebIFC.IFCRELCONNECTSPORTTOELEMENT, 'RelatedElement', 'RelatingPort');
  return parent;
}

/**
 * The pairs of products joined port to port: a port's product is its parent (nesting, or
 * IfcRelConnectsPortToElement in IFC 2x3); each pair once, the smaller GlobalId first.
 */
function readConnections(
  api: WebIFC.IfcAPI,
  model: number,
  parent: Map<number, number>,
  onConnection: (connection: ReadConnection) => void,
): void {
  const globalIds = new Map<number, string>();
  const globalIdOf = (id: number | undefined): string => {
    if (id === undefined) return '';
    let globalId = globalIds.get(id);
    if (globalId === undefined) globalIds.set(id, (globalId = label((api.GetLine(model, id) as Line).GlobalId)));
    return globalId;
  };
  const seen = new Set<string>();
  for (const id of api.GetLineIDsWithType(model, WebIFC.IFCRELCONNECTSPORTS)) {
    const rel = api.GetLine(model, id) as Line;
    const a = globalIdOf(parent.get(ref(rel.RelatingPort) ?? -1));
    const b = globalIdOf(parent.get(ref(rel.RelatedPort) ?? -1));
    if (a === '' || b === '' || a === b) continue;
    const pair: ReadConnection = a < b ? [a, b] : [b, a];
    const key = `${pair[0]} ${pair[1]}`;
    if (seen.has(key)) continue;
    seen.add(key);
    onConnection(pair);
  }
}

/**
 * Opens the file through `read`, reports each product to `onElement`, each pair of products whose
 * ports are connected to `onConnection`, and answers the schema and storeys. Storeys come by
 * elevation (file order among equal ones).
 */
export async function readIfc(
  read: ReadChunk,
  onElement: (element: ReadElement) => void,
  onConnection: (connection: ReadConnection) => void = () => {},
): Promise<IfcHeader> {
  const api = new WebIFC.IfcAPI();
  api.SetWasmPath(webIfcDir, true);
  await api.Init(undefined, true);
  api.SetLogLevel(WebIFC.LogLevel.LOG_LEVEL_OFF);
  const model = api.OpenModelFromCallback(read);
  if (model < 0) throw new Error('web-ifc could not open the file: not an IFC STEP file?');
  try {
    const schema = api.GetModelSchema(model);
    const scale = lengthScale(api, model);
    const storeyNames = new Map<number, string>();
    const storeys: Array<ReadStorey & { order: number }> = [];
    for (const id of api.GetLineIDsWithType(model, WebIFC.IFCBUILDINGSTOREY)) {
      const line = api.GetLine(model, id) as Line;
      const elevation = (line.Elevation as { value?: unknown } | null)?.value;
      const name = label(line.Name) || label(line.LongName) || `#${id}`;
      storeyNames.set(id, name);
      storeys.push({
        globalId: label(line.GlobalId),
        name,
        elevation: typeof elevation === 'number' ? Number((elevation * scale).toFixed(6)) : null,
        order: storeys.length,
      });
    }
    storeys.sort((a, b) => (a.elevation ?? 0) - (b.elevation ?? 0) || a.order - b.order);

    const parent = parents(api, model);
    const storeyOf = (id: number): string => {
      // Bounded: a broken file may relate elements in a cycle.
      for (let at: number | undefined = id, steps = 0; at !== undefined && steps < 64; at = parent.get(at), steps++) {
        const name = storeyNames.get(at);
        if (name !== undefined) return name;
      }
      return '';
    };
    for (const id of api.GetLineIDsWithType(model, WebIFC.IFCPRODUCT, true)) {
      const line = api.GetLine(model, id) as Line;
      const globalId = label(line.GlobalId);
      if (globalId === '') continue;
      onElement({
        globalId,
        ifcClass: api.GetNameFromTypeCode(line.type),
        name: label(line.Name),
        storey: storeyOf(id),
        tag: label(line.Tag),
      });
    }
    readConnections(api, model, parent, onConnection);
    const [projectId] = api.GetLineIDsWithType(model, WebIFC.IFCPROJECT);
    const project = projectId === undefined ? '' : label((api.GetLine(model, projectId) as Line).GlobalId);
    return { schema, project, storeys: storeys.map(({ order: _order, ...storey }) => storey) };
  } finally {
    api.CloseModel(model);
    api.Dispose();
  }
}
