// What an operator sees of a running service: Prometheus metrics at /metrics (token-protected when
// configured), structured logs with a request id and the client on every line of a request, and
// what an integrator opens in a browser: GraphiQL with examples for the demo site, the published SDL.
import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { Kind, parse } from 'graphql';
import { connectAsync } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/config/config.ts';
import { GRAPHIQL_EXAMPLES } from '../../../src/graphql/graphiql.ts';
import { ADMIN_KEY, createHarness, type Harness } from '../../support/harness.ts';
import { engineUrl, needs } from '../../support/needs.ts';

const METRICS_TOKEN = 'metrics-token-0123456789';
const mqttUrl = engineUrl('BKG_MQTT_URL');
const mqttPrefix = `bkg-ops-${randomBytes(4).toString('hex')}`;

const BUILDING = `
@prefix brick: <https://brickschema.org/schema/Brick#> .
@prefix ref: <https://brickschema.org/schema/Brick/ref#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix : <https://example.org/ops#> .
:AHU-1 a brick:AHU ; rdfs:label "AHU-1" ; brick:hasPoint :SAT .
:SAT a brick:Supply_Air_Temperature_Sensor ; rdfs:label "AHU-1 Supply Air Temp" ;
  ref:hasExternalReference [ a ref:TimeseriesReference ; ref:hasTimeseriesId "ts-sat" ] .
`;

interface LogLine {
  level: number;
  msg: string;
  requestId?: string;
  client?: Record<string, string>;
  [key: string]: unknown;
}

