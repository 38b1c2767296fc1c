// Loading a site's graph over REST: PUT replaces, POST merges, GET exports. Bodies in Turtle,
// N-Triples, N-Quads (default graph only: a quad naming another graph writes nothing anywhere) or
// JSON-LD by Content-Type (415 otherwise); exports in Turtle or N-Triples by Accept (406 otherwise).
// A syntax error answers 400 with line and column and leaves the graph as it was. Bodies stream:
// a ~50 MB upload does not sit in memory, and BKG_MAX_GRAPH_UPLOAD_BYTES answers 413.
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Parser } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { canonicalTriples, exportTriples, jsonBody } from '../../support/api-client.ts';
import { curl, type CurlAnswer } from '../../support/curl.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { selectQuery } from '../../support/select-query.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/small/${name}.ttl`, import.meta.url), 'utf8');

const EX = 'https://example.org/load#';
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
/** One N-Triples line: `<EX+s> rdfs:label "label"`. */
const nt = (s: string, label: string) => `<${EX}${s}> <${LABEL}> "${label}" .`;

let h: Harness;
beforeAll(async () => {
  // Loads are what this file checks: on the store's two threads, as a service starts with.
  h = await createHarness({
    sites: { alpha: fixture('tenant-a'), beta: fixture('tenant-b') },
    env: { BKG_STORE_THREADS: '2' },
  });
  for (const id of ['loading', 'quads', 'jsonld', 'broken', 'big']) {
    const res = await h.fetch('/api/v1/sites/', jsonBody('POST', { id, name: id }));
    if (res.status !== 201) throw new Error(`creating ${id}: ${res.status}`);
  }
});
afterAll(async () => {
  await h?.close();
});

/** Sends `body` to the site's graph with `method` (PUT or POST) and Content-Type `type`. */
const load = (siteId: string, method: 'PUT' | 'POST', type: string | undefined, body: string) =>
  h.fetch(`/api/v1/sites/${siteId}/graph`, {
    method,
    headers: type === undefined ? {} : { 'content-type': type },
    body,
  });

describe('PUT replaces and POST merges', () => {
  it('PUT Turtle replaces the graph and answers the triple count', async () => {
    const turtle = `@prefix ex: <${EX}> .\n@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .\nex:a rdfs:label "A" .\nex:b rdfs:label "B" .\nex:c rdfs:label "C" .\n`;
    const res = await load('loading', 'PUT', 'text/turtle', turtle);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toMatchObject({ site: 'loading', triples: 3, bytes: Buffer.byteLength(turtle) });
    expect(typeof body.seconds).toBe('number');
    expect(await exportTriples(h, 'loading')).toEqual([nt('a', 'A'), nt('b', 'B'), nt('c', 'C')].sort());

    const again = await load('loading', 'PUT', 'text/turtle', `@prefix ex: <${EX}> .\nex:d <${LABEL}> "D" .\n`);
    expect(await again.json()).toMatchObject({ triples: 1 });
    expect(await exportTriples(h, 'loading')).toEqual([nt('d', 'D')]);
  });

  it('POST N-Triples merges into the graph; the count is of the whole graph after the merge', async () => {
    const res = await load(
      'loading',
      'POST',
      'application/n-triples',
      [nt('d', 'D'), nt('e', 'E'), nt('f', 'F')].join('\n'),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ site: 'loading', triples: 3 });
    expect(await exportTriples(h, 'loading')).toEqual([nt('d', 'D'), nt('e', 'E'), nt('f', 'F')]);
  });

  it('PUT N-Triples replaces what POST merged', async () => {
    const res = await load('loading', 'PUT', 'application/n-triples', nt('g', 'G'));
    expect(await res.json()).toMatchObject({ triples: 1 });
    expect(await exportTriples(h, 'loading')).toEqual([nt('g', 'G')]);
  });

  it('leaves every other site untouched', async () => {
    const alpha = await exportTriples(h, 'alpha');
    await load('loading', 'PUT', 'text/turtle', fixture('tenant-b'));
    await load('loading', 'POST', 'text/turtle', fixture('tenant-a'));
    expect(await exportTriples(h, 'alpha')).toEqual(alpha);
    expect(await exportTriples(h, 'alpha')).toEqual(
      canonicalTriples(await h.services.store.exportGraph('urn:bkg:site:alpha', 'application/n-triples')),
    );
  });

  it('accepts a charset parameter and the application/x-turtle alias', async () => {
    expect(
      (await load('loading', 'PUT', 'text/turtle; charset=utf-8', `<${EX}h> <${LABEL}> "Hähnchen" .`)).status,
    ).toBe(200);
    expect(await exportTriples(h, 'loading')).toEqual([nt('h', 'Hähnchen')]);
    expect((await load('loading', 'POST', 'application/x-turtle', `<${EX}i> <${LABEL}> "I" .`)).status).toBe(200);
    expect(await exportTriples(h, 'loading')).toEqual([nt('h', 'Hähnchen'), nt('i', 'I')]);
  });
});

describe('N-Quads: only the default graph is taken', () => {
  const named = ['urn:bkg:site:beta', 'urn:bkg:site:quads', 'urn:bkg:ontology', 'urn:bkg:site:nowhere'];
  const body = [
    `<${EX}q0> <${LABEL}> "default" .`,
    ...named.map((graph, i) => `<${EX}q${i + 1}> <${LABEL}> "into ${graph}" <${graph}> .`),
    `<${EX}q0> <${LABEL}> "default, second" .`,
  ].join('\n');
  const strays = named.map((_, i) => `<${EX}q${i + 1}>`);

  /** Graphs (and the default graph) that hold a triple about one of the stray subjects. */
  const whereStraysAre = async () =>
    h.services.store.select(
      selectQuery(
        `SELECT DISTINCT ?g WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } FILTER(?s IN (${strays.join(', ')})) }`,
      ),
    );

  it.each(['PUT', 'POST'] as const)(
    '%s writes the default-graph triples and no quad naming a graph, anywhere',
    async (method) => {
      const beta = await exportTriples(h, 'beta');
      const ontology = await h.services.store.countTriples('urn:bkg:ontology');
      const res = await load('quads', method, 'application/n-quads', body);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ site: 'quads', triples: 2 });
      expect(await exportTriples(h, 'quads')).toEqual([nt('q0', 'default'), nt('q0', 'default, second')]);
      expect(await exportTriples(h, 'beta')).toEqual(beta);
      expect(await h.services.store.countTriples('urn:bkg:ontology')).toBe(ontology);
      expect(await whereStraysAre()).toEqual([]);
      const graphql = await h.graphql('{ building(siteId: "beta") { name } }');
      expect(graphql).toEqual({
        data: { building: [{ name: 'Beta Building' }] },
        extensions: { versions: { beta: 0 } },
      });
    },
  );
});

describe('JSON-LD', () => {
  const context = { '@context': { ex: EX, label: `http://www.w3.org/2000/01/rdf-schema#label` } };

  it('PUT application/ld+json loads the default graph', async () => {
    const doc = {
      ...context,
      '@graph': [
        { '@id': 'ex:j1', label: 'J1' },
        { '@id': 'ex:j2', label: 'J2' },
      ],
    };
    const res = await load('jsonld', 'PUT', 'application/ld+json', JSON.stringify(doc));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ site: 'jsonld', triples: 2 });
    expect(await exportTriples(h, 'jsonld')).toEqual([nt('j1', 'J1'), nt('j2', 'J2')]);
  });

  it("POST of a document naming another site's graph writes nothing there", async () => {
    const beta = await exportTriples(h, 'beta');
    const doc = [
      { ...context, '@id': 'urn:bkg:site:beta', '@graph': [{ '@id': 'ex:intruder', label: 'Intruder' }] },
      { ...context, '@id': 'ex:j3', label: 'J3' },
    ];
    const res = await load('jsonld', 'POST', 'application/ld+json', JSON.stringify(doc));
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ triples: 3 });
    expect(await exportTriples(h, 'jsonld')).toEqual([nt('j1', 'J1'), nt('j2', 'J2'), nt('j3', 'J3')]);
    expect(await exportTriples(h, 'beta')).toEqual(beta);
  });
});

