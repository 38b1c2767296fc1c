// The production stack (docker-compose.yml) is checked without a Docker engine: every variable it
// sets on the gateway must be one the configuration reads, and the services docs/stores-and-scaling.md, "Running at scale", names
// must be there.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../../../src/config/config.ts';

const root = new URL('../../../', import.meta.url);
const compose = parse(readFileSync(new URL('docker-compose.yml', root), 'utf8')) as {
  services: Record<string, { environment?: Record<string, string>; build?: { dockerfile: string }; image?: string }>;
};

/** Every variable name the configuration reads (src/config: every domain's settings are read there): `env.NAME` or a reader called with `'NAME'`. */
function variablesTheConfigReads(): Set<string> {
  const names = new Set<string>();
  const src = new URL('src/', root);
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter(
    (f) => f.startsWith('config/') && f.endsWith('.ts'),
  );
  for (const file of files) {
    const text = readFileSync(new URL(file, src), 'utf8');
    for (const m of text.matchAll(/env\.([A-Z][A-Z0-9_]+)/g)) names.add(m[1]!);
    for (const m of text.matchAll(/\(\s*'([A-Z][A-Z0-9_]+)'/g)) names.add(m[1]!);
  }
  return names;
}

/** The value compose would pass with every `${VAR:-default}` / `${VAR:?message}` filled with a sample. */
const resolved = (value: string) =>
  value.replace(/\$\{[A-Z0-9_]+(?::[-?]([^}]*))?\}/g, (_, fallback: string | undefined) =>
    fallback && !/^set /.test(fallback) ? fallback : 'sample-secret-value-0123456789abcdef',
  );

describe('docker-compose.yml', () => {
  const gateway = compose.services.gateway!;
  const environment = gateway.environment ?? {};

  it('holds the gateway, a triplestore, PostgreSQL, MinIO, Redis and Mosquitto', () => {
    expect(Object.keys(compose.services).sort()).toEqual([
      'gateway',
      'minio',
      'mosquitto',
      'postgres',
      'redis',
      'triplestore',
    ]);
    expect(gateway.build?.dockerfile).toBe('docker/Dockerfile');
  });

  it('sets on the gateway only variables the configuration reads', () => {
    const known = variablesTheConfigReads();
    expect(known.size).toBeGreaterThan(10);
    expect(Object.keys(environment).filter((name) => !known.has(name))).toEqual([]);
  });

  it('gives a configuration the service accepts, on the external engines', () => {
    const config = loadConfig(
      Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, resolved(String(v))])),
    );
    expect(config.graphStore.kind).toBe('sparql');
    expect(config.graphStore.queryUrl).toBe('http://triplestore:7878/query');
    expect(config.databaseUrl).toMatch(/^postgres:\/\/.*@postgres:5432\//);
    expect(config.redisUrl).toBe('redis://redis:6379');
    expect(config.readings.mqtt?.url).toBe('mqtt://mosquitto:1883');
  });

  it('builds the gateway in stages and runs it as a non-root user', () => {
    const dockerfile = readFileSync(new URL('docker/Dockerfile', root), 'utf8');
    expect(dockerfile.match(/^FROM /gm)?.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/^USER (?!root)\S+/m);
  });
});
