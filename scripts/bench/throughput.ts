/**
 * Throughput under load: autocannon, in a process of its own so it does not share the service's
 * event loop, sends one query over and over from 8 connections (clients) for a fixed time.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import type { Gateway } from './gateway.ts';

export interface ThroughputResult {
  readonly id: string;
  /** Whether the service kept answers (the same query again on an unchanged graph is answered from memory). */
  readonly kept: boolean;
  readonly seconds: number;
  readonly connections: number;
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly requests: number;
  /** Responses that were not 2xx, and connection errors or timeouts. */
  readonly failures: number;
}

const AUTOCANNON = createRequire(import.meta.url).resolve('autocannon/autocannon.js');

/** Runs autocannon against the gateway's `/graphql` with one query. */
export async function measureThroughput(
  gateway: Gateway,
  id: string,
  document: string,
  variables: Record<string, unknown>,
  options: { seconds: number; connections: number; kept: boolean },
): Promise<ThroughputResult> {
  const headers = Object.entries(gateway.headers).flatMap(([k, v]) => ['-H', `${k}=${v}`]);
  const args = [
    AUTOCANNON,
    '-c',
    String(options.connections),
    '-d',
    String(options.seconds),
    '-m',
    'POST',
    ...headers,
    '-b',
    JSON.stringify({ query: document, variables }),
    '-n',
    '-j',
    `${options.kept ? gateway.keptUrl : gateway.url}/graphql`,
  ];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`autocannon exited with ${code}: ${stderr}`)),
    );
  });
  const result = JSON.parse(output) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  };
  return {
    id,
    kept: options.kept,
    seconds: options.seconds,
    connections: options.connections,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
  };
}
