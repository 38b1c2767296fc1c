/**
 * A heating plant as a design tool exports it, and a Brick model of it written by hand the way an
 * integrator names things: the harder case for the alignment. The IFC names are family names with
 * serial numbers ("Pump - Inline: DN50: 402201"); some elements carry the BMS tag (IfcElement.Tag),
 * the two boiler pumps carry none and are told apart only by what they are piped to (ports);
 * storeys and spaces are numbered as architects number them. `TRUTH` is the right answer.
 */
import { deterministicIfcGlobalId } from '../../../scripts/lib/ifc-guid.ts';
import { writeIfc, type IfcBuildingSpec, type IfcSchema } from '../../../scripts/lib/ifc-step-writer.ts';

const gid = (key: string) => deterministicIfcGlobalId(`heating-plant:${key}`);
const box = { x: 1, y: 1, z: 0, dx: 1, dy: 1, dz: 1 };

const G = {
  building: gid('building'),
  basement: gid('basement'),
  ground: gid('ground'),
  plantRoom: gid('plant-room'),
  office: gid('office'),
  meeting: gid('meeting'),
  b1: gid('b1'),
  b2: gid('b2'),
  p1: gid('p1'),
  p2: gid('p2'),
  cp: gid('cp'),
  mv: gid('mv'),
  rad1: gid('rad1'),
  rad2: gid('rad2'),
  pipe1: gid('pipe1'),
  pipe2: gid('pipe2'),
  header: gid('header'),
  pipe3: gid('pipe3'),
  flow: gid('flow'),
} as const;

const spec: IfcBuildingSpec = {
  fileName: 'heating-plant.ifc',
  seed: 'heating-plant',
  projectName: 'Plant House',
  building: { globalId: G.building, name: 'Plant House' },
  storeys: [
    {
      globalId: G.basement,
      name: '00 Basement',
      elevation: -3,
      spaces: [{ globalId: G.plantRoom, name: 'B.01', longName: 'Plant Room' }],
      elements: [
        {
          globalId: G.b1,
          name: 'Boiler - Condensing: 120 kW: 401101',
          kind: 'boiler',
          box,
          space: G.plantRoom,
          tag: 'B-1',
        },
        {
          globalId: G.b2,
          name: 'Boiler - Condensing: 120 kW: 401102',
          kind: 'boiler',
          box,
          space: G.plantRoom,
          tag: 'B-2',
        },
        { globalId: G.p1, name: 'Pump - Inline: DN50: 402201', kind: 'pump', box, space: G.plantRoom },
        { globalId: G.p2, name: 'Pump - Inline: DN50: 402202', kind: 'pump', box, space: G.plantRoom },
        { globalId: G.cp, name: 'Pump - Circulator: DN40: 402203', kind: 'pump', box, space: G.plantRoom, tag: 'CP-1' },
        { globalId: G.mv, name: 'Mixing Valve 1', kind: 'valve', box, space: G.plantRoom },
        { globalId: G.pipe1, name: 'Pipe Types: Steel: 501', kind: 'pipe', box },
        { globalId: G.pipe2, name: 'Pipe Types: Steel: 502', kind: 'pipe', box },
        { globalId: G.header, name: 'Pipe Types: Steel: 503', kind: 'pipe', box },
        { globalId: G.pipe3, name: 'Pipe Types: Steel: 504', kind: 'pipe', box },
      ],
    },
    {
      globalId: G.ground,
      name: '01 Ground Floor',
      elevation: 0,
      spaces: [
        { globalId: G.office, name: '0.01', longName: 'Office' },
        { globalId: G.meeting, name: '0.02', longName: 'Meeting' },
      ],
      elements: [
        {
          globalId: G.rad1,
          name: 'Radiator - Panel: 600x1200: 404401',
          kind: 'radiator',
          box,
          space: G.office,
          tag: 'RAD-0.01',
        },
        {
          globalId: G.rad2,
          name: 'Radiator - Panel: 600x1200: 404402',
          kind: 'radiator',
          box,
          space: G.meeting,
          tag: 'RAD-0.02',
        },
        { globalId: G.flow, name: 'Pipe Types: Steel: 505', kind: 'pipe', box },
      ],
    },
  ],
  // Boilers → their pumps → a header → the mixing valve → the circuit pump → the radiators.
  connections: [
    [G.b1, G.pipe1],
    [G.pipe1, G.p1],
    [G.b2, G.pipe2],
    [G.pipe2, G.p2],
    [G.p1, G.header],
    [G.p2, G.header],
    [G.header, G.mv],
    [G.mv, G.pipe3],
    [G.pipe3, G.cp],
    [G.cp, G.flow],
    [G.flow, G.rad1],
    [G.flow, G.rad2],
  ],
};

