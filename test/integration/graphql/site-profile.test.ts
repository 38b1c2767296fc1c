// The site profile the planner anchors ids, the kind fallback and property names on is read from
// the graph, and read again whenever the graph changes: answers after a merge or a replace are the
// graph's new ones, with entities in new namespaces and new untyped entities found by id, an
// IFC GlobalId that is no plain string still found, and relationships stated with predicates the
// graph did not hold before followed (the relation paths keep only the predicates a site holds).
import { describe, expect, it } from 'vitest';
import { storeRunner } from '../../../src/query/query-runner.ts';
import { readSiteProfile } from '../../../src/query/site-readers.ts';
import { siteGraph } from '../../../src/rdf/vocabulary.ts';
import { graphqlSuite } from '../../support/graphql-suite.ts';

const SITE = `@prefix brick: <https://brickschema.org/schema/Brick#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix a: <https://example.org/a#> .
@prefix b: <https://example.org/b/> .
@prefix p: <https://example.org/props#> .
@prefix ext: <https://example.org/vendor#> .
@prefix ref: <https://brickschema.org/schema/Brick/ref#> .
a:AHU1 a brick:AHU ; rdfs:label "AHU 1" ; p:controllerName "DDC-1" ; brick:hasPoint a:SAT ;
  ref:hasExternalReference [ ref:ifcGlobalID "1AHU1xxxxxxxxxxxxxxxxx" ] .
a:SAT a brick:Supply_Air_Temperature_Sensor ; rdfs:label "SAT" .
b:VAV1 a brick:VAV ; rdfs:label "VAV 1" ; p:controllerName "DDC-2" ; brick:area [ brick:value 12 ] .
a:LCP1 a ext:LightingPanel ; rdfs:label "LCP 1" ; brick:hasPoint a:LCP1-ST .
a:LCP1-ST a brick:Status ; rdfs:label "LCP 1 status" .
`;
const MERGED = `@prefix brick: <https://brickschema.org/schema/Brick#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix c: <urn:example:c/> .
@prefix p: <https://example.org/props#> .
@prefix ref: <https://brickschema.org/schema/Brick/ref#> .
c:LCP9 rdfs:label "LCP 9" ; brick:hasPoint c:LCP9-ST ; p:panelName "North" .
c:LCP9-ST a brick:Status .
@prefix rec: <https://w3id.org/rec#> .
@prefix b: <https://example.org/b/> .
c:AHU7 a brick:AHU ; rdfs:label "AHU 7" ; ref:hasExternalReference [ ref:ifcGlobalID "1AHU7xxxxxxxxxxxxxxxxx"@en ] ; rec:feeds b:VAV1 .
c:AHU7-RAT a brick:Return_Air_Temperature_Sensor ; brick:isPointOf c:AHU7 .
`;

describe('the site profile', () => {
  const { ok, graphql, harness } = graphqlSuite({ prof: SITE });
  const ids = async (query: string) =>
    (Object.values(await ok(query))[0] as Array<{ id: string }>).map((e) => e.id).sort();

  it('lists untyped entities, the namespaces of every entity and the predicates', async () => {
    const profile = await readSiteProfile(storeRunner(harness().services.store), siteGraph('prof'));
    expect(profile.untyped.get('Equipment')).toEqual(['https://example.org/a#LCP1']);
    expect(profile.untyped.get('Point')).toEqual([]);
    expect(profile.namespaces).toEqual(['https://example.org/a#', 'https://example.org/b/']);
    expect(profile.predicates?.has('https://example.org/props#controllerName')).toBe(true);
    expect(profile.plainIfcIds).toBe(true);
    expect(profile.tags).toEqual(new Map([['https://example.org/a#LCP1', 'hp']]));
  });

  it('answers ids, untyped entities and properties as the graph says', async () => {
    expect(await ids('{ equipment(siteId: "prof") { id } }')).toEqual(['AHU1', 'LCP1', 'VAV1']);
    expect(await ids('{ equipment(siteId: "prof", id: "VAV1") { id } }')).toEqual(['VAV1']);
    expect(await ids('{ equipment(siteId: "prof", hasProperty: "controllerName") { id } }')).toEqual(['AHU1', 'VAV1']);
    expect(await ids('{ equipment(siteId: "prof", hasProperty: "area", propertyValue: "12") { id } }')).toEqual([
      'VAV1',
    ]);
    expect(await ids('{ point(siteId: "prof", equipmentId: "AHU1") { id } }')).toEqual(['SAT']);
    const clicked = await graphql(
      '{ entityByIfcId(siteId: "prof", ifcId: "1AHU1xxxxxxxxxxxxxxxxx") { ... on Equipment { id } } }',
    );
    expect(clicked.data).toEqual({ entityByIfcId: { id: 'AHU1' } });
  });

  it('sees a merge: an entity in a new namespace, a new untyped entity, a new predicate', async () => {
    const merged = await harness().fetch('/api/v1/sites/prof/graph', {
      method: 'POST',
      headers: { 'content-type': 'text/turtle' },
      body: MERGED,
    });
    expect(merged.status).toBe(200);
    expect(await ids('{ equipment(siteId: "prof") { id } }')).toEqual(['AHU1', 'AHU7', 'LCP1', 'LCP9', 'VAV1']);
    expect(await ids('{ equipment(siteId: "prof", id: "LCP9") { id } }')).toEqual(['LCP9']);
    expect(await ids('{ equipment(siteId: "prof", hasProperty: "panelName") { id } }')).toEqual(['LCP9']);
    // A GlobalId with a language tag: no longer every GlobalId is a plain string, and it is still found.
    const clicked = await graphql(
      '{ entityByIfcId(siteId: "prof", ifcId: "1AHU7xxxxxxxxxxxxxxxxx") { ... on Equipment { id } } }',
    );
    expect(clicked.data).toEqual({ entityByIfcId: { id: 'AHU7' } });
    // rec:feeds and brick:isPointOf were in no document before the merge.
    const ahu = await graphql(
      '{ equipment(siteId: "prof", id: "AHU7") { points { id } feeds { id } downstream { id } } }',
    );
    expect(ahu.data).toEqual({
      equipment: [{ points: [{ id: 'AHU7-RAT' }], feeds: [{ id: 'VAV1' }], downstream: [{ id: 'VAV1' }] }],
    });
    expect(await ids('{ point(siteId: "prof", equipmentId: "AHU7") { id } }')).toEqual(['AHU7-RAT']);
  });

  it('sees a replace: what the graph no longer holds is not found', async () => {
    const replaced = await harness().fetch('/api/v1/sites/prof/graph', {
      method: 'PUT',
      headers: { 'content-type': 'text/turtle' },
      body: MERGED,
    });
    expect(replaced.status).toBe(200);
    expect(await ids('{ equipment(siteId: "prof") { id } }')).toEqual(['AHU7', 'LCP9']);
    expect(await ids('{ equipment(siteId: "prof", id: "VAV1") { id } }')).toEqual([]);
    expect(await ids('{ equipment(siteId: "prof", hasProperty: "controllerName") { id } }')).toEqual([]);
  });
});
