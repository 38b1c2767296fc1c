// The MCP server as an agent uses it, over both transports: Streamable HTTP at /mcp, and stdio
// through `bkg mcp` (bin/bkg.js, as a desktop assistant starts it) talking to the same service.
// Each tool is called on the demo site (its simulator's backfilled history) and its answer is held
// against GraphQL or the REST API; refusals carry the REST API's statuses; a large site pages.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MCP_INITIALIZE, postMcp } from '../../support/api-client.ts';
import { generateBuilding } from '../../support/generated-building.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { hs256Token, JWT_SECRET } from '../../support/user-tokens.ts';

const root = resolve(import.meta.dirname, '../../..');
const DEMO_FIXTURE = resolve(root, 'fixtures/demo.ttl');
const TOOLS = [
  'describe_site',
  'find_entities',
  'graphql',
  'list_files',
  'list_sites',
  'site_history',
  'sparql',
  'timeseries',
];

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    sites: { big: generateBuilding(200) },
    env: {
      BKG_JWT_SECRET: JWT_SECRET,
      BKG_DEMO_FIXTURE: DEMO_FIXTURE,
      BKG_DEMO_RESET_SECONDS: '0',
      BKG_DEMO_SIMULATOR_SECONDS: '3600',
      BKG_DEMO_BACKFILL_DAYS: '2',
    },
  });
}, 120_000);
afterAll(async () => {
  await h?.close();
});

async function httpClient(token: string | null = h.adminKey): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  await client.connect(new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), { requestInit: { headers } }));
  return client;
}

async function stdioClient(token: string = h.adminKey): Promise<Client> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [resolve(root, 'bin/bkg.js'), 'mcp'],
    cwd: root,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', BKG_URL: h.url, BKG_TOKEN: token },
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

/** A tool's JSON answer; a tool error fails the test with its text. */
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<any> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (result.content[0] as { text: string }).text;
  expect(result.isError, text).toBeFalsy();
  return JSON.parse(text);
}

/** A tool's error body ({status, code, message}). */
async function refusal(
  client: Client,
  name: string,
  args: Record<string, unknown>,
): Promise<{ status: number; code: string; message: string }> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  expect(result.isError).toBe(true);
  return JSON.parse((result.content[0] as { text: string }).text).error;
}

async function graphql(query: string, variables: Record<string, unknown> = {}): Promise<any> {
  const res = await h.graphql(query, variables);
  expect(res.errors, JSON.stringify(res.errors)).toBeUndefined();
  return res.data;
}

const ids = (xs: Array<{ id: string }>) => xs.map((x) => x.id).sort();

