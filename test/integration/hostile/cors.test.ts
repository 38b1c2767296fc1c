// Cross-origin pages: by default any page may call the service but never with credentials (it
// authenticates with bearer tokens, which browsers never attach on their own); with
// BKG_CORS_ORIGINS only the listed origins are answered. GraphQL and REST alike, preflights and
// refusals included. A page of an unlisted origin gets nothing to read, while a listed one is served.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../src/config/config.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { duringAttack, INNOCENT_TTL } from './hostile-support.ts';

const EVIL = 'https://evil.example';
const APP = 'https://app.example.com';
const QUERY = JSON.stringify({ query: '{ __typename }' });

/** A browser's preflight for a request from `origin` to `path` with a bearer token. */
const preflight = (h: Harness, path: string, origin: string) =>
  fetch(h.url + path, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'authorization, content-type',
    },
  });

/** The request itself, as the page sends it after the preflight. */
const graphql = (h: Harness, origin: string, token: string | null = h.adminKey) =>
  fetch(`${h.url}/graphql`, {
    method: 'POST',
    headers: { origin, 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: QUERY,
  });
const rest = (h: Harness, origin: string) =>
  fetch(`${h.url}/api/v1/sites/`, { headers: { origin, authorization: `Bearer ${h.adminKey}` } });

const corsHeaders = (res: Response) =>
  Object.fromEntries([...res.headers].filter(([name]) => name.startsWith('access-control-')));

describe('CORS by default: any origin, no credentials', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ sites: { innocent: INNOCENT_TTL } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it.each(['/graphql', '/api/v1/sites/'])(
    'a preflight to %s is allowed for any origin, without credentials',
    async (path) => {
      const res = await preflight(h, path, EVIL);
      expect(res.status).toBe(204);
      expect(corsHeaders(res)).toMatchObject({
        'access-control-allow-origin': '*',
        'access-control-allow-methods': expect.stringContaining('POST'),
        'access-control-allow-headers': 'authorization, content-type',
      });
      expect(res.headers.has('access-control-allow-credentials')).toBe(false);
    },
  );

  it('GraphQL and REST answer `*` and never reflect the origin with credentials (yoga’s own default did)', async () => {
    for (const res of [await graphql(h, EVIL), await rest(h, EVIL)]) {
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.has('access-control-allow-credentials')).toBe(false);
      expect(res.headers.get('access-control-expose-headers')).toContain('RateLimit');
    }
  });

  it('a refusal is readable by the page too (401 with CORS headers)', async () => {
    const res = await fetch(`${h.url}/api/v1/sites/`, { headers: { origin: EVIL } });
    expect(res.status).toBe(401);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
  });
});

describe('CORS with BKG_CORS_ORIGINS', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      sites: { innocent: INNOCENT_TTL },
      env: { BKG_CORS_ORIGINS: `${APP}/, http://localhost:3000` },
    });
  });
  afterAll(async () => {
    await h?.close();
  });

  it.each(['/graphql', '/api/v1/sites/'])(
    'an unlisted origin’s preflight to %s gets no grant, while a listed page is served',
    async (path) => {
      const { attack, innocent } = await duringAttack(
        () => preflight(h, path, EVIL),
        () => graphql(h, APP),
      );
      expect(attack.status).toBe(204);
      expect(corsHeaders(attack)).toEqual({});
      expect(innocent.status).toBe(200);
      expect(await innocent.json()).toEqual({ data: { __typename: 'Query' } });
      expect(innocent.headers.get('access-control-allow-origin')).toBe(APP);
    },
  );

  it('GraphQL and REST grant a listed origin, with credentials, and vary by origin', async () => {
    for (const res of [
      await preflight(h, '/graphql', 'http://localhost:3000'),
      await graphql(h, APP),
      await rest(h, APP),
    ]) {
      expect(res.status).toBeLessThan(300);
      expect(res.headers.get('access-control-allow-origin')).toMatch(
        /^(https:\/\/app\.example\.com|http:\/\/localhost:3000)$/,
      );
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(res.headers.get('vary')).toMatch(/origin/i);
    }
  });

  it('GraphQL and REST give an unlisted origin no CORS headers', async () => {
    for (const res of [
      await graphql(h, EVIL),
      await rest(h, EVIL),
      await graphql(h, 'https://app.example.com.evil.example'),
    ]) {
      expect(corsHeaders(res)).toEqual({});
    }
  });
});

describe('BKG_CORS_ORIGINS', () => {
  it('takes "*" as the default, and refuses what is not an origin', () => {
    expect(loadConfig({ BKG_CORS_ORIGINS: '*' }).cors).toEqual({ origins: '*' });
    expect(loadConfig({ BKG_CORS_ORIGINS: 'https://A.example.com:443, http://b.example:8080' }).cors).toEqual({
      origins: ['https://a.example.com', 'http://b.example:8080'],
    });
    let error: unknown;
    try {
      loadConfig({ BKG_CORS_ORIGINS: 'https://a.example.com/app, a.example.com, *.example.com' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.filter((p) => p.startsWith('BKG_CORS_ORIGINS'))).toHaveLength(3);
  });
});
