// A model written to pass Brick 1.4's shapes (fixtures/real-models/brick-1.4-ifc-project-
// and-collection-members.ttl): IFC references that name their ref:ifcProject still give their
// entities' ifcId and entityByIfcId, the project itself is no entity of the API, and a system whose
// members are stated with rec:includes and brick:hasPart answers them once. Each answer is compared
// with a plain SPARQL question over the fixture (test/support/sparql-reference.ts).
import { describe, expect, it } from 'vitest';
import { names } from '../../support/graphql-suite.ts';
import { realModelSuite } from '../../support/real-model-suite.ts';
import { referenceColumn } from '../../support/sparql-reference.ts';

const { reference, ok } = realModelSuite('plant', 'brick-1.4-ifc-project-and-collection-members');

describe('IFC references that name their project', () => {
  it('give each entity its GlobalId, and not the project’s', async () => {
    const data = await ok(
      `{ equipment(siteId: "plant") { name ifcId } room: location(siteId: "plant", locationId: "plant-room") { name ifcId } }`,
    );
    const answered = [...data.equipment, data.room]
      .filter((e: any) => e.ifcId)
      .map((e: any) => e.ifcId)
      .sort();
    expect(answered).toEqual(['0hZ9p1vVf4JAuUxV4FzD0q', '2r5JjxYq97vfDk8l6iHqW4']);
    expect(answered).toEqual(
      referenceColumn(
        reference,
        'SELECT ?g WHERE { ?e ref:hasExternalReference ?r . ?r a ref:IFCReference ; ref:ifcGlobalID ?g }',
        'g',
      ),
    );
  });

  it('are found by entityByIfcId; the project’s own id names no entity', async () => {
    const data = await ok(`{
      chiller: entityByIfcId(siteId: "plant", ifcId: "2r5JjxYq97vfDk8l6iHqW4") { __typename ... on Equipment { name } }
      project: entityByIfcId(siteId: "plant", ifcId: "1Ue3rwZXv9rQz5T3d9nBtO") { __typename }
    }`);
    expect(data.chiller).toEqual({ __typename: 'Equipment', name: 'Chiller' });
    expect(data.project).toBeNull();
  });

  it('leave the project out of every kind', async () => {
    const data = await ok(
      `{ equipment(siteId: "plant") { name } building(siteId: "plant") { name } point(siteId: "plant") { name } system(siteId: "plant") { name } }`,
    );
    const all = [...data.equipment, ...data.building, ...data.point, ...data.system].map((e: any) => e.name);
    expect(all).not.toContain('Plant IFC model');
    expect(names(data.equipment)).toEqual(
      referenceColumn(reference, 'SELECT ?n WHERE { ?e a/rdfs:subClassOf* brick:Equipment ; rdfs:label ?n }', 'n'),
    );
  });
});

describe('a system with members by rec:includes and brick:hasPart', () => {
  it('answers each member once, and the plant enable command among its points', async () => {
    const data = await ok(`{ system(siteId: "plant") { name equipment { name } points { name } } }`);
    expect(data.system).toHaveLength(1);
    const [system] = data.system;
    expect(names(system.equipment)).toEqual(['CHW pump', 'Chiller']);
    expect(names(system.equipment)).toEqual(
      referenceColumn(
        reference,
        'SELECT DISTINCT ?n WHERE { <https://example.org/ifc-project#chw-sys> brick:hasPart ?e . ?e rdfs:label ?n }',
        'n',
      ),
    );
    expect(names(system.points)).toEqual(['CHW system enable']);
  });
});
