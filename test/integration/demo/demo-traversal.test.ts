// The demo site's feeds chains, parts and systems (docs/brick-mapping.md, "Output substances"; fixtures/README.md
// "Feeds chains"). Expected answers are read off fixtures/demo.ttl:
//
//   CT-1 → CWP-1 → CH-1 → CHWP-1 → AHU-1 → VAV-1-01..04, VAV-2-01..04 → zones
//                                 → AHU-2 → VAV-3-01..04, VAV-4-01..04 → zones
//                         CHWP-1 → FCU-1-1..4-1 → Zone-<f>-05
//   B-1 → HWP-1 → HX-1 → AHU-1, AHU-2, VAV-1-01, VAV-2-01, VAV-3-01, VAV-4-01
//         HWP-1 → FCU-1-1..4-1
//
// Some of those links are stated backwards (CH-1 isFedBy CWP-1, AHU-2 isFedBy HX-1, VAV-2-03 isFedBy
// AHU-1, VAV-3-02 isFedBy AHU-2, Zone-4-02 isFedBy VAV-4-02).
//
// What an edge A→B carries (docs/brick-mapping.md, "Output substances": A's hasOutputSubstance, else the shipped default for A's
// class, src/ontology/output-substance-defaults.ts): CT-1 and CWP-1 condenser water; CH-1 and CHWP-1
// chilled water; B-1 and HWP-1 hot water; HX-1 hot water (stated: brick:hasOutputSubstance); AHUs,
// VAVs and FCUs air. Chilled, hot and condenser water are all narrower than Water and not of each other.
import { describe, expect, it } from 'vitest';
import type { GraphQLResult } from '../../support/harness.ts';
import { demoFixture, graphqlSuite } from '../../support/graphql-suite.ts';

const { graphql, ok: run } = graphqlSuite({ demo: demoFixture() });

const names = (xs: Array<{ name: string }>): string[] => xs.map((x) => x.name);
const sorted = (xs: string[]): string[] => [...xs].sort();

/** `actual` cut into groups of the sizes of `layers` (each sorted), plus any surplus as a last group. */
function asLayers(actual: string[], layers: string[][]): string[][] {
  const out: string[][] = [];
  let i = 0;
  for (const layer of layers) {
    out.push(actual.slice(i, i + layer.length).sort());
    i += layer.length;
  }
  if (i < actual.length) out.push(actual.slice(i).sort());
  return out;
}
/** `actual` lists exactly the members of `layers`, nearest first (any order within one depth). */
function expectNearestFirst(actual: string[], layers: string[][]): void {
  expect(asLayers(actual, layers)).toEqual(layers.map((l) => sorted(l)));
}