describe('Content-Type', () => {
  it.each([
    ['text/plain', 'text/plain'],
    ['application/json', 'application/json'],
    ['application/rdf+xml', 'application/rdf+xml'],
    ['no Content-Type', undefined],
  ])('%s answers 415 and changes nothing', async (_name, type) => {
    const before = await exportTriples(h, 'alpha');
    for (const method of ['PUT', 'POST'] as const) {
      const res = await load('alpha', method, type, `<${EX}x> <${LABEL}> "X" .`);
      expect(res.status, method).toBe(415);
      expect(await res.json()).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    expect(await exportTriples(h, 'alpha')).toEqual(before);
  });
});

describe('GET exports by Accept', () => {
  const exportAs = (accept: string) => h.fetch('/api/v1/sites/alpha/graph', { headers: { accept } });
  const parse = (text: string, format: string) =>
    new Parser({ format }).parse(text).map((q) => `${q.subject.id} ${q.predicate.id} ${q.object.id}`);

  it('answers Turtle for text/turtle, with every triple of the graph', async () => {
    const res = await exportAs('text/turtle');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/turtle/);
    expect(parse(await res.text(), 'text/turtle')).toHaveLength(
      await h.services.store.countTriples('urn:bkg:site:alpha'),
    );
  });

  it('answers N-Triples for application/n-triples', async () => {
    const res = await exportAs('application/n-triples');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/n-triples/);
    const text = await res.text();
    expect(parse(text, 'application/n-triples')).toHaveLength(
      await h.services.store.countTriples('urn:bkg:site:alpha'),
    );
    expect(text).toContain('"Alpha Building"');
  });

  it('honours preferences and wildcards', async () => {
    expect((await exportAs('application/n-triples;q=1, text/turtle;q=0.5')).headers.get('content-type')).toMatch(
      /^application\/n-triples/,
    );
    expect((await exportAs('text/turtle;q=0.2, application/n-triples;q=0.9')).headers.get('content-type')).toMatch(
      /^application\/n-triples/,
    );
    expect((await exportAs('*/*')).headers.get('content-type')).toMatch(/^text\/turtle/);
    expect((await exportAs('text/*')).headers.get('content-type')).toMatch(/^text\/turtle/);
  });

  it.each(['application/json', 'application/rdf+xml', 'application/ld+json', 'text/html'])(
    'answers 406 for Accept: %s',
    async (accept) => {
      const res = await exportAs(accept);
      expect(res.status).toBe(406);
      expect(await res.json()).toMatchObject({ code: 'NOT_ACCEPTABLE' });
    },
  );

  it('exports an empty graph as an empty document', async () => {
    const created = await h.fetch('/api/v1/sites/', jsonBody('POST', { id: 'empty', name: 'Empty' }));
    expect(created.status).toBe(201);
    const res = await h.fetch('/api/v1/sites/empty/graph', { headers: { accept: 'application/n-triples' } });
    expect(res.status).toBe(200);
    expect((await res.text()).trim()).toBe('');
  });
});

