/**
 * A small two-storey building written as IFC4 (metres) and IFC2X3 (millimetres, as Revit exports
 * it), and the Turtle graph of site `hq` that maps some of its GlobalIds: the VAV and the ground
 * floor's space; slabs and the duct stay unmapped, as in real models.
 */
import { deterministicIfcGlobalId } from '../../../scripts/lib/ifc-guid.ts';
import { writeIfc, type IfcBuildingSpec, type IfcSchema } from '../../../scripts/lib/ifc-step-writer.ts';

const gid = (key: string) => deterministicIfcGlobalId(`small-building:${key}`);

export const IDS = {
  building: gid('building'),
  ground: gid('ground'),
  upper: gid('upper'),
  office: gid('office'),
  vav: gid('vav'),
  ahu: gid('ahu'),
  slab: gid('slab-0'),
  duct: gid('duct'),
} as const;

// "Erdgeschoß": a non-ASCII storey name, as STEP escapes it (\X2\00DF\X0\).
export const GROUND = 'Erdgeschoß';

const spec: IfcBuildingSpec = {
  fileName: 'small.ifc',
  seed: 'small-building',
  projectName: 'Small building',
  building: { globalId: IDS.building, name: 'Small building' },
  storeys: [
    {
      globalId: IDS.ground,
      name: GROUND,
      elevation: 0,
      spaces: [{ globalId: IDS.office, name: 'Office 0.01', longName: 'Office' }],
      elements: [
        { globalId: IDS.slab, name: 'Slab 0', kind: 'slab', box: { x: 5, y: 5, z: -0.3, dx: 10, dy: 10, dz: 0.3 } },
        {
          globalId: IDS.vav,
          name: 'VAV-1',
          kind: 'vav',
          space: IDS.office,
          box: { x: 5, y: 5, z: 2.6, dx: 1.2, dy: 0.6, dz: 0.4 },
        },
        { globalId: IDS.duct, name: 'Duct 0', kind: 'duct', box: { x: 5, y: 8, z: 2.7, dx: 8, dy: 0.5, dz: 0.3 } },
      ],
    },
    {
      globalId: IDS.upper,
      name: 'Level 1',
      elevation: 3.5,
      spaces: [],
      elements: [
        {
          globalId: gid('slab-1'),
          name: 'Slab 1',
          kind: 'slab',
          box: { x: 5, y: 5, z: -0.3, dx: 10, dy: 10, dz: 0.3 },
        },
        { globalId: IDS.ahu, name: 'AHU-1', kind: 'ahu', box: { x: 5, y: 5, z: 0, dx: 3, dy: 1.5, dz: 2 } },
      ],
    },
  ],
};

/** The building in a schema: IFC4 in metres, IFC2X3 in millimetres. */
export const smallBuildingIfc = (schema: IfcSchema): string =>
  writeIfc({ ...spec, lengthUnit: schema === 'IFC2X3' ? 'millimetre' : 'metre' }, schema);

/** Site `hq`: the VAV, the AHU and the office carry the IFC GlobalIds of the model. */
export const HQ_TTL = `@prefix brick: <https://brickschema.org/schema/Brick#> .
@prefix ref: <https://brickschema.org/schema/Brick/ref#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix ex: <https://example.org/hq#> .
ex:VAV-1 a brick:VAV ; rdfs:label "VAV-1" ; ref:hasExternalReference [ a ref:IFCReference ; ref:ifcGlobalID "${IDS.vav}" ] .
ex:AHU-1 a brick:AHU ; rdfs:label "AHU-1" ; brick:feeds ex:VAV-1 ; ref:hasExternalReference [ a ref:IFCReference ; ref:ifcGlobalID "${IDS.ahu}" ] .
ex:Office a brick:Room ; rdfs:label "Office 0.01" ; ref:hasExternalReference [ a ref:IFCReference ; ref:ifcGlobalID "${IDS.office}" ] .
`;
