/**
 * The fixed cost of a request over HTTP, as a client on loopback sees it: `GET /healthz` (the
 * floor: HTTP, express, no authentication), and `{ __typename }` through the whole GraphQL path
 * (authentication, limits, context, parsing and validation from the cache, execution, the
 * answer) with the admin key and with an API key. Requests one after another, on one kept-alive
 * connection.
 */
import { Agent, request } from 'undici';
import type { Gateway } from './gateway.ts';
import { percentile } from './timing.ts';

export interface FixedLatency {
  readonly p50: number;
  readonly p99: number;
}

export interface FixedCost {
  readonly requests: number;
  readonly healthz: FixedLatency;
  readonly adminKey: FixedLatency;
  readonly apiKey: FixedLatency;
}

const TYPENAME = JSON.stringify({ query: '{ __typename }' });

export async function measureFixedCost(gateway: Gateway, requests: number): Promise<FixedCost> {
  const { secret } = await gateway.services.keys.create({ name: 'bench', sites: '*', write: false, admin: false });
  const agent = new Agent({ connections: 1 });
  const once = async (path: string, token?: string): Promise<number> => {
    const started = performance.now();
    const response = await request(`${gateway.url}${path}`, {
      dispatcher: agent,
      method: token ? 'POST' : 'GET',
      headers: token
        ? { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json' }
        : {},
      body: token ? TYPENAME : undefined,
    });
    const text = await response.body.text();
    if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode}: ${text}`);
    return performance.now() - started;
  };
  const kinds = {
    healthz: () => once('/healthz'),
    adminKey: () => once('/graphql', gateway.adminKey),
    apiKey: () => once('/graphql', secret),
  };
  const samples = { healthz: [] as number[], adminKey: [] as number[], apiKey: [] as number[] };
  try {
    // Warm-up, then the three interleaved, so load from elsewhere falls on all of them alike.
    for (let i = 0; i < Math.min(200, requests); i++) for (const run of Object.values(kinds)) await run();
    for (let i = 0; i < requests; i++)
      for (const [kind, run] of Object.entries(kinds)) samples[kind as keyof typeof samples].push(await run());
  } finally {
    await agent.close();
  }
  const latency = (xs: number[]): FixedLatency => ({ p50: percentile(xs, 50), p99: percentile(xs, 99) });
  return {
    requests,
    healthz: latency(samples.healthz),
    adminKey: latency(samples.adminKey),
    apiKey: latency(samples.apiKey),
  };
}