describe('Turtle exports declare the prefixes the model had', () => {
  const turtleOf = async (siteId: string) =>
    (await h.fetch(`/api/v1/sites/${siteId}/graph`, { headers: { accept: 'text/turtle' } })).text();
  const MODEL = `@prefix hq: <https://example.org/hq#> .
@prefix brick: <https://brickschema.org/schema/Brick#> .
@prefix unused: <https://example.org/unused#> .
hq:AHU1 a brick:AHU ; brick:feeds hq:VAV1 .
`;

  it("uses the prefixes of the site's last Turtle load: a replace sets them, a merge adds to them", async () => {
    expect((await h.fetch('/api/v1/sites/', jsonBody('POST', { id: 'prefixed', name: 'Prefixed' }))).status).toBe(201);
    expect((await load('prefixed', 'PUT', 'text/turtle', MODEL)).status).toBe(200);
    const text = await turtleOf('prefixed');
    expect(text).toContain('@prefix hq: <https://example.org/hq#>.');
    expect(text).toContain('@prefix brick: <https://brickschema.org/schema/Brick#>.');
    expect(text).toMatch(/^hq:AHU1 /m);
    expect(text).toContain('a brick:AHU');
    expect(text).not.toContain('unused');
    expect(new Parser().parse(text)).toHaveLength(2);

    expect(
      (
        await load(
          'prefixed',
          'POST',
          'text/turtle',
          'PREFIX wing: <https://example.org/wing#>\nwing:VAV2 a <https://brickschema.org/schema/Brick#VAV> .\n',
        )
      ).status,
    ).toBe(200);
    const merged = await turtleOf('prefixed');
    expect(merged).toContain('@prefix hq: <https://example.org/hq#>.');
    expect(merged).toContain('@prefix wing: <https://example.org/wing#>.');
    expect(merged).toMatch(/^wing:VAV2 a brick:VAV.$/m);
  });

  it('a model that declared none (N-Triples, a start-up file) gets the well-known prefixes and site: for its entities', async () => {
    expect(
      (
        await load(
          'prefixed',
          'PUT',
          'application/n-triples',
          '<https://example.org/nt#AHU9> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://brickschema.org/schema/Brick#AHU> .\n',
        )
      ).status,
    ).toBe(200);
    const text = await turtleOf('prefixed');
    expect(text).not.toContain('hq:');
    expect(text).toContain('@prefix brick: <https://brickschema.org/schema/Brick#>.');
    expect(text).toContain('@prefix site: <https://example.org/nt#>.');
    expect(text).toMatch(/^site:AHU9 a brick:AHU.$/m);
    expect(await turtleOf('alpha')).toContain('@prefix brick: <https://brickschema.org/schema/Brick#>.');
  });
});

