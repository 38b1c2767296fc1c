// Timeseries ids in every style real models use, and every external reference reachable with its
// fields (docs/brick-mapping.md, `timeseriesId`, `externalReferences`), on
// fixtures/real-models/timeseries-id-styles.ttl and metasys-bacnet-references.ttl. Each answer is
// also compared with a plain SPARQL reference over the fixture (test/support/sparql-reference.ts).
import { describe, expect, it } from 'vitest';
import { graphqlSuite } from '../../support/graphql-suite.ts';
import { realModel } from '../../support/real-model-suite.ts';
import { referenceColumn, referenceStore } from '../../support/sparql-reference.ts';
import { post, postReadings } from '../readings/readings-support.ts';

const STYLES = realModel('timeseries-id-styles');
const METASYS = realModel('metasys-bacnet-references');
const { ok, harness } = graphqlSuite({ ts: STYLES, metasys: METASYS });

type Reference = { uri: string | null; type: string | null; fields: Array<{ name: string; value: string }> };

/** `field` of every point of `site`, keyed by point id. */
async function pointsBy(site: string, selection: string, field: string): Promise<Record<string, any>> {
  const data = await ok(`{ point(siteId: "${site}") { id ${selection} } }`);
  return Object.fromEntries(data.point.map((p: any) => [p.id, p[field]]));
}

/** The timeseries id of every point, as the plain SPARQL reference reads the four styles of docs/brick-mapping.md, `timeseriesId`: `id=timeseriesId`. */
const TIMESERIES_REFERENCE = `SELECT ?pair WHERE {
  ?p a/rdfs:subClassOf* brick:Point .
  { ?p ref:hasExternalReference ?r . ?r ref:hasTimeseriesId ?ts }
  UNION { ?p ref:hasTimeseriesReference ?r . ?r ref:hasTimeseriesId ?ts }
  UNION { ?p brick:timeseries ?r . ?r brick:hasTimeseriesId ?ts }
  UNION { ?p brick:hasTimeseriesId ?ts FILTER(isLiteral(?ts)) }
  BIND(CONCAT(REPLACE(STR(?p), "^.*#", ""), "=", STR(?ts)) AS ?pair)
}`;

/**
 * Every field of every external reference, as the plain SPARQL reference reads them: one line
 * `entity type field=value` per statement of a reference (type "-" when it has none).
 */
const REFERENCE_FIELDS = `SELECT ?line WHERE {
  ?e ref:hasExternalReference|ref:hasTimeseriesReference|brick:timeseries ?r .
  ?r ?p ?v FILTER(?p != rdf:type && !isBlank(?v))
  OPTIONAL { ?r a ?t }
  BIND(CONCAT(REPLACE(STR(?e), "^.*#", ""), " ", COALESCE(REPLACE(STR(?t), "^.*#", ""), "-"), " ", REPLACE(STR(?p), "^.*[#/]", ""), "=", STR(?v)) AS ?line)
}`;

/** The same lines from a GraphQL answer's `externalReferences`, keyed by entity id. */
const fieldLines = (byId: Record<string, Reference[]>): string[] =>
  Object.entries(byId)
    .flatMap(([id, references]) =>
      references.flatMap((r) => r.fields.map((f) => `${id} ${r.type ?? '-'} ${f.name}=${f.value}`)),
    )
    .sort();

