// MCP clients are told when a site changes: each site is a resource (bkg://sites/{id}: its record
// and the version its graph is at); a client in a session subscribes to it and receives
// notifications/resources/updated on the session's stream when the graph gets a new version.
// Sessions are the opening client's own; without one, calls stay stateless.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createKey, jsonBody, MCP_INITIALIZE, postMcp, type CreatedKey } from '../../support/api-client.ts';
import { createHarness, type Harness } from '../../support/harness.ts';

const EX = 'https://example.org/mcp-updates#';
const BRICK = 'https://brickschema.org/schema/Brick#';

let h: Harness;
let reader: CreatedKey;
let stranger: CreatedKey;

async function connect(
  token: string,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport; updates: string[] }> {
  const client = new Client({ name: 'test-agent', version: '1.0.0' });
  const updates: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updates.push(n.params.uri));
  const transport = new StreamableHTTPClientTransport(new URL(`${h.url}/mcp`), {
    requestInit: { headers: { authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return { client, transport, updates };
}

const patch = (triples: string) =>
  h.fetch('/api/v1/sites/hq/graph', {
    method: 'PATCH',
    headers: { 'content-type': 'application/sparql-update' },
    body: `INSERT DATA { ${triples} }`,
  });

beforeAll(async () => {
  h = await createHarness({ sites: {}, env: { BKG_MAX_SUBSCRIPTIONS_KEY: '3' } });
  for (const id of ['hq', 'other'])
    expect((await h.fetch('/api/v1/sites/', jsonBody('POST', { id, name: id }))).status).toBe(201);
  reader = await createKey(h, { name: 'reader', sites: ['hq'] });
  stranger = await createKey(h, { name: 'stranger', sites: ['other'] });
  expect((await patch(`<${EX}ahu> a <${BRICK}AHU>`)).status).toBe(200);
});
afterAll(async () => {
  await h?.close();
});

it('lists and reads each readable site as a resource, with the version its graph is at', async () => {
  const { client } = await connect(reader.key);
  try {
    const { resources } = await client.listResources();
    expect(resources.filter((r) => r.uri.startsWith('bkg://sites/')).map((r) => r.uri)).toEqual(['bkg://sites/hq']);
    const read = await client.readResource({ uri: 'bkg://sites/hq' });
    const site = JSON.parse((read.contents[0] as { text: string }).text);
    expect(site).toMatchObject({ id: 'hq', version: 1, latestChange: { version: 1, via: 'patch' } });
  } finally {
    await client.close();
  }
});

it('tells a subscribed client each time the site’s graph changes, and stops after unsubscribe', async () => {
  const { client, transport, updates } = await connect(reader.key);
  try {
    expect(transport.sessionId).toMatch(/^[\w-]{20,}$/);
    await client.subscribeResource({ uri: 'bkg://sites/hq' });
    expect((await patch(`<${EX}vav1> a <${BRICK}VAV>`)).status).toBe(200);
    await expect.poll(() => updates, { timeout: 5000 }).toEqual(['bkg://sites/hq']);
    const read = await client.readResource({ uri: 'bkg://sites/hq' });
    expect(JSON.parse((read.contents[0] as { text: string }).text).version).toBe(2);
    await client.unsubscribeResource({ uri: 'bkg://sites/hq' });
    expect((await patch(`<${EX}vav2> a <${BRICK}VAV>`)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(updates).toEqual(['bkg://sites/hq']);
  } finally {
    await client.close();
  }
});

it('refuses a subscription to a site the client may not read, or to anything but a site', async () => {
  const { client } = await connect(stranger.key);
  try {
    await expect(client.subscribeResource({ uri: 'bkg://sites/hq' })).rejects.toThrow(/not found/i);
    await expect(client.subscribeResource({ uri: 'bkg://graphql/schema' })).rejects.toThrow(/Only site resources/);
  } finally {
    await client.close();
  }
});

it('keeps a session its opener’s: another client naming it is told it does not exist; a call without one stays stateless', async () => {
  const { client, transport } = await connect(reader.key);
  try {
    const foreign = await postMcp(
      h,
      stranger.key,
      { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      transport.sessionId!,
    );
    expect(foreign.status).toBe(404);
    const stateless = await postMcp(h, reader.key, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(stateless.status).toBe(200);
    expect(stateless.headers.get('mcp-session-id')).toBeNull();
    expect((await stateless.json()).result.tools.length).toBeGreaterThan(3);
  } finally {
    await client.close();
  }
});

it('counts sessions among a key’s subscriptions: past its cap, its session idle longest without a stream ends', async () => {
  const initialize = async () => {
    const res = await postMcp(h, reader.key, MCP_INITIALIZE);
    expect(res.status).toBe(200);
    return res.headers.get('mcp-session-id')!;
  };
  const ping = (id: string) => postMcp(h, reader.key, { jsonrpc: '2.0', id: 2, method: 'ping' }, id);
  const ids = [];
  for (let i = 0; i < 4; i++) ids.push(await initialize());
  expect(new Set(ids).size).toBe(4);
  expect((await ping(ids[0]!)).status).toBe(404);
  for (const id of ids.slice(1)) expect((await ping(id)).status).toBe(200);
});