describe('syntax errors', () => {
  // Each body has valid triples before the error, so a partial load would show in the export. The
  // error is at `token` on line `line`; the column is where that token starts (1-based).
  const cases: Array<[string, string, string, number, string]> = [
    ['Turtle', 'text/turtle', `@prefix ex: <${EX}> .\nex:new1 a ex:Thing .\nex:new2 a ex:Thing ] .\n`, 3, ']'],
    [
      'N-Triples',
      'application/n-triples',
      `${nt('new1', 'ok')}\n${nt('new2', 'ok')}\n<${EX}new3> <${LABEL}> "unterminated\n`,
      3,
      '"unterminated',
    ],
    [
      'N-Quads',
      'application/n-quads',
      `${nt('new1', 'ok')}\n<${EX}new2> <${LABEL}> <${EX}o> <urn:g> <urn:extra> .\n`,
      2,
      '<urn:extra>',
    ],
    [
      'JSON-LD',
      'application/ld+json',
      `[\n  {"@id": "${EX}new1", "${LABEL}": "ok"},\n  {"@id": "${EX}new2", oops}\n]\n`,
      3,
      'oops',
    ],
  ];

  beforeAll(async () => {
    const res = await load('broken', 'PUT', 'text/turtle', fixture('tenant-a'));
    expect(res.status).toBe(200);
  });

  describe.each(['PUT', 'POST'] as const)('%s', (method) => {
    it.each(cases)(
      '%s: 400 with line and column, and the graph exactly as it was',
      async (_name, type, body, line, token) => {
        const column = body.split('\n')[line - 1]!.indexOf(token) + 1;
        expect(column).toBeGreaterThan(0);
        const before = await exportTriples(h, 'broken');
        expect(before.length).toBeGreaterThan(0);
        const res = await load('broken', method, type, body);
        expect(res.status).toBe(400);
        const answer = await res.json();
        expect(answer).toMatchObject({ code: 'BAD_USER_INPUT', line, column });
        expect(answer.detail).toContain(`line ${line}`);
        expect(await exportTriples(h, 'broken')).toEqual(before);
        expect(await h.services.store.countTriples('urn:bkg:site:broken')).toBe(before.length);
      },
    );
  });

  it('a valid body loads after a failed one', async () => {
    const res = await load('broken', 'POST', 'application/n-triples', nt('after', 'After'));
    expect(res.status).toBe(200);
    expect(await exportTriples(h, 'broken')).toContain(nt('after', 'After'));
  });
});