describe('operations: metrics, logs, GraphiQL', () => {
  let h: Harness;
  const lines: LogLine[] = [];
  const raw: string[] = [];

  /** The value of one sample of the current /metrics text (0 when absent). */
  const sample = async (name: string, labels: Record<string, string> = {}): Promise<number> => {
    const text = await (
      await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
    ).text();
    for (const line of text.split('\n')) {
      const match = /^(\w+)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match || match[1] !== name) continue;
      const have = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
      );
      if (Object.entries(labels).every(([k, v]) => have[k] === v)) return Number(match[3]);
    }
    return 0;
  };
  const json = (method: string, body: unknown): RequestInit => ({
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

  beforeAll(async () => {
    h = await createHarness({
      sites: { ops: BUILDING },
      env: {
        BKG_METRICS_TOKEN: METRICS_TOKEN,
        BKG_RATE_LIMIT_ANONYMOUS: '3',
        LOG_LEVEL: 'debug',
        // The demo site, for GraphiQL's examples; without its files and simulator, which this file does not need.
        BKG_DEMO_FIXTURE: `${projectRoot}/fixtures/demo.ttl`,
        BKG_DEMO_FILES: '',
        BKG_DEMO_SIMULATOR: '0',
        ...(mqttUrl ? { BKG_MQTT_URL: mqttUrl, BKG_MQTT_TOPIC_PREFIX: mqttPrefix, BKG_MQTT_SHARE_GROUP: '' } : {}),
      },
      log: {
        write(line: string) {
          raw.push(line);
          lines.push(JSON.parse(line) as LogLine);
        },
      },
    });
  });
  afterAll(() => h?.close());

  describe('/metrics', () => {
    it('answers only the configured bearer token, in Prometheus text format', async () => {
      const none = await fetch(`${h.url}/metrics`);
      expect(none.status).toBe(401);
      expect(none.headers.get('www-authenticate')).toBe('Bearer');
      const wrong = await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${ADMIN_KEY}` } });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      const res = await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/plain');
      const text = await res.text();
      expect(text).toContain('# TYPE bkg_http_requests_total counter');
      expect(text).toContain('process_resident_memory_bytes');
    });

    it('counts requests by route pattern, status and client kind, never by path', async () => {
      const labels = { method: 'GET', route: '/api/v1/sites/:siteId', status: '404', client_kind: 'key' };
      const before = await sample('bkg_http_requests_total', labels);
      await h.fetch('/api/v1/sites/no-such-site-1');
      await h.fetch('/api/v1/sites/no-such-site-2');
      expect(await sample('bkg_http_requests_total', labels)).toBe(before + 2);
      expect(
        await sample('bkg_http_request_duration_seconds_count', {
          method: 'GET',
          route: '/api/v1/sites/:siteId',
          status: '404',
        }),
      ).toBeGreaterThanOrEqual(2);
      expect(await sample('bkg_http_requests_total', { route: 'unmatched', status: '404' })).toBe(0);
      await h.fetch('/no/such/path');
      expect(await sample('bkg_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
      const text = await (
        await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })
      ).text();
      expect(text).not.toContain('no-such-site');
    });

    it('counts GraphQL operations, and errors by code; triplestore queries and their duration', async () => {
      const queries = await sample('bkg_graphql_operations_total', { type: 'query' });
      const notFound = await sample('bkg_graphql_errors_total', { code: 'NOT_FOUND' });
      const invalid = await sample('bkg_graphql_errors_total', { code: 'GRAPHQL_VALIDATION_FAILED' });
      const storeQueries = await sample('bkg_store_queries_total', { store: 'oxigraph', outcome: 'ok' });
      expect((await h.graphql('{ equipment(siteId: "ops") { name points { name } } }')).errors).toBeUndefined();
      await h.graphql('{ equipment(siteId: "nowhere") { name } }');
      await h.graphql('{ equipment(siteId: "ops") { nope } }');
      expect(await sample('bkg_graphql_operations_total', { type: 'query' })).toBe(queries + 2);
      expect(await sample('bkg_graphql_errors_total', { code: 'NOT_FOUND' })).toBe(notFound + 1);
      expect(await sample('bkg_graphql_errors_total', { code: 'GRAPHQL_VALIDATION_FAILED' })).toBe(invalid + 1);
      expect(await sample('bkg_store_queries_total', { store: 'oxigraph', outcome: 'ok' })).toBeGreaterThanOrEqual(
        storeQueries + 2,
      );
      expect(await sample('bkg_store_query_duration_seconds_count', { store: 'oxigraph' })).toBeGreaterThanOrEqual(
        storeQueries + 2,
      );
    });

    it('counts readings stored and refused, and the bytes of accepted uploads', async () => {
      const stored = await sample('bkg_readings_stored_total', { source: 'rest' });
      const rejected = await sample('bkg_readings_rejected_total', { source: 'rest' });
      const now = Date.now();
      const report = await h.fetch(
        '/api/v1/sites/ops/readings',
        json('POST', [
          { timeseriesId: 'ts-sat', timestamp: now - 2000, value: 13 },
          { timeseriesId: 'ts-sat', timestamp: now - 1000, value: 13.5 },
          { timeseriesId: 'ts-sat', timestamp: 'soon', value: 1 },
        ]),
      );
      expect(report.status).toBe(200);
      expect(await sample('bkg_readings_stored_total', { source: 'rest' })).toBe(stored + 2);
      expect(await sample('bkg_readings_rejected_total', { source: 'rest' })).toBe(rejected + 1);

      const graphBytes = await sample('bkg_upload_bytes_total', { kind: 'graph' });
      expect(
        (
          await h.fetch('/api/v1/sites/ops/graph', {
            method: 'PUT',
            headers: { 'content-type': 'text/turtle' },
            body: BUILDING,
          })
        ).status,
      ).toBe(200);
      expect(await sample('bkg_upload_bytes_total', { kind: 'graph' })).toBe(graphBytes + Buffer.byteLength(BUILDING));
      // A refused upload is not counted.
      expect(
        (
          await h.fetch('/api/v1/sites/ops/graph', {
            method: 'PUT',
            headers: { 'content-type': 'text/turtle' },
            body: 'not turtle',
          })
        ).status,
      ).toBe(400);
      expect(await sample('bkg_upload_bytes_total', { kind: 'graph' })).toBe(graphBytes + Buffer.byteLength(BUILDING));

      const fileBytes = await sample('bkg_upload_bytes_total', { kind: 'file' });
      const form = new FormData();
      form.set('site_id', 'ops');
      form.set('category', 'spec-sheet');
      form.set('file', new Blob(['x'.repeat(1234)]), 'sheet.txt');
      expect((await h.fetch('/api/files/', { method: 'POST', body: form })).status).toBe(201);
      expect(await sample('bkg_upload_bytes_total', { kind: 'file' })).toBe(fileBytes + 1234);
    });

    it('counts rate-limit rejections by client kind', async () => {
      const before = await sample('bkg_rate_limit_rejections_total', { client_kind: 'anonymous' });
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await fetch(`${h.url}/graphql?query=%7B__typename%7D`)).status);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(2);
      expect(await sample('bkg_rate_limit_rejections_total', { client_kind: 'anonymous' })).toBe(
        before + statuses.filter((s) => s === 429).length,
      );
      // Scrapes are not rate-limited, whoever sends them.
      for (let i = 0; i < 5; i++)
        expect(
          (await fetch(`${h.url}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status,
        ).toBe(200);
    });

    it.skipIf(!mqttUrl)(`shows the MQTT connection and counts bad messages ${needs('BKG_MQTT_URL')}`, async () => {
      await h.services.live.mqtt!.ready();
      expect(await sample('bkg_mqtt_connected')).toBe(1);
      const bad = await sample('bkg_mqtt_bad_messages_total');
      const publisher = await connectAsync(mqttUrl!);
      try {
        await publisher.publishAsync(`${mqttPrefix}/ops/readings`, 'not json', { qos: 1 });
        await publisher.publishAsync(
          `${mqttPrefix}/ops/readings`,
          JSON.stringify([
            { timeseriesId: 'ts-sat', timestamp: Date.now(), value: 1 },
            { timeseriesId: 'ts-sat', timestamp: 'x', value: 1 },
          ]),
          { qos: 1 },
        );
      } finally {
        await publisher.endAsync();
      }
      await expect.poll(() => sample('bkg_mqtt_bad_messages_total')).toBe(bad + 1);
      await expect.poll(() => sample('bkg_readings_stored_total', { source: 'mqtt' })).toBe(1);
      expect(await sample('bkg_readings_rejected_total', { source: 'mqtt' })).toBe(1);
      expect(await sample('bkg_mqtt_messages_total')).toBeGreaterThanOrEqual(2);
    });
  });

  describe('logs', () => {
    it('echo X-Request-Id, or make one', async () => {
      const given = `req-${randomUUID()}`;
      expect((await h.fetch('/healthz', { headers: { 'x-request-id': given } })).headers.get('x-request-id')).toBe(
        given,
      );
      const made = (await h.fetch('/healthz', { headers: { 'x-request-id': 'not valid!' } })).headers.get(
        'x-request-id',
      );
      expect(made).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('put the request id and the client (kind and key id, never the secret) on every line of a request', async () => {
      const requestId = `req-${randomUUID()}`;
      h.resetRoundTrips();
      const res = await h.fetch('/graphql', {
        ...json('POST', { query: '{ equipment(siteId: "ops") { name points { name } } }' }),
        headers: { 'content-type': 'application/json', 'x-request-id': requestId },
      });
      expect(res.status).toBe(200);
      await expect.poll(() => lines.filter((l) => l.requestId === requestId && l.msg === 'request').length).toBe(1);
      const mine = lines.filter((l) => l.requestId === requestId);
      for (const line of mine) expect(line.client).toEqual({ kind: 'key', keyId: 'admin', keyName: 'BKG_ADMIN_KEY' });
      expect(mine.find((l) => l.msg === 'request')).toMatchObject({
        level: 30,
        method: 'POST',
        route: '/graphql',
        status: 200,
      });
      // Each query the request sent to the store was logged (at debug) with the request's id.
      const sent = h.queries();
      expect(sent.length).toBeGreaterThanOrEqual(2);
      for (const query of sent)
        expect(mine.some((l) => l.msg === 'sparql query' && l.query === query && l.level === 20)).toBe(true);
    });

    it('write SPARQL text at debug level only, and never a secret', async () => {
      await h.graphql('{ point(siteId: "ops", is: "Temperature_Sensor") { name } }');
      const withQueryText = lines.filter((l) => JSON.stringify(l).includes('SELECT'));
      expect(withQueryText.length).toBeGreaterThan(0);
      for (const line of withQueryText) expect(line.level).toBe(20);
      const key = (await (await h.fetch('/api/v1/keys/', json('POST', { name: 'logged', sites: ['ops'] }))).json())
        .key as string;
      await h.fetch('/api/v1/sites/ops', { headers: { authorization: `Bearer ${key}` } });
      const all = raw.join('');
      expect(all).not.toContain(ADMIN_KEY);
      expect(all).not.toContain(key);
      expect(all).not.toContain(METRICS_TOKEN);
    });
  });

  describe('GraphiQL and the published SDL', () => {
    it('GraphiQL opens with the demo examples as tabs, its assets served by the service (no CDN)', async () => {
      const res = await h.fetch('/graphql', { headers: { accept: 'text/html' } });
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(html).not.toMatch(/https?:\/\//);
      const options = JSON.parse(/renderYogaGraphiQL\([^,]+, (\{.*\})\);/.exec(html)![1]!.replace(/\\u003c/g, '<'));
      expect(options.defaultTabs.map((t: { query: string }) => t.query)).toEqual(GRAPHIQL_EXAMPLES);
      // GraphiQL's versioned assets are kept for good; the icon (an unversioned path) for a day.
      const icon = /<link rel="icon" href="([^"]+)"/.exec(html)?.[1];
      expect(icon).toBe('/favicon.svg');
      for (const asset of html.match(/(?:src|href)="[^"]+"/g)!) {
        const url = /"([^"]+)"/.exec(asset)![1]!;
        const served = await h.fetch(url);
        expect(served.status, url).toBe(200);
        if (url !== icon) expect(served.headers.get('cache-control')).toContain('immutable');
      }
    });

    it('titles each example tab with its own operation name (not <untitled>)', () => {
      const names = GRAPHIQL_EXAMPLES.map((example) =>
        parse(example).definitions.map((d) => (d.kind === Kind.OPERATION_DEFINITION ? d.name?.value : undefined)),
      );
      expect(names.every((ops) => ops.length === 1 && ops[0])).toBe(true);
      expect(new Set(names.flat()).size).toBe(GRAPHIQL_EXAMPLES.length);
    });

    it('serves an icon at /favicon.ico and /favicon.svg', async () => {
      for (const path of ['/favicon.ico', '/favicon.svg']) {
        const res = await fetch(`${h.url}${path}`);
        expect(res.status, path).toBe(200);
        expect(res.headers.get('content-type')).toContain('image/svg+xml');
        expect(await res.text()).toMatch(/^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      }
    });

    it('every example runs on the demo site without errors', async () => {
      for (const example of GRAPHIQL_EXAMPLES) {
        const result = await h.graphql(example);
        expect(result.errors, example).toBeUndefined();
        expect(
          Object.values(result.data as object)
            .flat()
            .filter(Boolean).length,
          example,
        ).toBeGreaterThan(0);
      }
    });

    it('serves the SDL at /graphql/schema.graphql, as committed in schema.graphql', async () => {
      const res = await fetch(`${h.url}/graphql/schema.graphql`);
      expect(res.status).toBe(200);
      expect(await res.text()).toBe(await readFile(`${projectRoot}/schema.graphql`, 'utf8'));
    });
  });
});