/** The plant as IFC4, or as IFC2X3 writes it (generic classes: IfcFlowMovingDevice for the pumps, …; millimetres). */
export const heatingPlantIfc = (schema: IfcSchema): string =>
  writeIfc({ ...spec, lengthUnit: schema === 'IFC2X3' ? 'millimetre' : 'metre' }, schema);

/** The Brick model, as an integrator writes it: its own ids and labels, no IFC links. */
export const HEATING_PLANT_TTL = `@prefix brick: <https://brickschema.org/schema/Brick#> .
@prefix rec: <https://w3id.org/rec#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix hp: <https://example.org/plant-house#> .

hp:Plant-House a brick:Building ; rdfs:label "Plant House" ; brick:hasPart hp:Basement, hp:Ground-Floor .
hp:Basement a rec:Level ; rdfs:label "Basement" ; brick:hasPart hp:Plant-Room .
hp:Ground-Floor a rec:Level ; rdfs:label "Ground Floor" ; brick:hasPart hp:Office-0-01, hp:Meeting-0-02 .
hp:Plant-Room a rec:UtilitiesRoom ; rdfs:label "Plant Room B.01" .
hp:Office-0-01 a rec:Office ; rdfs:label "Office 0.01" .
hp:Meeting-0-02 a rec:ConferenceRoom ; rdfs:label "Meeting 0.02" .
hp:HW-Zone a brick:HVAC_Zone ; rdfs:label "Heating zone ground floor" ; brick:hasPart hp:Office-0-01, hp:Meeting-0-02 .

hp:B-1 a brick:Boiler ; rdfs:label "Boiler 1" ; brick:hasLocation hp:Plant-Room ; brick:feeds hp:HWP-1 .
hp:B-2 a brick:Boiler ; rdfs:label "Boiler 2" ; brick:hasLocation hp:Plant-Room ; brick:feeds hp:HWP-2 .
hp:HWP-1 a brick:Hot_Water_Pump ; rdfs:label "Boiler pump 1" ; brick:hasLocation hp:Plant-Room ; brick:feeds hp:MV-1 .
hp:HWP-2 a brick:Hot_Water_Pump ; rdfs:label "Boiler pump 2" ; brick:hasLocation hp:Plant-Room ; brick:feeds hp:MV-1 .
hp:MV-1 a brick:Valve ; rdfs:label "Mixing valve 1" ; brick:hasLocation hp:Plant-Room ; brick:feeds hp:CP-1 .
hp:CP-1 a brick:Hot_Water_Pump ; rdfs:label "Circuit pump" ; brick:hasLocation hp:Plant-Room ; brick:feeds hp:RAD-0-01, hp:RAD-0-02 .
hp:RAD-0-01 a brick:Radiator ; rdfs:label "RAD-0.01" ; brick:hasLocation hp:Office-0-01 .
hp:RAD-0-02 a brick:Radiator ; rdfs:label "RAD-0.02" ; brick:hasLocation hp:Meeting-0-02 .
`;

/** GlobalId → the entity it is (14 links). */
export const HEATING_PLANT_TRUTH: Readonly<Record<string, string>> = {
  [G.building]: 'Plant-House',
  [G.basement]: 'Basement',
  [G.ground]: 'Ground-Floor',
  [G.plantRoom]: 'Plant-Room',
  [G.office]: 'Office-0-01',
  [G.meeting]: 'Meeting-0-02',
  [G.b1]: 'B-1',
  [G.b2]: 'B-2',
  [G.p1]: 'HWP-1',
  [G.p2]: 'HWP-2',
  [G.cp]: 'CP-1',
  [G.mv]: 'MV-1',
  [G.rad1]: 'RAD-0-01',
  [G.rad2]: 'RAD-0-02',
};