describe.each([
  ['Streamable HTTP', () => httpClient()],
  ['stdio (bkg mcp)', () => stdioClient()],
] as const)('over %s', (_transport, connect) => {
  let client: Client;
  beforeAll(async () => {
    client = await connect();
  }, 60_000);
  afterAll(async () => {
    await client?.close();
  });

  it('lists the eight read-only tools, each with a description and an input schema, and the schema resource', async () => {
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    for (const tool of tools) {
      expect(tool.description!.length, tool.name).toBeGreaterThan(80);
      expect(tool.inputSchema.type).toBe('object');
      expect(tool.annotations?.readOnlyHint, tool.name).toBe(true);
    }
    const { resources } = await client.listResources();
    const schema = await client.readResource({ uri: resources[0]!.uri });
    expect((schema.contents[0] as { text: string }).text).toContain('type Query');
  });

  it('site_history: what changed in a site, when and by whom, and what one version changed', async () => {
    const label = `added over PATCH ${Math.random()}`;
    const changed = await h.fetch('/api/v1/sites/big/graph?message=relabelled', {
      method: 'PATCH',
      headers: { 'content-type': 'application/sparql-update' },
      body: `INSERT DATA { <urn:bkg:test:mcp> <http://www.w3.org/2000/01/rdf-schema#label> "${label}" }`,
    });
    expect(changed.status).toBe(200);
    const { version } = await changed.json();
    const answer = await call(client, 'site_history', { siteId: 'big', limit: 1, version });
    expect(answer.latest).toBeGreaterThanOrEqual(version);
    expect(answer.versions).toHaveLength(1);
    expect(answer.changed).toMatchObject({
      version,
      summary: { labelsChanged: [{ entity: 'urn:bkg:test:mcp', from: null, to: label }] },
    });
    const own = await call(client, 'site_history', { siteId: 'big', limit: 100 });
    expect(own.versions.find((v: { version: number }) => v.version === version)).toMatchObject({
      via: 'patch',
      message: 'relabelled',
      added: 1,
      by: { kind: 'key' },
    });
  });

  it('list_sites: the sites the key reads, with name and timezone', async () => {
    const answer = await call(client, 'list_sites', {});
    const sites = (await (await h.fetch('/api/sites/')).json()) as Array<{
      id: string;
      name: string;
      timezone: string;
    }>;
    expect(answer.items).toEqual(sites.map(({ id, name, timezone }) => ({ id, name, timezone })));
    expect(answer.items).toContainEqual({ id: 'demo', name: expect.any(String), timezone: 'Europe/Berlin' });
    expect(answer.total).toBe(sites.length);
  });

  it('describe_site: counts as GraphQL counts them, classes per kind, relations, timeseries coverage and samples', async () => {
    const answer = await call(client, 'describe_site', { siteId: 'demo' });
    const counts = await graphql(
      'query($s: String!) { buildingCount(siteId: $s) equipmentCount(siteId: $s) pointCount(siteId: $s) zoneCount(siteId: $s) systemCount(siteId: $s) }',
      { s: 'demo' },
    );
    expect(answer.counts).toMatchObject({
      buildings: counts.buildingCount,
      equipment: counts.equipmentCount,
      points: counts.pointCount,
      zones: counts.zoneCount,
      systems: counts.systemCount,
    });
    expect(answer.site).toEqual({ id: 'demo', name: expect.any(String), timezone: 'Europe/Berlin' });
    expect(answer.classesByKind.Location).toMatchObject({ Floor: 1, Level: 3 });
    expect(answer.classesByKind.Equipment.AHU + answer.classesByKind.Equipment.Air_Handling_Unit).toBe(2);
    expect(Object.keys(answer.relations)).toEqual(
      expect.arrayContaining(['feeds', 'hasPoint', 'hasPart', 'hasLocation']),
    );
    expect(answer.timeseries.seriesWithReadings).toBeGreaterThan(10);
    expect(Date.parse(answer.timeseries.lastReading)).toBeGreaterThan(Date.now() - 2 * 3600_000);
    expect(answer.samples.equipment).toHaveLength(5);
    expect(answer.samples.points[0]).toHaveProperty('timeseriesId');
  });

  it('graphql: runs an operation with siteId injected, declared or not, as /graphql answers it', async () => {
    const query = 'query($siteId: String!) { equipment(siteId: $siteId, is: "AHU") { id name feeds { id } } }';
    const answer = await call(client, 'graphql', { siteId: 'demo', query });
    // The answer names the version of the graph it read, as /graphql's does.
    expect(answer).toEqual({ data: await graphql(query, { siteId: 'demo' }), extensions: { versions: { demo: 0 } } });
    const undeclared = await call(client, 'graphql', { siteId: 'demo', query: '{ buildingCount(siteId: "demo") }' });
    expect(undeclared.data.buildingCount).toBe(1);
    const invalid = await call(client, 'graphql', { siteId: 'demo', query: '{ nope }' });
    expect(invalid.errors[0].extensions.code).toBe('GRAPHQL_VALIDATION_FAILED');
  });

  it('find_entities: a page of the search and the count, as GraphQL pages them', async () => {
    const ahus = await graphql('{ equipment(siteId: "demo", is: "AHU") { id } }');
    const first = await call(client, 'find_entities', { siteId: 'demo', kind: 'equipment', class: 'AHU', limit: 1 });
    expect(first).toMatchObject({ total: ahus.equipment.length, returned: 1, nextOffset: 1 });
    const second = await call(client, 'find_entities', {
      siteId: 'demo',
      kind: 'equipment',
      class: 'AHU',
      limit: 1,
      offset: 1,
    });
    expect(ids([...first.items, ...second.items])).toEqual(ids(ahus.equipment));
    const points = await call(client, 'find_entities', {
      siteId: 'demo',
      kind: 'point',
      equipmentId: 'AHU-1',
      class: 'Supply_Air_Temperature_Sensor',
    });
    expect(points.items).toEqual([
      expect.objectContaining({
        id: 'AHU-1-SAT',
        unit: 'DEG_C',
        timeseriesId: expect.any(String),
        equipment: expect.objectContaining({ id: 'AHU-1' }),
      }),
    ]);
    const wrong = await refusal(client, 'find_entities', { siteId: 'demo', kind: 'building', equipmentId: 'AHU-1' });
    expect(wrong).toMatchObject({ status: 400, code: 'BAD_USER_INPUT' });
  });

  it('timeseries: the same answer as POST /api/sites/{id}/timeseries, with the site’s timezone', async () => {
    const request = {
      timeseriesIds: ['demo:AHU-1-SAT', 'nope'],
      start: '-6h',
      end: 'now()',
      window: '1h',
      aggregate: 'mean',
      limit: 10,
    };
    const answer = await call(client, 'timeseries', { siteId: 'demo', ...request });
    const rest = await (
      await h.fetch('/api/sites/demo/timeseries', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(request),
      })
    ).json();
    expect(answer.query.timezone).toBe('Europe/Berlin');
    expect(answer.series[0]).toMatchObject({ timeseriesId: 'demo:AHU-1-SAT', unit: 'DEG_C', equipment: 'AHU-1' });
    expect(answer.series[0].data.length).toBeGreaterThanOrEqual(5);
    expect(answer.series[0].data).toEqual(rest.series[0].data);
    expect(answer.errors).toEqual(rest.errors);
  });

  it('sparql: the confined endpoint, one page of rows with the total', async () => {
    const query = 'SELECT ?p WHERE { ?p a brick:Supply_Air_Temperature_Sensor } ORDER BY ?p';
    const answer = await call(client, 'sparql', { siteId: 'demo', query, limit: 1 });
    const endpoint = await (
      await h.fetch(`/api/sites/demo/sparql?query=${encodeURIComponent(query)}`, {
        headers: { accept: 'application/sparql-results+json' },
      })
    ).json();
    expect(answer).toMatchObject({
      form: 'SELECT',
      vars: ['p'],
      total: endpoint.results.bindings.length,
      returned: 1,
      nextOffset: 1,
    });
    expect(answer.items[0]).toEqual(endpoint.results.bindings[0]);
    expect(await call(client, 'sparql', { siteId: 'demo', query: 'ASK { ?s a brick:AHU }' })).toEqual({
      form: 'ASK',
      boolean: true,
    });
    const bad = await refusal(client, 'sparql', { siteId: 'demo', query: 'SELECT ?s WHERE {' });
    expect(bad).toMatchObject({ status: 400, code: 'BAD_USER_INPUT' });
  });

  it('list_files: the site’s files and models, with their download paths, as GET /api/files/ pages them', async () => {
    const answer = await call(client, 'list_files', { siteId: 'demo', limit: 2 });
    const rest = await (await h.fetch('/api/files/?site_id=demo&limit=2')).json();
    expect(answer.total).toBe(rest.count);
    expect(answer.total).toBeGreaterThan(0);
    expect(ids(answer.items)).toEqual(ids(rest.results));
    const download = await h.fetch(answer.items[0].download);
    expect(download.status).toBe(200);
  });

  it('answers the question "which AHUs serve the third floor, and what were their supply temperatures last night?" with the tools alone', async () => {
    const site = (await call(client, 'list_sites', {})).items.find((s: { id: string }) => s.id === 'demo');
    const floors = await call(client, 'find_entities', {
      siteId: site.id,
      kind: 'equipment',
      locationName: 'Floor 3',
      class: 'Terminal_Unit',
      limit: 200,
    });
    expect(floors.total).toBeGreaterThan(0);
    const upstream = await call(client, 'graphql', {
      siteId: site.id,
      query: 'query($siteId: String!) { a: equipment(siteId: $siteId, is: "AHU") { id downstream { id } } }',
    });
    const terminals = new Set(floors.items.map((e: { id: string }) => e.id));
    const serving = upstream.data.a
      .filter((ahu: { downstream: Array<{ id: string }> }) => ahu.downstream.some((d) => terminals.has(d.id)))
      .map((a: { id: string }) => a.id);
    // The same question asked of GraphQL directly.
    const expected = await graphql(
      '{ equipment(siteId: "demo", locationName: "Floor 3", is: "Terminal_Unit") { upstream { id type } } }',
    );
    const ahuTypes = new Set(['AHU', 'Air_Handling_Unit']);
    const expectedAhus = [
      ...new Set(
        expected.equipment.flatMap((e: any) =>
          e.upstream.filter((u: any) => ahuTypes.has(u.type)).map((u: any) => u.id),
        ),
      ),
    ].sort();
    expect(serving.sort()).toEqual(expectedAhus);
    expect(serving.length).toBeGreaterThan(0);

    const sat = await Promise.all(
      serving.map((id: string) =>
        call(client, 'find_entities', {
          siteId: site.id,
          kind: 'point',
          equipmentId: id,
          class: 'Supply_Air_Temperature_Sensor',
        }),
      ),
    );
    const series = sat.flatMap((page) => page.items.map((p: { timeseriesId: string }) => p.timeseriesId));
    expect(series).toHaveLength(serving.length);
    // Last night: 22:00 to 06:00 in the site's zone, the last such night that is over (asked
    // before 06:00, the night before: the one under way has not its eight hours yet).
    const day = (msAgo: number) =>
      new Intl.DateTimeFormat('en-CA', { timeZone: site.timezone }).format(new Date(Date.now() - msAgo));
    const hour = Number(
      new Intl.DateTimeFormat('en-GB', { timeZone: site.timezone, hour: '2-digit', hourCycle: 'h23' }).format(
        new Date(),
      ),
    );
    const over = hour < 6 ? 86_400_000 : 0;
    const today = day(over);
    const yesterday = day(over + 86_400_000);
    const night = await call(client, 'timeseries', {
      siteId: site.id,
      timeseriesIds: series,
      start: `${yesterday}T22:00:00`,
      end: `${today}T06:00:00`,
      window: '1h',
      aggregate: 'mean',
    });
    expect(night.query.timezone).toBe('Europe/Berlin');
    // A series for each AHU's sensor, none left out, each with its eight hours.
    expect(night.series.map((s: { timeseriesId: string }) => s.timeseriesId).sort()).toEqual([...series].sort());
    for (const s of night.series) {
      expect(s.unit).toBe('DEG_C');
      expect(s.data).toHaveLength(8);
      for (const reading of s.data) expect(reading.v).toBeGreaterThan(5);
    }
  });
});

