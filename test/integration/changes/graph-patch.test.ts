// PATCH /api/v1/sites/{id}/graph: a SPARQL 1.1 Update or an RDF Patch changes the site's graph by
// the triple, all or nothing, confined to the site's graph; every change is a version, and a write
// with If-Match naming another version than the graph's is refused (412) with nothing changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, exportTriples, fetchAs, jsonBody, type CreatedKey } from '../../support/api-client.ts';
import { createHarness, onEmbeddedStore, type Harness } from '../../support/harness.ts';

const EX = 'https://example.org/patch#';
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const BRICK = 'https://brickschema.org/schema/Brick#';
const nt = (s: string, label: string) => `<${EX}${s}> <${LABEL}> "${label}" .`;

const MODEL = `@prefix ex: <${EX}> .
@prefix brick: <${BRICK}> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:ahu a brick:AHU ; rdfs:label "AHU" ; brick:feeds ex:vav1, ex:vav2 .
ex:vav1 a brick:VAV ; rdfs:label "VAV 1" .
ex:vav2 a brick:VAV ; rdfs:label "VAV 2" .
`;

let h: Harness;
let writer: CreatedKey;
let reader: CreatedKey;

/** Sends a change to the site's graph. */
const patch = (site: string, type: string, body: string, headers: Record<string, string> = {}, query = '') =>
  fetchAs(h, writer.key)(`/api/v1/sites/${site}/graph${query}`, {
    method: 'PATCH',
    headers: { 'content-type': type, ...headers },
    body,
  });
const update = (site: string, text: string, headers?: Record<string, string>, query?: string) =>
  patch(site, 'application/sparql-update', text, headers, query);

const put = (site: string, body: string) =>
  fetchAs(h, writer.key)(`/api/v1/sites/${site}/graph`, {
    method: 'PUT',
    headers: { 'content-type': 'text/turtle' },
    body,
  });

beforeAll(async () => {
  h = await createHarness({ sites: { demo: MODEL } });
  for (const id of ['p', 'q', 'races', 'strict', 'other', 'hist']) {
    const res = await h.fetch('/api/v1/sites/', jsonBody('POST', { id, name: id }));
    if (res.status !== 201) throw new Error(`creating ${id}: ${res.status}`);
  }
  writer = await createKey(h, { name: 'writer', sites: ['p', 'q', 'races', 'strict', 'hist'], write: true });
  reader = await createKey(h, { name: 'reader', sites: ['p'], write: false });
});
afterAll(async () => {
  await h?.close();
});