/**
 * A generated N-Triples body of at least `bytes` bytes, produced chunk by chunk as it is sent;
 * `triples()` is how many it holds.
 */
function generatedNTriples(bytes: number): { stream: ReadableStream<Uint8Array>; triples: () => number } {
  const encoder = new TextEncoder();
  let written = 0;
  let triples = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (written >= bytes) {
        controller.close();
        return;
      }
      const lines: string[] = [];
      for (let i = 0; i < 2000; i++, triples++) {
        const n = triples;
        const entity = `<${EX}point-${n}>`;
        lines.push(
          n % 4 === 0
            ? `${entity} <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <https://brickschema.org/schema/Brick#Temperature_Sensor> .`
            : n % 4 === 1
              ? `${entity} <https://brickschema.org/schema/Brick#isPointOf> <${EX}equipment-${n >> 6}> .`
              : `${entity} <${LABEL}> "Point ${n} of equipment ${n >> 6}, floor ${n >> 12}" .`,
        );
      }
      const chunk = encoder.encode(`${lines.join('\n')}\n`);
      written += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return { stream, triples: () => triples };
}

/** A streamed request body (fetch sends it chunked, without a Content-Length). */
const streamed = (method: string, type: string, body: ReadableStream<Uint8Array>) =>
  ({ method, headers: { 'content-type': type }, body, duplex: 'half' }) as RequestInit;

describe('large bodies stream', () => {
  const BODY_BYTES = 50 * 1024 * 1024;
  const MiB = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

  it('loads a ~50 MB N-Triples body without holding it in memory', async () => {
    // Warm the path (worker, parser, spool directory) so the baseline is a running service's.
    expect((await load('big', 'PUT', 'application/n-triples', nt('warm', 'Warm'))).status).toBe(200);
    // The body is sent chunked by curl from a child process, so this process's RSS is the
    // service's alone (test/support/curl.ts).
    const dir = await mkdtemp(join(tmpdir(), 'bkg-big-graph-'));
    const file = join(dir, 'big.nt');
    const body = generatedNTriples(BODY_BYTES);
    await pipeline(Readable.fromWeb(body.stream as never), createWriteStream(file));
    // The body has arrived when the service asks the store to load it.
    const store = h.services.store;
    const replaceGraph = store.replaceGraph.bind(store);
    let sending = true;
    store.replaceGraph = (...args) => {
      sample();
      sending = false;
      return replaceGraph(...args);
    };
    const baseline = process.memoryUsage.rss();
    let peak = baseline;
    let peakWhileSending = baseline;
    const sample = () => {
      const rss = process.memoryUsage.rss();
      peak = Math.max(peak, rss);
      if (sending) peakWhileSending = Math.max(peakWhileSending, rss);
    };
    const sampler = setInterval(sample, 10);
    let sent: CurlAnswer;
    try {
      const headers = [
        '-H',
        `authorization: Bearer ${h.adminKey}`,
        '-H',
        'content-type: application/n-triples',
        '-H',
        'transfer-encoding: chunked',
      ];
      sent = await curl(['-X', 'PUT', ...headers, '-T', file, `${h.url}/api/v1/sites/big/graph`]);
    } finally {
      clearInterval(sampler);
      store.replaceGraph = replaceGraph;
      await rm(dir, { recursive: true, force: true });
    }
    sample();
    expect(sending, 'the store was asked to load the body').toBe(false);
    expect(sent.status, sent.body).toBe(200);
    const answer = JSON.parse(sent.body);
    expect(answer.bytes).toBeGreaterThanOrEqual(BODY_BYTES);
    expect(answer.triples).toBe(body.triples());
    expect(await h.services.store.countTriples('urn:bkg:site:big')).toBe(body.triples());
    console.info(
      `${MiB(answer.bytes)} upload, ${answer.triples} triples, ${answer.seconds} s: RSS ${MiB(baseline)}, ` +
        `+${MiB(peakWhileSending - baseline)} while sending, +${MiB(peak - baseline)} at the peak`,
    );
    // While the body arrives it is spooled to disk: memory must not grow by anything like its size.
    expect(peakWhileSending - baseline).toBeLessThan(answer.bytes);
    // Then the store holds the triples (~510 bytes each with its indexes, measured on the embedded store: about 4× this
    // body), and persisting writes the graph's N-Quads copy (about 3× more, transiently). Before it
    // answers, the load report waits for the site profile every load reads (its scans grow both
    // store threads' heaps: +240 MiB here, on a graph of 388k untyped subjects, work that happened
    // after the answer before the report). Anything that also kept the graph's quads in memory as
    // a whole goes past 14×.
    expect(peak - baseline).toBeLessThan(14 * answer.bytes);
  }, 300_000);
});

