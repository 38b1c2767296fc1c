// Two replicas on one external SPARQL store and one PostgreSQL: a change made through one is seen
// by the next read through the other, although the other keeps answers in memory (each replica
// reads the latest version from the records); with Redis, the other's followers are told of it.
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { fetchAs, postGraphQL } from '../../support/api-client.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { describeNeeding, requiredEngineUrl } from '../../support/needs.ts';

const EX = 'https://example.org/replicas#';
const BRICK = 'https://brickschema.org/schema/Brick#';
const MODEL = `<${EX}ahu> a <${BRICK}AHU> .\n<${EX}vav1> a <${BRICK}VAV> .\n`;
const EQUIPMENT = `query ($site: String!) { equipment(siteId: $site) { id } }`;

describeNeeding(['BKG_TEST_SPARQL_URL', 'DATABASE_URL', 'REDIS_URL'], 'replicas on a shared store', () => {
  let a: Harness;
  let b: Harness;
  // Sites and a graph namespace of their own: other suites share these engines.
  const site = `replicas-${randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    const gsp = process.env.BKG_TEST_SPARQL_GSP_URL;
    const env = {
      BKG_GRAPH_STORE: 'sparql',
      SPARQL_QUERY_URL: requiredEngineUrl('BKG_TEST_SPARQL_URL'),
      ...(gsp ? { SPARQL_GSP_URL: gsp } : {}),
      SPARQL_GRAPH_NAMESPACE: `urn:bkg:test:${randomUUID()}:`,
      DATABASE_URL: requiredEngineUrl('DATABASE_URL'),
      REDIS_URL: requiredEngineUrl('REDIS_URL'),
      BKG_HISTORY_CHANNEL_PREFIX: `bkg:test:${site}:`,
    };
    a = await createHarness({ sites: { [site]: MODEL }, env });
    b = await createHarness({ sites: {}, env });
  });
  afterAll(async () => {
    await a?.fetch(`/api/v1/sites/${site}`, { method: 'DELETE' });
    await a?.close();
    await b?.close();
  });

  const idsOn = async (h: Harness) => {
    const res = await postGraphQL(h, h.adminKey, EQUIPMENT, { site });
    const body = await res.json();
    return { etag: res.headers.get('etag'), ids: body.data.equipment.map((e: { id: string }) => e.id).sort() };
  };

  it('a change through one replica is seen by the next read through the other, which had kept the answer', async () => {
    const before = await idsOn(b);
    expect(before.ids).toEqual(['ahu', 'vav1']);
    expect(await idsOn(b)).toEqual(before);
    const patched = await fetchAs(a, a.adminKey)(`/api/v1/sites/${site}/graph`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/sparql-update' },
      body: `INSERT DATA { <${EX}vav2> a <${BRICK}VAV> }`,
    });
    expect(patched.status).toBe(200);
    const after = await idsOn(b);
    expect(after.ids).toEqual(['ahu', 'vav1', 'vav2']);
    expect(after.etag).not.toBe(before.etag);
    const stale = await fetchAs(b, b.adminKey)('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', 'if-none-match': before.etag! },
      body: JSON.stringify({ query: EQUIPMENT, variables: { site } }),
    });
    expect(stale.status).toBe(200);
    // The graph's own ETag, read through the other replica, names the new version too.
    const exported = await fetchAs(b, b.adminKey)(`/api/v1/sites/${site}/graph`, {
      headers: { accept: 'application/n-triples' },
    });
    expect(exported.headers.get('etag')).toBe(`"v${(await patched.json()).version}"`);
  });

  it('a follower on one replica is told of a change made through the other', async () => {
    const controller = new AbortController();
    const feed = await fetchAs(b, b.adminKey)(`/api/v1/sites/${site}/graph/changes`, { signal: controller.signal });
    expect(feed.status).toBe(200);
    const reader = (feed.body as ReadableStream<Uint8Array>).getReader();
    try {
      const patched = await fetchAs(a, a.adminKey)(`/api/v1/sites/${site}/graph`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/sparql-update' },
        body: `INSERT DATA { <${EX}vav3> a <${BRICK}VAV> }`,
      });
      const { version } = await patched.json();
      let text = '';
      while (!text.includes('event: version')) {
        const { value, done } = await reader.read();
        if (done) break;
        text += new TextDecoder().decode(value);
      }
      const data = JSON.parse(/data: (.*)/.exec(text.slice(text.indexOf('event: version')))![1]!);
      expect(data).toMatchObject({ site, version, via: 'patch', entities: [{ id: 'vav3', kind: 'Equipment' }] });
    } finally {
      controller.abort();
    }
  });
});