describe('SPARQL 1.1 Update', () => {
  beforeAll(async () => {
    expect((await put('p', MODEL)).status).toBe(200);
  });

  it('INSERT DATA and DELETE DATA in one request change the triples they name, and answer the version', async () => {
    const res = await update(
      'p',
      `PREFIX ex: <${EX}> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
       DELETE DATA { ex:vav1 rdfs:label "VAV 1" } ;
       INSERT DATA { ex:vav1 rdfs:label "VAV-1 (north)" }`,
    );
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ site: 'p', triples: 8, added: 1, removed: 1, entities: 1 });
    expect(res.headers.get('etag')).toBe(`"v${body.version}"`);
    const triples = await exportTriples(h, 'p');
    expect(triples).toContain(nt('vav1', 'VAV-1 (north)'));
    expect(triples).not.toContain(nt('vav1', 'VAV 1'));
  });

  it('DELETE/INSERT … WHERE re-maps what its WHERE finds, reading the ontology too', async () => {
    // Every VAV an AHU feeds (brick:VAV is a subclass of brick:Terminal_Unit in the ontology) gets a new label.
    const res = await update(
      'p',
      `PREFIX ex: <${EX}> PREFIX brick: <${BRICK}> PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
       DELETE { ?v rdfs:label ?old } INSERT { ?v rdfs:label ?new }
       WHERE { ex:ahu brick:feeds ?v . ?v a ?class ; rdfs:label ?old . ?class rdfs:subClassOf brick:Terminal_Unit .
               BIND(CONCAT("fed: ", ?old) AS ?new) }`,
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ added: 2, removed: 2, entities: 2 });
    const triples = await exportTriples(h, 'p');
    expect(triples).toContain(nt('vav1', 'fed: VAV-1 (north)'));
    expect(triples).toContain(nt('vav2', 'fed: VAV 2'));
  });

  it('runs operations in order: a WHERE sees what the operations before it did', async () => {
    const res = await update(
      'p',
      `PREFIX ex: <${EX}> PREFIX brick: <${BRICK}>
       INSERT DATA { ex:vav3 a brick:VAV } ;
       INSERT { ex:ahu brick:feeds ?v } WHERE { ?v a brick:VAV FILTER NOT EXISTS { ex:ahu brick:feeds ?v } }`,
    );
    expect(res.status).toBe(200);
    expect(await exportTriples(h, 'p')).toContain(`<${EX}ahu> <${BRICK}feeds> <${EX}vav3> .`);
  });

  it('DELETE WHERE removes a VAV that was replaced, with every triple about it', async () => {
    const res = await update('p', `PREFIX ex: <${EX}> DELETE WHERE { ex:vav3 ?p ?o } ; DELETE WHERE { ?s ?p ex:vav3 }`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ removed: 2 });
    expect((await exportTriples(h, 'p')).filter((t) => t.includes('vav3'))).toEqual([]);
  });

  it('refuses what reaches outside the site graph, naming the construct, and changes nothing', async () => {
    const before = await exportTriples(h, 'p');
    const refused: Array<[string, RegExp]> = [
      ['LOAD <http://example.org/x.ttl>', /LOAD is refused/],
      ['CLEAR ALL', /CLEAR ALL is refused/],
      ['DROP NAMED', /DROP NAMED is refused/],
      ['CREATE GRAPH <urn:x>', /CREATE is refused/],
      ['COPY DEFAULT TO <urn:x>', /COPY is refused/],
      ['ADD <urn:x> TO DEFAULT', /ADD is refused/],
      ['MOVE <urn:x> TO DEFAULT', /MOVE is refused/],
      [`INSERT DATA { GRAPH <urn:bkg:site:other> { <${EX}x> <${LABEL}> "x" } }`, /GRAPH in INSERT DATA is refused/],
      [`WITH <urn:bkg:site:other> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }`, /WITH <urn:bkg:site:other> is refused/],
      [
        `INSERT { <${EX}x> <${LABEL}> ?o } WHERE { SERVICE <http://example.org/sparql> { ?s ?p ?o } }`,
        /SERVICE is refused/,
      ],
      [
        `INSERT { <${EX}x> <${LABEL}> ?o } WHERE { GRAPH <urn:bkg:site:other> { ?s ?p ?o } }`,
        /GRAPH <urn:bkg:site:other> is refused/,
      ],
      [`DELETE { ?s ?p ?o } USING <urn:bkg:site:other> WHERE { ?s ?p ?o }`, /USING is refused/],
      ['SELECT * WHERE { ?s ?p ?o }', /not an update/],
      ['INSERT DATA { <a> <b> ', /not valid SPARQL 1.1/],
    ];
    for (const [text, message] of refused) {
      const res = await update('p', text);
      expect(res.status, text).toBe(400);
      expect((await res.json()).detail, text).toMatch(message);
    }
    expect(await exportTriples(h, 'p')).toEqual(before);
  });

  it('CLEAR DEFAULT empties the graph, as a version that keeps what it removed', async () => {
    expect((await put('q', MODEL)).status).toBe(200);
    const res = await update('q', 'CLEAR DEFAULT');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ triples: 0, removed: 8 });
    expect(await exportTriples(h, 'q')).toEqual([]);
  });
});

describe('RDF Patch', () => {
  it('applies D and A rows, PA prefixes and transactions; an aborted transaction changes nothing', async () => {
    expect((await put('q', MODEL)).status).toBe(200);
    const res = await patch(
      'q',
      'application/rdf-patch',
      [
        'H id <uuid:0f1e0d6c-0000-4000-8000-000000000000> .',
        'TX .',
        `PA ex: <${EX}> .`,
        `D ex:vav2 <${LABEL}> "VAV 2" .`,
        `A ex:vav2 <${LABEL}> "VAV 2 (south)" .`,
        'TC .',
        'TX .',
        `A ex:never <${LABEL}> "aborted" .`,
        'TA .',
      ].join('\n'),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ added: 1, removed: 1 });
    const triples = await exportTriples(h, 'q');
    expect(triples).toContain(nt('vav2', 'VAV 2 (south)'));
    expect(triples.some((t) => t.includes('never'))).toBe(false);
  });

  it('refuses a row naming a graph, or a row that is not one, with its line', async () => {
    const quad = await patch('q', 'application/rdf-patch', `TX .\nA <${EX}a> <${LABEL}> "a" <urn:g> .\nTC .`);
    expect(quad.status).toBe(400);
    expect(await quad.json()).toMatchObject({ line: 2 });
    const bad = await patch('q', 'application/rdf-patch', `TX .\nX <${EX}a> <${LABEL}> "a" .\nTC .`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).detail).toMatch(/line 2/);
  });
});

