/**
 * A small IFC writer (ISO 10303-21 STEP text) for fixture buildings: a project, a site, a building,
 * storeys with spaces, and elements as extruded boxes with a colour, contained in their storey or
 * space. It writes IFC4 or IFC2X3 (the same building in each: IFC2X3 has no occurrence classes for
 * equipment, so those become the generic distribution classes its exporters write). Output is
 * deterministic: ids come from the spec, GlobalIds of relations from `seed`.
 */
import { deterministicIfcGlobalId } from './ifc-guid.ts';

export type IfcSchema = 'IFC4' | 'IFC2X3';

/** What an element is; it picks the IFC class per schema and a colour. */
export type IfcElementKind =
  | 'slab'
  | 'roof-slab'
  | 'wall'
  | 'duct'
  | 'ahu'
  | 'vav'
  | 'fcu'
  | 'chiller'
  | 'boiler'
  | 'pump'
  | 'valve'
  | 'pipe'
  | 'radiator';

/** An axis-aligned box in metres, relative to its storey: centre x, y; base z; sizes. */
export interface IfcBox {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly dx: number;
  readonly dy: number;
  readonly dz: number;
}

export interface IfcElementSpec {
  readonly globalId: string;
  readonly name: string;
  readonly kind: IfcElementKind;
  readonly box: IfcBox;
  /** GlobalId of the space it is contained in; else its storey. */
  readonly space?: string;
  /** Its Tag (IfcElement.Tag), as exporters write an equipment tag; none when not given. */
  readonly tag?: string;
}

export interface IfcSpaceSpec {
  readonly globalId: string;
  readonly name: string;
  readonly longName: string;
}

export interface IfcStoreySpec {
  readonly globalId: string;
  readonly name: string;
  /** Metres above the building's base. */
  readonly elevation: number;
  readonly spaces: readonly IfcSpaceSpec[];
  readonly elements: readonly IfcElementSpec[];
}

export interface IfcBuildingSpec {
  readonly fileName: string;
  /** Derives the GlobalIds the spec does not give (project, site, relations). */
  readonly seed: string;
  readonly projectName: string;
  /** The project's GlobalId (a graph's `ref:ifcProjectID`); derived from the seed when not given. */
  readonly projectGlobalId?: string;
  readonly building: { readonly globalId: string; readonly name: string };
  readonly storeys: readonly IfcStoreySpec[];
  /** The file's length unit; coordinates in the spec are metres either way. Default metre. */
  readonly lengthUnit?: 'metre' | 'millimetre';
  /**
   * Elements joined port to port, by GlobalId (from, to): each end gets an IfcDistributionPort
   * (SOURCE on `from`, SINK on `to`) nested in it (IFC4) or related to it (IFC2X3), and the two
   * ports an IfcRelConnectsPorts.
   */
  readonly connections?: ReadonlyArray<readonly [from: string, to: string]>;
}