describe('Point.timeseriesId in every style', () => {
  it('reads a reference, a timeseries reference, the Brick 1.2 form and a literal stated on the point', async () => {
    const ids = await pointsBy('ts', 'timeseriesId', 'timeseriesId');
    expect(ids).toEqual({ ZAT: 'ts-vav1-zat', SP: 'ts-vav1-sp', FLOW: 'ts-vav1-flow', DMP: 'ts-vav1-dmp', OCC: null });
    const pairs = Object.entries(ids).flatMap(([id, ts]) => (ts === null ? [] : [`${id}=${ts}`]));
    expect(pairs.sort()).toEqual(referenceColumn(referenceStore(STYLES), TIMESERIES_REFERENCE, 'pair'));
  });

  it('is the timeseries reference among references of other kinds, and an untyped reference’s id', async () => {
    const ids = await pointsBy('metasys', 'timeseriesId', 'timeseriesId');
    expect(ids).toEqual({ SAT: 'ts-ahu1-sat', FAN: null, FILTER: 'ts-ahu1-filter' });
    const pairs = Object.entries(ids).flatMap(([id, ts]) => (ts === null ? [] : [`${id}=${ts}`]));
    expect(pairs.sort()).toEqual(referenceColumn(referenceStore(METASYS), TIMESERIES_REFERENCE, 'pair'));
  });

  it('gives currentValue from the readings of a literal timeseries id as of any other', async () => {
    const now = new Date().toISOString();
    await postReadings(harness(), 'ts', [
      { timeseriesId: 'ts-vav1-dmp', timestamp: now, value: 35 },
      { timeseriesId: 'ts-vav1-flow', timestamp: now, value: 120 },
      { timeseriesId: 'ts-vav1-zat', timestamp: now, value: 21.5 },
    ]);
    const values = await pointsBy('ts', 'currentValue { value quality }', 'currentValue');
    expect(values).toEqual({
      ZAT: { value: 21.5, quality: 'good' },
      SP: null,
      FLOW: { value: 120, quality: 'good' },
      DMP: { value: 35, quality: 'good' },
      OCC: null,
    });
  });

  it('describes the point of each style in the REST timeseries history', async () => {
    const start = new Date(Date.now() - 3_600_000).toISOString();
    const res = await harness().fetch(
      '/api/v1/sites/ts/timeseries',
      post({
        timeseriesIds: ['ts-vav1-zat', 'ts-vav1-sp', 'ts-vav1-flow', 'ts-vav1-dmp'],
        start,
        end: new Date(Date.now() + 60_000).toISOString(),
      }),
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.errors).toEqual({});
    expect(body.series.map((s: any) => [s.timeseriesId, s.pointId, s.equipmentId, s.unit]).sort()).toEqual([
      ['ts-vav1-dmp', 'DMP', 'VAV-1', 'PERCENT'],
      ['ts-vav1-flow', 'FLOW', 'VAV-1', 'L-PER-SEC'],
      ['ts-vav1-sp', 'SP', 'VAV-1', 'DEG_C'],
      ['ts-vav1-zat', 'ZAT', 'VAV-1', 'DEG_C'],
    ]);
  });
});

const REFERENCE_SELECTION = 'externalReferences { uri type fields { name value unit } }';