describe('who may change a graph', () => {
  it('takes a write key only; a read key is 403, the demo site 403, and another media type 415', async () => {
    const text = `INSERT DATA { <${EX}x> <${LABEL}> "x" }`;
    const asReader = await fetchAs(h, reader.key)('/api/v1/sites/p/graph', {
      method: 'PATCH',
      headers: { 'content-type': 'application/sparql-update' },
      body: text,
    });
    expect(asReader.status).toBe(403);
    const anonymous = await fetchAs(h, null)('/api/v1/sites/p/graph', {
      method: 'PATCH',
      headers: { 'content-type': 'application/sparql-update' },
      body: text,
    });
    expect(anonymous.status).toBe(401);
    expect(
      (
        await h.fetch('/api/v1/sites/demo/graph', {
          method: 'PATCH',
          headers: { 'content-type': 'application/sparql-update' },
          body: text,
        })
      ).status,
    ).toBe(403);
    expect((await patch('p', 'text/turtle', text)).status).toBe(415);
    // Another tenant's site is not even named to a key that may not read it.
    expect((await update('other', text)).status).toBe(404);
  });
});

describe('all or nothing', () => {
  it('a failing operation after others undoes what they did', async () => {
    expect((await put('q', MODEL)).status).toBe(200);
    const before = await exportTriples(h, 'q');
    // The first operation is sent before the second's WHERE is read; the second adds to a blank node it found, which is refused.
    const res = await update(
      'q',
      `PREFIX ex: <${EX}>
       INSERT DATA { ex:vav1 <${LABEL}> "first" . ex:vav1 ex:has [ ex:v "1" ] } ;
       INSERT { ?b ex:w "2" } WHERE { ex:vav1 ex:has ?b }`,
    );
    expect(res.status).toBe(400);
    expect((await res.json()).detail).toMatch(/blank node/);
    expect(await exportTriples(h, 'q')).toEqual(before);
  });

  // The quota of triples is the embedded store's (docs/configuration.md).
  it.runIf(onEmbeddedStore())(
    'past the site’s quota of triples nothing changes, 413 QUOTA_EXCEEDED (only on the embedded store)',
    async () => {
      const small = await createHarness({ sites: { s: MODEL }, env: { BKG_SITE_QUOTA_TRIPLES: '9' } });
      try {
        const res = await small.fetch('/api/v1/sites/s/graph', {
          method: 'PATCH',
          headers: { 'content-type': 'application/sparql-update' },
          body: `INSERT DATA { <${EX}a> <${LABEL}> "one" . <${EX}b> <${LABEL}> "two" }`,
        });
        expect(res.status).toBe(413);
        expect((await res.json()).code).toBe('QUOTA_EXCEEDED');
        expect(await exportTriples(small, 's')).toHaveLength(8);
      } finally {
        await small.close();
      }
    },
  );
});