const CLASSES: Record<IfcElementKind, Record<IfcSchema, { name: string; predefined?: string }>> = {
  slab: { IFC4: { name: 'IFCSLAB', predefined: 'FLOOR' }, IFC2X3: { name: 'IFCSLAB', predefined: 'FLOOR' } },
  'roof-slab': { IFC4: { name: 'IFCSLAB', predefined: 'ROOF' }, IFC2X3: { name: 'IFCSLAB', predefined: 'ROOF' } },
  wall: { IFC4: { name: 'IFCWALL', predefined: 'STANDARD' }, IFC2X3: { name: 'IFCWALLSTANDARDCASE' } },
  duct: { IFC4: { name: 'IFCDUCTSEGMENT', predefined: 'RIGIDSEGMENT' }, IFC2X3: { name: 'IFCFLOWSEGMENT' } },
  ahu: {
    IFC4: { name: 'IFCUNITARYEQUIPMENT', predefined: 'AIRHANDLER' },
    IFC2X3: { name: 'IFCENERGYCONVERSIONDEVICE' },
  },
  vav: {
    IFC4: { name: 'IFCAIRTERMINALBOX', predefined: 'VARIABLEFLOWPRESSUREINDEPENDANT' },
    IFC2X3: { name: 'IFCFLOWCONTROLLER' },
  },
  fcu: {
    IFC4: { name: 'IFCUNITARYEQUIPMENT', predefined: 'SPLITSYSTEM' },
    IFC2X3: { name: 'IFCENERGYCONVERSIONDEVICE' },
  },
  chiller: { IFC4: { name: 'IFCCHILLER', predefined: 'WATERCOOLED' }, IFC2X3: { name: 'IFCENERGYCONVERSIONDEVICE' } },
  boiler: { IFC4: { name: 'IFCBOILER', predefined: 'WATER' }, IFC2X3: { name: 'IFCENERGYCONVERSIONDEVICE' } },
  pump: { IFC4: { name: 'IFCPUMP', predefined: 'ENDSUCTION' }, IFC2X3: { name: 'IFCFLOWMOVINGDEVICE' } },
  valve: { IFC4: { name: 'IFCVALVE', predefined: 'MIXING' }, IFC2X3: { name: 'IFCFLOWCONTROLLER' } },
  pipe: { IFC4: { name: 'IFCPIPESEGMENT', predefined: 'RIGIDSEGMENT' }, IFC2X3: { name: 'IFCFLOWSEGMENT' } },
  radiator: { IFC4: { name: 'IFCSPACEHEATER', predefined: 'RADIATOR' }, IFC2X3: { name: 'IFCFLOWTERMINAL' } },
};

const COLOURS: Record<IfcElementKind, readonly [number, number, number]> = {
  slab: [0.78, 0.78, 0.76],
  'roof-slab': [0.6, 0.6, 0.62],
  wall: [0.9, 0.86, 0.78],
  duct: [0.72, 0.76, 0.8],
  ahu: [0.16, 0.42, 0.78],
  vav: [0.95, 0.55, 0.12],
  fcu: [0.55, 0.35, 0.75],
  chiller: [0.1, 0.65, 0.7],
  boiler: [0.82, 0.2, 0.18],
  pump: [0.3, 0.6, 0.25],
  valve: [0.85, 0.75, 0.2],
  pipe: [0.55, 0.55, 0.6],
  radiator: [0.9, 0.9, 0.92],
};

/** A STEP real: always with a decimal point, never in exponent form for the sizes used here. */
function real(value: number): string {
  if (Number.isInteger(value)) return `${value}.`;
  return String(Number(value.toFixed(6)));
}

/** A STEP string: quotes doubled, backslashes doubled, anything outside printable ASCII as \X2\ hex. */
function text(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (ch === "'") out += "''";
    else if (ch === '\\') out += '\\\\';
    else if (code >= 0x20 && code < 0x7f) out += ch;
    else
      out += `\\X2\\${code
        .toString(16)
        .toUpperCase()
        .padStart(code > 0xffff ? 8 : 4, '0')}\\X0\\`;
  }
  return `'${out}'`;
}