describe('externalReferences', () => {
  it('gives a site-defined Metasys reference and a timeseries reference of one point, each with its fields', async () => {
    const references = await pointsBy('metasys', REFERENCE_SELECTION, 'externalReferences');
    expect(references.SAT).toEqual([
      {
        uri: null,
        type: 'MetasysReference',
        fields: [
          { name: 'hostedAt', value: 'NAE-01', unit: null },
          { name: 'metasysID', value: 'b3f6c1d2-5e4a-5b7c-9d8e-0f1a2b3c4d5e', unit: null },
        ],
      },
      {
        uri: null,
        type: 'TimeseriesReference',
        fields: [{ name: 'hasTimeseriesId', value: 'ts-ahu1-sat', unit: null }],
      },
    ]);
  });

  it('gives a BACnet reference with its object identifier, name and device', async () => {
    const references = await pointsBy('metasys', REFERENCE_SELECTION, 'externalReferences');
    expect(references.FAN).toEqual([
      {
        uri: null,
        type: 'BACnetReference',
        fields: [
          { name: 'object-identifier', value: 'binary-value,12', unit: null },
          { name: 'object-name', value: 'AHU1.SF-S', unit: null },
          { name: 'objectOf', value: 'https://example.org/metasys#NAE-01-device', unit: null },
        ],
      },
    ]);
    expect(references.FILTER).toEqual([
      { uri: null, type: null, fields: [{ name: 'hasTimeseriesId', value: 'ts-ahu1-filter', unit: null }] },
    ]);
  });

  it('gives an equipment’s IFC reference named by an IRI, beside its ifcId', async () => {
    const data = await ok(`{ equipment(siteId: "metasys") { ifcId ${REFERENCE_SELECTION} } }`);
    expect(data.equipment).toEqual([
      {
        ifcId: '2O2Fr$t4X7Zf8NOew3FLOH',
        externalReferences: [
          {
            uri: 'https://example.org/metasys#AHU-1-ifc',
            type: 'IFCReference',
            fields: [
              { name: 'ifcGlobalID', value: '2O2Fr$t4X7Zf8NOew3FLOH', unit: null },
              { name: 'ifcName', value: 'AHU-1 (Air Handling Unit)', unit: null },
            ],
          },
        ],
      },
    ]);
  });

  it('gives every reference of each timeseries style; a literal on the point is a property, not a reference', async () => {
    const references = await pointsBy('ts', REFERENCE_SELECTION, 'externalReferences');
    const historian = 'https://example.org/ts-styles#Historian';
    expect(references).toEqual({
      ZAT: [
        {
          uri: null,
          type: 'TimeseriesReference',
          fields: [
            { name: 'hasTimeseriesId', value: 'ts-vav1-zat', unit: null },
            { name: 'storedAt', value: historian, unit: null },
          ],
        },
      ],
      SP: [
        {
          uri: null,
          type: 'TimeseriesReference',
          fields: [{ name: 'hasTimeseriesId', value: 'ts-vav1-sp', unit: null }],
        },
      ],
      FLOW: [
        {
          uri: null,
          type: null,
          fields: [
            { name: 'hasTimeseriesId', value: 'ts-vav1-flow', unit: null },
            { name: 'storedAt', value: historian, unit: null },
          ],
        },
      ],
      DMP: [],
      OCC: [],
    });
    const dmp = await ok('{ point(siteId: "ts", id: "DMP") { properties { name value } } }');
    expect(dmp.point[0].properties).toContainEqual({ name: 'hasTimeseriesId', value: 'ts-vav1-dmp' });
  });

  it('answers every field of every reference the plain SPARQL reference reads, on points and equipment', async () => {
    for (const [site, turtle] of [
      ['ts', STYLES],
      ['metasys', METASYS],
    ] as const) {
      const data = await ok(
        `{ point(siteId: "${site}") { id ${REFERENCE_SELECTION} } equipment(siteId: "${site}") { id ${REFERENCE_SELECTION} } }`,
      );
      const byId = Object.fromEntries([...data.point, ...data.equipment].map((e: any) => [e.id, e.externalReferences]));
      expect(fieldLines(byId)).toEqual(referenceColumn(referenceStore(turtle), REFERENCE_FIELDS, 'line'));
    }
  });

  it('honours aliases and __typename inside references and their fields, as graphql-js does', async () => {
    const selection = 'refs: externalReferences { __typename kind: type f: fields { __typename n: name } }';
    const direct = await ok(`{ point(siteId: "metasys", id: "FAN") { ${selection} } }`);
    expect(direct.point[0].refs).toEqual([
      {
        __typename: 'ExternalReference',
        kind: 'BACnetReference',
        f: [
          { __typename: 'EntityProperty', n: 'object-identifier' },
          { __typename: 'EntityProperty', n: 'object-name' },
          { __typename: 'EntityProperty', n: 'objectOf' },
        ],
      },
    ]);
    // Introspection beside the root field sends the whole operation through graphql-js's resolvers.
    const viaGraphqlJs = await ok(
      `{ __schema { queryType { name } } point(siteId: "metasys", id: "FAN") { ${selection} } }`,
    );
    expect(viaGraphqlJs.point).toEqual(direct.point);
  });

  it('costs one query per level that selects it, for all the entities of the level', async () => {
    harness().resetRoundTrips();
    await ok(
      `{ equipment(siteId: "metasys") { externalReferences { type } points { externalReferences { type fields { name value } } } } }`,
    );
    expect(harness().roundTrips()).toBe(4);
  });
});
