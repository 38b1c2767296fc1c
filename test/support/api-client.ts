// Small helpers for REST and GraphQL calls against a harness as a chosen caller.
import { createHash, randomInt } from 'node:crypto';
import type { Harness } from './harness.ts';

/** A request to the harness: a path and fetch options. */
export type Fetch = (path: string, init?: RequestInit) => Promise<Response>;

/** Requests as the holder of `token` (a bearer token), or with no Authorization header when `token` is null. */
export function fetchAs(h: Harness, token: string | null): Fetch {
  return (path, init = {}) => {
    const headers = new Headers(init.headers);
    if (token !== null) headers.set('authorization', `Bearer ${token}`);
    else headers.delete('authorization');
    return fetch(h.url + path, { ...init, headers });
  };
}

/** A made-up client address (in 198.18.0.0/15, kept for tests), a fresh one on each call. */
export const clientIp = () => `198.18.${randomInt(256)}.${randomInt(1, 255)}`;

/** Requests as `fetchAs` does, from the client address `ip` (passed the way a proxy on loopback does). */
export function fetchFrom(h: Harness, token: string | null, ip: string): Fetch {
  return (path, init = {}) => {
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-for', ip);
    return fetchAs(h, token)(path, { ...init, headers });
  };
}

/** A POST /graphql as the holder of `token` (null: anonymous), answering the raw response. */
export function postGraphQL(
  h: Harness,
  token: string | null,
  query: string,
  variables?: Record<string, unknown>,
): Promise<Response> {
  return fetchAs(h, token)('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
}

/** The JSON-RPC `initialize` an MCP client opens with. */
export const MCP_INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** One JSON-RPC message POSTed to `/mcp` as the holder of `token` (null: anonymous), in the session `sessionId` if given. */
export function postMcp(h: Harness, token: string | null, message: unknown, sessionId?: string): Promise<Response> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  if (sessionId !== undefined)
    Object.assign(headers, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' });
  return fetchAs(h, token)('/mcp', { method: 'POST', headers, body: JSON.stringify(message) });
}

/** An API key as `POST /api/v1/keys/` answers it: the record and its secret. */
export interface CreatedKey {
  id: string;
  name: string;
  sites: string[] | '*';
  write: boolean;
  admin: boolean;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  key: string;
}

/** Creates an API key through the API as the admin; fails unless it answers 201. */
export async function createKey(
  h: Harness,
  input: { name?: string; sites: string[] | '*'; write?: boolean; admin?: boolean },
): Promise<CreatedKey> {
  const res = await h.fetch('/api/v1/keys/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: input.name ?? 'test key', ...input }),
  });
  if (res.status !== 201) throw new Error(`creating a key answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as CreatedKey;
}

/** A JSON request body with its Content-Type. */
export const jsonBody = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** The site's graph as the admin exports it: its N-Triples lines, blank nodes relabelled canonically, sorted. */
export async function exportTriples(h: Harness, siteId: string): Promise<string[]> {
  const res = await h.fetch(`/api/v1/sites/${siteId}/graph`, { headers: { accept: 'application/n-triples' } });
  if (res.status !== 200) throw new Error(`exporting ${siteId} answered ${res.status}: ${await res.text()}`);
  return canonicalTriples(await res.text());
}

const BLANK_NODE = /_:[A-Za-z0-9_][A-Za-z0-9_.-]*/g;

/**
 * N-Triples lines, sorted, with each blank node renamed after the triples it occurs in: labels are
 * not part of a graph (a store may rename them when it reloads one), so equal graphs give equal lists.
 * One round of refinement suffices for the small fixtures compared here.
 */
export function canonicalTriples(ntriples: string): string[] {
  const lines = ntriples
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const signatures = new Map<string, string[]>();
  for (const line of lines) {
    for (const label of line.match(BLANK_NODE) ?? []) {
      const own = line.replace(BLANK_NODE, (other) => (other === label ? '_:self' : '_:other'));
      signatures.set(label, [...(signatures.get(label) ?? []), own]);
    }
  }
  const names = new Map(
    [...signatures].map(([label, triples]) => [
      label,
      `_:b${createHash('sha256').update(triples.sort().join('\n')).digest('hex').slice(0, 16)}`,
    ]),
  );
  return lines.map((line) => line.replace(BLANK_NODE, (label) => names.get(label)!)).sort();
}