describe('refusals, as the REST API refuses', () => {
  it('an unauthenticated call is 401, over HTTP and through bkg mcp', async () => {
    const res = await postMcp(h, null, MCP_INITIALIZE);
    expect(res.status).toBe(401);
    await expect(httpClient(null)).rejects.toMatchObject({ code: 401 });
    // bkg mcp checks the key before it serves stdio: an assistant's log shows why it stopped.
    const child = spawn(process.execPath, [resolve(root, 'bin/bkg.js'), 'mcp'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', BKG_URL: h.url, BKG_TOKEN: 'bkg_not-a-key' },
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise((done) => child.on('close', done));
    expect(code).toBe(1);
    expect(stderr).toContain('Error (HTTP 401): The service refused the credentials');
  });

  it('a site outside the key’s scope is the tool’s error with REST’s 404, for every tool that takes a site', async () => {
    const key = await (
      await h.fetch('/api/v1/keys/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'big only', sites: ['big'] }),
      })
    ).json();
    const rest = await fetch(`${h.url}/api/v1/sites/other`, { headers: { authorization: `Bearer ${key.key}` } });
    const client = await httpClient(key.key);
    try {
      const sites = await call(client, 'list_sites', {});
      expect(ids(sites.items)).toEqual(['big', 'demo']);
      for (const [tool, args] of [
        ['describe_site', {}],
        ['find_entities', { kind: 'equipment' }],
        ['graphql', { query: '{ buildingCount(siteId: "x") }' }],
        ['sparql', { query: 'ASK {}' }],
        ['timeseries', { timeseriesIds: ['a'] }],
        ['list_files', {}],
        ['site_history', {}],
      ] as const) {
        expect(await refusal(client, tool, { siteId: 'other', ...args }), tool).toMatchObject({
          status: rest.status,
          code: 'NOT_FOUND',
        });
      }
    } finally {
      await client.close();
    }
  });

  it('a user token reads the sites its claims name, as on REST', async () => {
    const token = await hs256Token({ sub: 'agent-user', sites: ['big'] });
    const client = await httpClient(token);
    try {
      expect(ids((await call(client, 'list_sites', {})).items)).toEqual(['big', 'demo']);
      expect((await call(client, 'find_entities', { siteId: 'big', kind: 'building' })).total).toBe(1);
      expect(await refusal(client, 'describe_site', { siteId: 'other' })).toMatchObject({ status: 404 });
    } finally {
      await client.close();
    }
  });

  it('GET /mcp is 405: the endpoint keeps no sessions', async () => {
    const res = await h.fetch('/mcp');
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });
});

describe('a large site pages rather than answering megabytes', () => {
  it('find_entities answers a page and the total; a GraphQL answer past the bound is refused with how to ask less', async () => {
    const client = await httpClient();
    try {
      const total = (await graphql('{ pointCount(siteId: "big") }')).pointCount;
      expect(total).toBeGreaterThan(500);
      const first = await call(client, 'find_entities', { siteId: 'big', kind: 'point' });
      expect(first).toMatchObject({ total, returned: 50, nextOffset: 50 });
      const all = (await client.callTool({
        name: 'graphql',
        arguments: {
          siteId: 'big',
          query:
            'query($siteId: String!) { point(siteId: $siteId) { uri id name type typeHierarchy properties { name value } externalReferences { uri type } } }',
        },
      })) as CallToolResult;
      const text = (all.content[0] as { text: string }).text;
      expect(all.isError).toBe(true);
      expect(text.length).toBeLessThan(2000);
      expect(JSON.parse(text).error).toMatchObject({
        code: 'QUERY_TOO_LARGE',
        message: expect.stringContaining('limit and offset'),
      });
    } finally {
      await client.close();
    }
  });

  it('graphql: an answer of tens of MB is refused once it passes the cap, not built whole first; a small one still answers', async () => {
    const fields =
      'uri id name type typeHierarchy unit timeseriesId properties { name value } externalReferences { uri type fields { name value } } ' +
      'equipment { uri id name type typeHierarchy location { uri id name type } points { uri id name type typeHierarchy } }';
    const aliases = Array.from({ length: 30 }, (_, i) => `a${i}: point(siteId: $siteId) { ${fields} }`);
    // What the whole answer would be: one alias's, thirty times.
    const one = await graphql(`query($siteId: String!) { ${aliases[0]} }`, { siteId: 'big' });
    expect(JSON.stringify(one).length * aliases.length).toBeGreaterThan(20_000_000);
    const client = await httpClient();
    try {
      const started = performance.now();
      const all = (await client.callTool({
        name: 'graphql',
        arguments: { siteId: 'big', query: `query($siteId: String!) { ${aliases.join(' ')} }` },
      })) as CallToolResult;
      const ms = performance.now() - started;
      const text = (all.content[0] as { text: string }).text;
      expect(all.isError, text.slice(0, 500)).toBe(true);
      expect(JSON.parse(text).error).toMatchObject({
        code: 'QUERY_TOO_LARGE',
        maxCharacters: 200_000,
        message: expect.stringContaining('200,000'),
      });
      // Built whole first, this answer took ~11 s here; stopped at the cap, ~0.25 s.
      expect(ms).toBeLessThan(3000);
      const small = await call(client, 'graphql', {
        siteId: 'big',
        query: 'query($siteId: String!) { point(siteId: $siteId, limit: 3) { id } pointCount(siteId: $siteId) }',
      });
      expect(small.data.point).toHaveLength(3);
      expect(small.data.pointCount).toBeGreaterThan(1000);
    } finally {
      await client.close();
    }
  });

  it('find_entities refuses search text over its limit, naming the argument as the tool does', async () => {
    const client = await httpClient();
    try {
      expect(
        await refusal(client, 'find_entities', { siteId: 'big', kind: 'point', name: 'a'.repeat(1_001) }),
      ).toMatchObject({
        status: 400,
        code: 'BAD_USER_INPUT',
        argument: 'name',
        maxLength: 1_000,
      });
      const byClass = await refusal(client, 'find_entities', {
        siteId: 'big',
        kind: 'point',
        class: 'x'.repeat(2_049),
      });
      expect(byClass).toMatchObject({ code: 'BAD_USER_INPUT', argument: 'class', maxLength: 2_048 });
      expect(byClass.message).toContain('"class"');
      expect(
        (await call(client, 'find_entities', { siteId: 'big', kind: 'point', name: 'a'.repeat(1_000) })).total,
      ).toBe(0);
    } finally {
      await client.close();
    }
  });
});