describe('versions and If-Match', () => {
  it('two writers on the same version: one wins, the other gets 412 and changes nothing', async () => {
    expect((await put('races', MODEL)).status).toBe(200);
    const read = await fetchAs(h, writer.key)('/api/v1/sites/races/graph', { headers: { accept: 'text/turtle' } });
    const tag = read.headers.get('etag')!;
    expect(tag).toMatch(/^"v\d+"$/);
    const [first, second] = await Promise.all([
      update('races', `INSERT DATA { <${EX}a> <${LABEL}> "first" }`, { 'if-match': tag }),
      update('races', `INSERT DATA { <${EX}a> <${LABEL}> "second" }`, { 'if-match': tag }),
    ]);
    expect([first.status, second.status].sort()).toEqual([200, 412]);
    const loser = first.status === 412 ? first : second;
    expect((await loser.json()).code).toBe('PRECONDITION_FAILED');
    const labels = (await exportTriples(h, 'races')).filter((t) => t.startsWith(`<${EX}a>`));
    expect(labels).toHaveLength(1);
    // A PUT with a stale tag is refused too, and the graph stays.
    const stale = await fetchAs(h, writer.key)('/api/v1/sites/races/graph', {
      method: 'PUT',
      headers: { 'content-type': 'text/turtle', 'if-match': tag },
      body: MODEL,
    });
    expect(stale.status).toBe(412);
    expect((await exportTriples(h, 'races')).filter((t) => t.startsWith(`<${EX}a>`))).toEqual(labels);
  });

  it('a GraphQL answer names the version of each site it read, as the ETag of an export does', async () => {
    const ask = () => h.graphql('{ p: equipmentCount(siteId: "p") q: equipmentCount(siteId: "q") }');
    const before = (await ask()).extensions as { versions: Record<string, number> };
    const tag = (site: string) =>
      fetchAs(h, writer.key)(`/api/v1/sites/${site}/graph`, { headers: { accept: 'application/n-triples' } }).then(
        (r) => r.headers.get('etag'),
      );
    expect(await tag('p')).toBe(`"v${before.versions.p}"`);
    expect(await tag('q')).toBe(`"v${before.versions.q}"`);
    expect((await update('p', `INSERT DATA { <${EX}x> <${LABEL}> "x" }`)).status).toBe(200);
    expect((await ask()).extensions).toEqual({ versions: { p: before.versions.p! + 1, q: before.versions.q } });
  });

  it('an empty PUT is refused; DELETE …/graph empties the graph', async () => {
    expect((await put('races', '')).status).toBe(400);
    expect((await exportTriples(h, 'races')).length).toBeGreaterThan(0);
    const res = await fetchAs(h, writer.key)('/api/v1/sites/races/graph', { method: 'DELETE' });
    expect(res.status).toBe(200);
    expect(await exportTriples(h, 'races')).toEqual([]);
  });
});

describe('?strict=1', () => {
  it('refuses a change that would leave a touched entity invalid, and changes nothing', async () => {
    expect((await put('strict', MODEL)).status).toBe(200);
    const before = await exportTriples(h, 'strict');
    // A VAV that feeds a literal breaks brick:feeds' shape.
    const res = await update('strict', `INSERT DATA { <${EX}vav1> <${BRICK}feeds> "nowhere" }`, {}, '?strict=1');
    expect(res.status).toBe(400);
    expect((await res.json()).code).toBe('MODEL_INVALID');
    expect(await exportTriples(h, 'strict')).toEqual(before);
  });
});