/** Writes the building as IFC STEP text. */
export function writeIfc(spec: IfcBuildingSpec, schema: IfcSchema): string {
  const lines: string[] = [];
  let next = 1;
  const add = (entity: string): string => {
    const ref = `#${next++}`;
    lines.push(`${ref}=${entity};`);
    return ref;
  };
  const guid = (key: string) => text(deterministicIfcGlobalId(`${spec.seed}:${key}`));
  const scale = spec.lengthUnit === 'millimetre' ? 1000 : 1;
  const length = (metres: number) => real(metres * scale);
  const point = (x: number, y: number, z: number) => add(`IFCCARTESIANPOINT((${length(x)},${length(y)},${length(z)}))`);

  const person = add("IFCPERSON($,'Generator',$,$,$,$,$,$)");
  const organization = add("IFCORGANIZATION($,'Building knowledge graph service',$,$,$)");
  const owner = add(`IFCPERSONANDORGANIZATION(${person},${organization},$)`);
  const application = add(`IFCAPPLICATION(${organization},'1.0','bkg fixture generator','bkg')`);
  // 2026-01-01T00:00:00Z: a fixed creation date keeps the output identical from run to run.
  const history = add(`IFCOWNERHISTORY(${owner},${application},$,.ADDED.,$,$,$,1767225600)`);

  const lengthUnit = add(`IFCSIUNIT(*,.LENGTHUNIT.,${scale === 1000 ? '.MILLI.' : '$'},.METRE.)`);
  const areaUnit = add('IFCSIUNIT(*,.AREAUNIT.,$,.SQUARE_METRE.)');
  const angleUnit = add('IFCSIUNIT(*,.PLANEANGLEUNIT.,$,.RADIAN.)');
  const units = add(`IFCUNITASSIGNMENT((${lengthUnit},${areaUnit},${angleUnit}))`);

  const origin = point(0, 0, 0);
  const up = add('IFCDIRECTION((0.,0.,1.))');
  const world = add(`IFCAXIS2PLACEMENT3D(${origin},$,$)`);
  const context = add(`IFCGEOMETRICREPRESENTATIONCONTEXT($,'Model',3,1.E-05,${world},$)`);
  const origin2d = add('IFCCARTESIANPOINT((0.,0.))');
  const centred = add(`IFCAXIS2PLACEMENT2D(${origin2d},$)`);

  const project = add(
    `IFCPROJECT(${spec.projectGlobalId ? text(spec.projectGlobalId) : guid('project')},${history},${text(spec.projectName)},$,$,$,$,(${context}),${units})`,
  );
  const sitePlacement = add(`IFCLOCALPLACEMENT($,${world})`);
  const site = add(`IFCSITE(${guid('site')},${history},'Site',$,$,${sitePlacement},$,$,.ELEMENT.,$,$,$,$,$)`);
  const buildingPlacement = add(`IFCLOCALPLACEMENT(${sitePlacement},${world})`);
  const building = add(
    `IFCBUILDING(${text(spec.building.globalId)},${history},${text(spec.building.name)},$,$,${buildingPlacement},$,$,.ELEMENT.,$,$,$)`,
  );
  add(`IFCRELAGGREGATES(${guid('project-site')},${history},$,$,${project},(${site}))`);
  add(`IFCRELAGGREGATES(${guid('site-building')},${history},$,$,${site},(${building}))`);

  const styles = new Map<IfcElementKind, string>();
  const styleOf = (kind: IfcElementKind): string => {
    let style = styles.get(kind);
    if (!style) {
      const [r, g, b] = COLOURS[kind];
      const colour = add(`IFCCOLOURRGB($,${real(r)},${real(g)},${real(b)})`);
      const rendering = add(`IFCSURFACESTYLERENDERING(${colour},0.,$,$,$,$,$,$,.NOTDEFINED.)`);
      const surface = add(`IFCSURFACESTYLE(${text(kind)},.BOTH.,(${rendering}))`);
      // IFC2X3 wraps styles in a presentation style assignment; IFC4 lets a styled item name them.
      style = schema === 'IFC2X3' ? add(`IFCPRESENTATIONSTYLEASSIGNMENT((${surface}))`) : surface;
      styles.set(kind, style);
    }
    return style;
  };

  const storeys: string[] = [];
  const products = new Map<string, string>();
  for (const storeySpec of spec.storeys) {
    const storeyPlacement = add(
      `IFCLOCALPLACEMENT(${buildingPlacement},${add(`IFCAXIS2PLACEMENT3D(${point(0, 0, storeySpec.elevation)},$,$)`)})`,
    );
    const storey = add(
      `IFCBUILDINGSTOREY(${text(storeySpec.globalId)},${history},${text(storeySpec.name)},$,$,${storeyPlacement},$,$,.ELEMENT.,${length(storeySpec.elevation)})`,
    );
    storeys.push(storey);
    const spaces = new Map<string, string>();
    for (const spaceSpec of storeySpec.spaces) {
      spaces.set(
        spaceSpec.globalId,
        add(
          `IFCSPACE(${text(spaceSpec.globalId)},${history},${text(spaceSpec.name)},$,$,${storeyPlacement},$,${text(spaceSpec.longName)},.ELEMENT.,.INTERNAL.,$)`,
        ),
      );
    }
    if (spaces.size > 0)
      add(
        `IFCRELAGGREGATES(${guid(`${storeySpec.globalId}-spaces`)},${history},$,$,${storey},(${[...spaces.values()].join(',')}))`,
      );

    const contained = new Map<string, string[]>();
    for (const element of storeySpec.elements) {
      const { x, y, z, dx, dy, dz } = element.box;
      const placement = add(
        `IFCLOCALPLACEMENT(${storeyPlacement},${add(`IFCAXIS2PLACEMENT3D(${point(x, y, z)},$,$)`)})`,
      );
      const profile = add(`IFCRECTANGLEPROFILEDEF(.AREA.,$,${centred},${length(dx)},${length(dy)})`);
      const solid = add(`IFCEXTRUDEDAREASOLID(${profile},${world},${up},${length(dz)})`);
      add(`IFCSTYLEDITEM(${solid},(${styleOf(element.kind)}),$)`);
      const body = add(`IFCSHAPEREPRESENTATION(${context},'Body','SweptSolid',(${solid}))`);
      const shape = add(`IFCPRODUCTDEFINITIONSHAPE($,$,(${body}))`);
      const cls = CLASSES[element.kind][schema];
      const predefined = schema === 'IFC4' || cls.name === 'IFCSLAB' ? `,.${cls.predefined ?? 'NOTDEFINED'}.` : '';
      const ref = add(
        `${cls.name}(${text(element.globalId)},${history},${text(element.name)},$,$,${placement},${shape},${element.tag === undefined ? '$' : text(element.tag)}${predefined})`,
      );
      products.set(element.globalId, ref);
      const container = element.space === undefined ? storey : spaces.get(element.space);
      if (!container) throw new Error(`${element.name}: no space ${element.space} on ${storeySpec.name}`);
      contained.set(container, [...(contained.get(container) ?? []), ref]);
    }
    for (const [container, elements] of contained) {
      add(
        `IFCRELCONTAINEDINSPATIALSTRUCTURE(${guid(`${container}-${storeySpec.globalId}-contains`)},${history},$,$,(${elements.join(',')}),${container})`,
      );
    }
  }
  add(`IFCRELAGGREGATES(${guid('building-storeys')},${history},$,$,${building},(${storeys.join(',')}))`);
  for (const [from, to] of spec.connections ?? []) {
    const port = (of: string, direction: 'SOURCE' | 'SINK') => {
      const element = products.get(of);
      if (!element) throw new Error(`No element ${of} to connect`);
      const key = `${of}-${from}-${to}-${direction}`;
      const rest = schema === 'IFC4' ? `,.${direction}.,.PIPE.,.HEATING.` : `,.${direction}.`;
      const ref = add(
        `IFCDISTRIBUTIONPORT(${guid(`port-${key}`)},${history},${text(direction === 'SOURCE' ? 'Outlet' : 'Inlet')},$,$,$,$${rest})`,
      );
      if (schema === 'IFC4') add(`IFCRELNESTS(${guid(`nests-${key}`)},${history},$,$,${element},(${ref}))`);
      else add(`IFCRELCONNECTSPORTTOELEMENT(${guid(`port-of-${key}`)},${history},$,$,${ref},${element})`);
      return ref;
    };
    add(
      `IFCRELCONNECTSPORTS(${guid(`connects-${from}-${to}`)},${history},$,$,${port(from, 'SOURCE')},${port(to, 'SINK')},$)`,
    );
  }

  return [
    'ISO-10303-21;',
    'HEADER;',
    "FILE_DESCRIPTION(('ViewDefinition [CoordinationView]'),'2;1');",
    `FILE_NAME(${text(spec.fileName)},'2026-01-01T00:00:00',('Generator'),('Building knowledge graph service'),'bkg fixture generator','bkg','');`,
    `FILE_SCHEMA(('${schema}'));`,
    'ENDSEC;',
    'DATA;',
    ...lines,
    'ENDSEC;',
    'END-ISO-10303-21;',
    '',
  ].join('\n');
}