describe('BKG_MAX_GRAPH_UPLOAD_BYTES', () => {
  const LIMIT = 4096;
  let small: Harness;
  beforeAll(async () => {
    small = await createHarness({
      sites: { alpha: fixture('tenant-a') },
      env: { BKG_MAX_GRAPH_UPLOAD_BYTES: String(LIMIT) },
    });
  });
  afterAll(async () => {
    await small?.close();
  });

  /** N-Triples of exactly `bytes` bytes. */
  const bodyOf = (bytes: number) => {
    const line = `${nt('pad', '')}\n`;
    const padding = bytes - Buffer.byteLength(line);
    return `${nt('pad', 'x'.repeat(padding))}\n`;
  };

  it('loads a body of exactly the limit', async () => {
    const body = bodyOf(LIMIT);
    expect(Buffer.byteLength(body)).toBe(LIMIT);
    const res = await small.fetch('/api/v1/sites/alpha/graph', {
      method: 'POST',
      headers: { 'content-type': 'application/n-triples' },
      body,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ bytes: LIMIT });
    await small.fetch('/api/v1/sites/alpha/graph', {
      method: 'PUT',
      headers: { 'content-type': 'text/turtle' },
      body: fixture('tenant-a'),
    });
  });

  it('answers 413 for a larger body with a Content-Length, and changes nothing', async () => {
    const before = await exportTriples(small, 'alpha');
    for (const method of ['PUT', 'POST'] as const) {
      const res = await small.fetch('/api/v1/sites/alpha/graph', {
        method,
        headers: { 'content-type': 'application/n-triples' },
        body: bodyOf(LIMIT + 1),
      });
      expect(res.status, method).toBe(413);
      expect(await res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', limit: LIMIT });
    }
    expect(await exportTriples(small, 'alpha')).toEqual(before);
  });

  it('answers 413 for a larger streamed body without a Content-Length, and changes nothing', async () => {
    const before = await exportTriples(small, 'alpha');
    for (const method of ['PUT', 'POST'] as const) {
      const res = await small.fetch(
        '/api/v1/sites/alpha/graph',
        streamed(method, 'application/n-triples', generatedNTriples(256 * 1024).stream),
      );
      expect(res.status, method).toBe(413);
      expect(await res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', limit: LIMIT });
    }
    // The connection the cut-off body came on is not reused: the next requests are answered.
    expect(await exportTriples(small, 'alpha')).toEqual(before);
    expect(
      (
        await small.fetch('/api/v1/sites/alpha/graph', {
          method: 'POST',
          headers: { 'content-type': 'application/n-triples' },
          body: nt('next', 'Next'),
        })
      ).status,
    ).toBe(200);
  });
});