describe('history: versions, diff, export of a version, rollback', () => {
  const get = (path: string, accept = 'application/json') =>
    fetchAs(h, writer.key)(`/api/v1/sites/hist${path}`, { headers: { accept } });

  it('records every change, newest first, with who made it, how and why', async () => {
    expect((await put('hist', MODEL)).status).toBe(200);
    await update('hist', `INSERT DATA { <${EX}vav1> <${LABEL}> "renamed" }`, {}, '?message=commissioning');
    const res = await get('/graph/versions');
    expect(res.status).toBe(200);
    const { latest, items } = await res.json();
    expect(res.headers.get('etag')).toBe(`"v${latest}"`);
    expect(items.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(items[0]).toMatchObject({
      version: 2,
      parent: 1,
      via: 'patch',
      message: 'commissioning',
      by: { kind: 'key', id: writer.id, name: 'writer' },
      added: 1,
      removed: 0,
      entities: 1,
      triples: 9,
      kept: true,
    });
    // The load is a version too, its change worked out (the graph was empty).
    expect(items[1]).toMatchObject({ version: 1, parent: null, via: 'put', added: 8, removed: 0, kept: true });
    expect(JSON.stringify(items)).not.toContain(writer.key);
    expect(await (await get('/graph/versions/1')).json()).toMatchObject({ version: 1, via: 'put' });
    expect((await get('/graph/versions/99')).status).toBe(404);
  });

  it('a diff as RDF Patch, applied with PATCH to a copy of the older version, gives the newer', async () => {
    await update('hist', `PREFIX ex: <${EX}> DELETE WHERE { ex:vav2 ?p ?o } ; DELETE WHERE { ?s ?p ex:vav2 }`);
    // A reload that changes one label: its version keeps just that change.
    await put(
      'hist',
      `${MODEL.replace('"VAV 1"', '"VAV one"').replace(', ex:vav2', '').replace('ex:vav2 a brick:VAV ; rdfs:label "VAV 2" .\n', '')}`,
    );
    const latest = (await (await get('/graph/versions')).json()).latest;
    const diff = await get(`/graph/diff?from=1&to=${latest}`, 'application/rdf-patch');
    expect(diff.status).toBe(200);
    expect(diff.headers.get('content-type')).toMatch(/application\/rdf-patch/);
    const copy = await (await get('/graph?version=1', 'application/n-triples')).text();
    expect((await get(`/graph?version=1`, 'application/n-triples')).headers.get('etag')).toBe('"v1"');
    expect(await put('q', copy).then((r) => r.status)).toBe(200);
    expect((await patch('q', 'application/rdf-patch', await diff.text())).status).toBe(200);
    expect(await exportTriples(h, 'q')).toEqual(await exportTriples(h, 'hist'));
    // The summary a reviewer reads.
    const summary = await (await get(`/graph/diff?from=1&to=${latest}`)).json();
    expect(summary.summary).toMatchObject({
      entitiesRemoved: [`${EX}vav2`],
      relationsRemoved: [{ subject: `${EX}ahu`, predicate: `${BRICK}feeds`, object: `${EX}vav2` }],
      labelsChanged: expect.arrayContaining([{ entity: `${EX}vav1`, from: 'VAV 1', to: 'VAV one' }]),
    });
  });

  it('rollback makes a new version equal to an older one, and undoes a bad load', async () => {
    const good = (await (await get('/graph/versions')).json()).latest;
    const before = await exportTriples(h, 'hist');
    expect((await put('hist', `<${EX}oops> <${LABEL}> "a bad load" .`)).status).toBe(200);
    const res = await fetchAs(h, writer.key)('/api/v1/sites/hist/graph/rollback', jsonBody('POST', { to: good }));
    expect(res.status).toBe(200);
    const version = await res.json();
    expect(version).toMatchObject({
      version: good + 2,
      parent: good + 1,
      via: 'rollback',
      message: `rollback to version ${good}`,
    });
    expect(await exportTriples(h, 'hist')).toEqual(before);
    // The diff of the rollback's version against the good one is empty.
    expect(await (await get(`/graph/diff?from=${good}&to=${good + 2}`)).json()).toMatchObject({ added: 0, removed: 0 });
  });
});

describe('retention', () => {
  it('keeps the changes of the newest versions only; older ones keep their record, and nothing reaches across them', async () => {
    const kept = await createHarness({
      sites: { r: MODEL },
      env: { BKG_HISTORY_KEEP_VERSIONS: '2', BKG_HISTORY_KEEP_DAYS: '30' },
    });
    try {
      const change = (n: number) =>
        kept.fetch('/api/v1/sites/r/graph', {
          method: 'PATCH',
          headers: { 'content-type': 'application/sparql-update' },
          body: `INSERT DATA { <${EX}n${n}> <${LABEL}> "${n}" }`,
        });
      for (let n = 1; n <= 4; n++) expect((await change(n)).status).toBe(200);
      const { latest, items } = await (await kept.fetch('/api/v1/sites/r/graph/versions')).json();
      expect(items.map((v: { kept: boolean }) => v.kept)).toEqual(items.map((_: unknown, i: number) => i < 2));
      expect((await kept.fetch(`/api/v1/sites/r/graph/diff?from=${latest - 2}&to=${latest}`)).status).toBe(200);
      const across = await kept.fetch(`/api/v1/sites/r/graph/diff?from=${latest - 3}&to=${latest}`);
      expect(across.status).toBe(409);
      expect((await across.json()).detail).toMatch(/not kept/);
      const rollback = await kept.fetch('/api/v1/sites/r/graph/rollback', jsonBody('POST', { to: latest - 3 }));
      expect(rollback.status).toBe(409);
    } finally {
      await kept.close();
    }
  });
});