/** One piece of equipment (by id) with `field` selected as `{ name }`. */
async function equipmentField(id: string, field: string): Promise<string[]> {
  const data = await run(`query ($id: String) { equipment(siteId: "demo", id: $id) { ${field} { name } } }`, { id });
  expect(data.equipment, id).toHaveLength(1);
  const key = field.replace(/\(.*$/, '').trim();
  return names(data.equipment[0][key]);
}
async function zoneField(id: string, field: string): Promise<string[]> {
  const data = await run(`query ($id: String) { zone(siteId: "demo", id: $id) { ${field} { name } } }`, { id });
  expect(data.zone, id).toHaveLength(1);
  const key = field.replace(/\(.*$/, '').trim();
  return names(data.zone[0][key]);
}

const vavs = (floors: number[]) => floors.flatMap((f) => [1, 2, 3, 4].map((n) => `VAV-${f}-0${n}`));
const FCUS = ['FCU-1-1', 'FCU-2-1', 'FCU-3-1', 'FCU-4-1'];

describe('zone upstream', () => {
  it('Zone-2-04 at maxDepth 3: VAV-2-04, AHU-1, then CHWP-1 and HX-1', async () => {
    expectNearestFirst(await zoneField('Zone-2-04', 'upstream(maxDepth: 3)'), [
      ['VAV-2-04'],
      ['AHU-1'],
      ['CHWP-1', 'HX-1'],
    ]);
  });

  it('Zone-2-04 at any depth: the whole plant behind AHU-1, 6 hops up to CT-1', async () => {
    expectNearestFirst(await zoneField('Zone-2-04', 'upstream'), [
      ['VAV-2-04'],
      ['AHU-1'],
      ['CHWP-1', 'HX-1'],
      ['CH-1', 'HWP-1'],
      ['CWP-1', 'B-1'],
      ['CT-1'],
    ]);
  });

  it('Zone-1-01 (reheat VAV, fed by HX-1 too): the nine of fixtures/README.md', async () => {
    expectNearestFirst(await zoneField('Zone-1-01', 'upstream'), [
      ['VAV-1-01'],
      ['AHU-1', 'HX-1'],
      ['CHWP-1', 'HWP-1'],
      ['CH-1', 'B-1'],
      ['CWP-1'],
      ['CT-1'],
    ]);
  });

  it('Zone-4-02 (Zone-4-02 isFedBy VAV-4-02) at maxDepth 2: VAV-4-02, then AHU-2', async () => {
    expectNearestFirst(await zoneField('Zone-4-02', 'upstream(maxDepth: 2)'), [['VAV-4-02'], ['AHU-2']]);
  });

  it('Zone-3-02 (VAV-3-02 isFedBy AHU-2) at maxDepth 2: VAV-3-02, then AHU-2', async () => {
    expectNearestFirst(await zoneField('Zone-3-02', 'upstream(maxDepth: 2)'), [['VAV-3-02'], ['AHU-2']]);
  });

  it('Zone-2-05 (telecom room, FCU): FCU-2-1, then both pumps, then chiller and boiler', async () => {
    expectNearestFirst(await zoneField('Zone-2-05', 'upstream(maxDepth: 3)'), [
      ['FCU-2-1'],
      ['CHWP-1', 'HWP-1'],
      ['CH-1', 'B-1'],
    ]);
  });

  it('is: filters the result, not the walk: the pumps upstream of Zone-2-04', async () => {
    expect(sorted(await zoneField('Zone-2-04', 'upstream(is: "Pump")'))).toEqual(['CHWP-1', 'CWP-1', 'HWP-1']);
  });

  it('fedBy is the direct neighbour only', async () => {
    expect(await zoneField('Zone-2-04', 'fedBy')).toEqual(['VAV-2-04']);
    expect(await zoneField('Zone-4-02', 'fedBy')).toEqual(['VAV-4-02']);
    expect(await zoneField('Zone-1-05', 'fedBy')).toEqual(['FCU-1-1']);
  });
});

describe('equipment feeds, fedBy, upstream and downstream', () => {
  it('AHU-1 feeds its eight VAVs (VAV-2-03 stated as isFedBy AHU-1) and is fed by CHWP-1 and HX-1', async () => {
    expect(sorted(await equipmentField('AHU-1', 'feeds'))).toEqual(vavs([1, 2]));
    expect(sorted(await equipmentField('AHU-1', 'fedBy'))).toEqual(['CHWP-1', 'HX-1']);
  });

  it('AHU-2 feeds its eight VAVs (VAV-3-02 isFedBy AHU-2) and is fed by CHWP-1 and HX-1 (AHU-2 isFedBy HX-1)', async () => {
    expect(sorted(await equipmentField('AHU-2', 'feeds'))).toEqual(vavs([3, 4]));
    expect(sorted(await equipmentField('AHU-2', 'fedBy'))).toEqual(['CHWP-1', 'HX-1']);
  });

  it('CH-1 is fed by CWP-1 (CH-1 isFedBy CWP-1) and feeds CHWP-1', async () => {
    expect(await equipmentField('CH-1', 'fedBy')).toEqual(['CWP-1']);
    expect(await equipmentField('CH-1', 'feeds')).toEqual(['CHWP-1']);
  });

  it('a VAV feeds no equipment (its zone is not equipment)', async () => {
    expect(await equipmentField('VAV-2-04', 'feeds')).toEqual([]);
  });

  it('CT-1 downstream: 25 pieces of equipment, nearest first, no zones', async () => {
    expectNearestFirst(await equipmentField('CT-1', 'downstream'), [
      ['CWP-1'],
      ['CH-1'],
      ['CHWP-1'],
      ['AHU-1', 'AHU-2', ...FCUS],
      vavs([1, 2, 3, 4]),
    ]);
  });

  it('AHU-1 upstream: the chilled- and hot-water plant, 4 hops up to CT-1', async () => {
    expectNearestFirst(await equipmentField('AHU-1', 'upstream'), [
      ['CHWP-1', 'HX-1'],
      ['CH-1', 'HWP-1'],
      ['CWP-1', 'B-1'],
      ['CT-1'],
    ]);
  });

  it('maxDepth bounds hops: CH-1 downstream(maxDepth: 2) is CHWP-1, then the AHUs and FCUs', async () => {
    expectNearestFirst(await equipmentField('CH-1', 'downstream(maxDepth: 2)'), [
      ['CHWP-1'],
      ['AHU-1', 'AHU-2', ...FCUS],
    ]);
  });

  it('downstream(is: "VAV") of B-1: every VAV (HX-1 reaches the reheat ones first, the AHUs the rest)', async () => {
    expect(sorted(await equipmentField('B-1', 'downstream(is: "VAV")'))).toEqual(vavs([1, 2, 3, 4]));
  });
});

describe('medium (an edge carries what its source outputs)', () => {
  it('CH-1 downstream on CHILLED_WATER reaches CHWP-1, the AHUs and the FCUs, and not the VAVs behind the AHUs (air edges)', async () => {
    expectNearestFirst(await equipmentField('CH-1', 'downstream(medium: "CHILLED_WATER")'), [
      ['CHWP-1'],
      ['AHU-1', 'AHU-2', ...FCUS],
    ]);
  });

  it('without medium, CH-1 downstream also takes the 16 VAVs', async () => {
    expectNearestFirst(await equipmentField('CH-1', 'downstream'), [
      ['CHWP-1'],
      ['AHU-1', 'AHU-2', ...FCUS],
      vavs([1, 2, 3, 4]),
    ]);
  });

  it('WATER matches chilled water edges too (Chilled_Water is narrower than Water)', async () => {
    expect(sorted(await equipmentField('CH-1', 'downstream(medium: "WATER")'))).toEqual(
      sorted(['CHWP-1', 'AHU-1', 'AHU-2', ...FCUS]),
    );
  });

  it('CH-1 downstream on AIR is empty: its first edge carries chilled water', async () => {
    expect(await equipmentField('CH-1', 'downstream(medium: "AIR")')).toEqual([]);
  });

  it('the medium value is case-insensitive', async () => {
    expect(sorted(await equipmentField('CH-1', 'downstream(medium: "chilled_water")'))).toEqual(
      sorted(['CHWP-1', 'AHU-1', 'AHU-2', ...FCUS]),
    );
  });

  it('AHU-1 upstream on CHILLED_WATER: CHWP-1, CH-1 (CWP-1 → CH-1 carries condenser water; HX-1 → AHU-1 hot water)', async () => {
    expectNearestFirst(await equipmentField('AHU-1', 'upstream(medium: "CHILLED_WATER")'), [['CHWP-1'], ['CH-1']]);
  });

  it('AHU-1 upstream on HOT_WATER: HX-1 (stated hasOutputSubstance Hot_Water), HWP-1, B-1', async () => {
    expectNearestFirst(await equipmentField('AHU-1', 'upstream(medium: "HOT_WATER")'), [['HX-1'], ['HWP-1'], ['B-1']]);
  });

  it('AHU-1 upstream on WATER: all seven plant items (every water edge matches)', async () => {
    expectNearestFirst(await equipmentField('AHU-1', 'upstream(medium: "WATER")'), [
      ['CHWP-1', 'HX-1'],
      ['CH-1', 'HWP-1'],
      ['CWP-1', 'B-1'],
      ['CT-1'],
    ]);
  });

  it('CT-1 downstream on CONDENSER_WATER stops at the chiller: CWP-1, CH-1', async () => {
    expectNearestFirst(await equipmentField('CT-1', 'downstream(medium: "CONDENSER_WATER")'), [['CWP-1'], ['CH-1']]);
  });

  it('VAV-1-01 upstream on HOT_WATER is its reheat supply HX-1, HWP-1, B-1 (AHU-1 → VAV-1-01 is air)', async () => {
    expectNearestFirst(await equipmentField('VAV-1-01', 'upstream(medium: "HOT_WATER")'), [
      ['HX-1'],
      ['HWP-1'],
      ['B-1'],
    ]);
  });

  it('B-1 downstream on HOT_WATER: HWP-1; HX-1 and the FCUs; the AHUs and the four reheat VAVs', async () => {
    expectNearestFirst(await equipmentField('B-1', 'downstream(medium: "HOT_WATER")'), [
      ['HWP-1'],
      ['HX-1', ...FCUS],
      ['AHU-1', 'AHU-2', 'VAV-1-01', 'VAV-2-01', 'VAV-3-01', 'VAV-4-01'],
    ]);
  });

  it('AHU-2 downstream on AIR: its eight VAVs', async () => {
    expect(sorted(await equipmentField('AHU-2', 'downstream(medium: "AIR")'))).toEqual(vavs([3, 4]));
  });

  it('an unknown medium is an UNKNOWN_MEDIUM error', async () => {
    const res: GraphQLResult = await graphql(
      '{ equipment(siteId: "demo", id: "CH-1") { downstream(medium: "LAVA") { name } } }',
    );
    expect(res.errors?.[0]?.extensions?.code).toBe('UNKNOWN_MEDIUM');
  });
});

describe('parts and location of parts', () => {
  it('AHU-2 has three parts (AHU-2-CC stated as isPartOf AHU-2)', async () => {
    expect(sorted(await equipmentField('AHU-2', 'parts'))).toEqual(['AHU-2-CC', 'AHU-2-HC', 'AHU-2-SF']);
  });

  it('a part answers partOf, and its location is that of the AHU', async () => {
    const data = await run(
      `{ equipment(siteId: "demo", name: "AHU-", is: "Supply_Fan") { name partOf { name } location { name } } }`,
    );
    expect([...data.equipment].sort((a: any, b: any) => a.name.localeCompare(b.name))).toEqual([
      { name: 'AHU-1-SF', partOf: { name: 'AHU-1' }, location: { name: 'Mechanical Room' } },
      { name: 'AHU-2-SF', partOf: { name: 'AHU-2' }, location: { name: 'Roof' } },
    ]);
    const cc = await run(`{ equipment(siteId: "demo", id: "AHU-2-CC") { partOf { name } location { name } } }`);
    expect(cc.equipment).toEqual([{ partOf: { name: 'AHU-2' }, location: { name: 'Roof' } }]);
  });
});

describe('systems', () => {
  it('lists the five systems with their types', async () => {
    const data = await run(`{ system(siteId: "demo") { name type } }`);
    expect([...data.system].sort((a: any, b: any) => a.name.localeCompare(b.name))).toEqual([
      { name: 'AIR-SYS-1', type: 'Air_System' },
      { name: 'AIR-SYS-2', type: 'Air_System' },
      { name: 'CHW-SYS', type: 'Chilled_Water_System' },
      { name: 'HVAC-SYS', type: 'HVAC_System' },
      { name: 'HW-SYS', type: 'Hot_Water_System' },
    ]);
  });

  const systemEquipment = async (name: string, recursive: boolean): Promise<string[]> => {
    const data = await run(
      `query ($name: String, $r: Boolean) { system(siteId: "demo", name: $name, nameMatch: EXACT) { equipment(recursive: $r) { name } } }`,
      { name, r: recursive },
    );
    expect(data.system, name).toHaveLength(1);
    return sorted(names(data.system[0].equipment));
  };

  it('CHW-SYS and HW-SYS have their plant members', async () => {
    expect(await systemEquipment('CHW-SYS', false)).toEqual(['CH-1', 'CHWP-1', 'CT-1', 'CWP-1']);
    expect(await systemEquipment('HW-SYS', false)).toEqual(['B-1', 'HWP-1', 'HX-1']);
  });

  it('AIR-SYS-1 has AHU-1 and its eight VAVs (VAV-1-03 stated as isPartOf AIR-SYS-1); recursive adds the AHU parts', async () => {
    expect(await systemEquipment('AIR-SYS-1', false)).toEqual(sorted(['AHU-1', ...vavs([1, 2])]));
    expect(await systemEquipment('AIR-SYS-1', true)).toEqual(
      sorted(['AHU-1', 'AHU-1-CC', 'AHU-1-HC', 'AHU-1-SF', ...vavs([1, 2])]),
    );
  });

  it('AIR-SYS-2 has AHU-2 and its eight VAVs', async () => {
    expect(await systemEquipment('AIR-SYS-2', false)).toEqual(sorted(['AHU-2', ...vavs([3, 4])]));
  });

  it('HVAC-SYS has only systems as parts; recursive takes all their members and the AHU parts', async () => {
    expect(await systemEquipment('HVAC-SYS', false)).toEqual([]);
    expect(await systemEquipment('HVAC-SYS', true)).toEqual(
      sorted([
        'CH-1',
        'CHWP-1',
        'CT-1',
        'CWP-1',
        'B-1',
        'HWP-1',
        'HX-1',
        'AHU-1',
        'AHU-1-CC',
        'AHU-1-HC',
        'AHU-1-SF',
        ...vavs([1, 2]),
        'AHU-2',
        'AHU-2-CC',
        'AHU-2-HC',
        'AHU-2-SF',
        ...vavs([3, 4]),
      ]),
    );
  });

  it("CHW-SYS points: its members' 31 points, the system's enable command (a point of CH-1) among them", async () => {
    const data = await run(`{ system(siteId: "demo", name: "CHW-SYS") { points { name } } }`);
    const points = names(data.system[0].points);
    expect(points).toContain('CHW-SYS Enable Command');
    expect(points).toContain('CH-1 Run Status');
    // CH-1 11 (CHW-SYS-EN-CMD among them), CHWP-1 7, CT-1 7, CWP-1 6.
    expect(points).toHaveLength(31);
    expect(new Set(points).size).toBe(31);
  });

  it('equipment answers its systems, whichever way membership is stated', async () => {
    expect(await equipmentField('AHU-1', 'systems')).toEqual(['AIR-SYS-1']);
    expect(await equipmentField('VAV-1-03', 'systems')).toEqual(['AIR-SYS-1']);
    expect(await equipmentField('CH-1', 'systems')).toEqual(['CHW-SYS']);
    expect(await equipmentField('HX-1', 'systems')).toEqual(['HW-SYS']);
    expect(await equipmentField('WS-1', 'systems')).toEqual([]);
  });

  it('equipment(systemId:) answers the members of AIR-SYS-1', async () => {
    const data = await run(`{ equipment(siteId: "demo", systemId: "AIR-SYS-1") { name } }`);
    expect(sorted(names(data.equipment))).toEqual(sorted(['AHU-1', ...vavs([1, 2])]));
  });

  it('the building, recursively, has the four systems with located members', async () => {
    const data = await run(`{ building(siteId: "demo") { systems(recursive: true) { name } } }`);
    expect(names(data.building[0].systems)).toEqual(
      expect.arrayContaining(['AIR-SYS-1', 'AIR-SYS-2', 'CHW-SYS', 'HW-SYS']),
    );
  });
});
