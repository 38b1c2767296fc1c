// User tokens' issuer and audience (BKG_JWT_ISSUER, BKG_JWT_AUDIENCE): checked when set, on HS256
// and JWKS tokens alike; left alone when unset. And the one case a token is answered 503 rather than
// 401: a key set (BKG_JWKS_URL) that cannot be fetched, for a token only its keys could judge.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config/config.ts';
import { fetchAs } from '../../support/api-client.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import {
  hs256Token,
  JWT_SECRET,
  startJwksServer,
  type JwksServer,
  type UserClaims,
} from '../../support/user-tokens.ts';

const fixture = readFileSync(new URL('../../../fixtures/small/tenant-a.ttl', import.meta.url), 'utf8');
const ISSUER = 'https://login.example.com/';
const AUDIENCE = ['bkg-api', 'bkg-viewer'];

/** A port nothing listens on. */
const closedPort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

let jwks: JwksServer;
let checked: Harness;
let unchecked: Harness;
beforeAll(async () => {
  jwks = await startJwksServer();
  const unreachable = `http://127.0.0.1:${await closedPort()}/.well-known/jwks.json`;
  [checked, unchecked] = await Promise.all([
    createHarness({
      sites: { alpha: fixture },
      env: {
        BKG_JWT_SECRET: JWT_SECRET,
        BKG_JWKS_URL: jwks.url,
        BKG_JWT_ISSUER: ISSUER,
        BKG_JWT_AUDIENCE: ` ${AUDIENCE.join(' , ')} `,
      },
    }),
    createHarness({ sites: { alpha: fixture }, env: { BKG_JWT_SECRET: JWT_SECRET, BKG_JWKS_URL: unreachable } }),
  ]);
});
afterAll(async () => {
  await Promise.all([checked?.close(), unchecked?.close()]);
  await jwks?.close();
});

/** The status and error code of reading site alpha with `token`. */
async function read(h: Harness, token: string): Promise<[number, string | undefined]> {
  const res = await fetchAs(h, token)('/api/v1/sites/alpha/');
  const body = await res.json();
  return [res.status, body.code];
}

type Signer = (claims: UserClaims) => Promise<string>;
const SIGNERS: Array<[string, Signer]> = [
  ['HS256', (claims) => hs256Token(claims)],
  ['RS256', (claims) => jwks.sign('RS256', claims)],
  ['ES256', (claims) => jwks.sign('ES256', claims)],
];

describe('BKG_JWT_ISSUER and BKG_JWT_AUDIENCE', () => {
  it('are read as an issuer and a comma-separated list of audiences; empty leaves them unchecked', () => {
    expect(loadConfig({ BKG_JWT_ISSUER: ISSUER, BKG_JWT_AUDIENCE: 'bkg-api, bkg-viewer,' }).auth).toMatchObject({
      jwtIssuer: ISSUER,
      jwtAudience: AUDIENCE,
    });
    expect(loadConfig({ BKG_JWT_ISSUER: '', BKG_JWT_AUDIENCE: ' , ' }).auth).toMatchObject({
      jwtIssuer: undefined,
      jwtAudience: undefined,
    });
  });

  describe.each(SIGNERS)('%s tokens, when set', (_alg, sign) => {
    it.each<[string, UserClaims]>([
      ['the issuer and the first audience', { iss: ISSUER, aud: 'bkg-api' }],
      ['the issuer and the second audience', { iss: ISSUER, aud: 'bkg-viewer' }],
      ['the issuer and a list of audiences holding one of them', { iss: ISSUER, aud: ['elsewhere', 'bkg-viewer'] }],
    ])('accept %s', async (_name, claims) => {
      expect(await read(checked, await sign({ sites: ['alpha'], ...claims }))).toEqual([200, undefined]);
    });

    it.each<[string, UserClaims]>([
      ['no issuer', { aud: 'bkg-api' }],
      ['another issuer', { iss: 'https://login.example.org/', aud: 'bkg-api' }],
      ['the issuer without its trailing slash', { iss: ISSUER.slice(0, -1), aud: 'bkg-api' }],
      ['no audience', { iss: ISSUER }],
      ['another audience', { iss: ISSUER, aud: 'other-api' }],
      ['a list of audiences holding none of them', { iss: ISSUER, aud: ['other-api', 'BKG-API'] }],
    ])('refuse %s with 401', async (_name, claims) => {
      expect(await read(checked, await sign({ sites: ['alpha'], ...claims }))).toEqual([401, 'UNAUTHENTICATED']);
    });
  });

  it('when unset, a token is accepted whatever its issuer and audience', async () => {
    for (const claims of [{}, { iss: 'https://anyone.example/', aud: 'anything' }]) {
      expect(await read(unchecked, await hs256Token({ sites: ['alpha'], ...claims }))).toEqual([200, undefined]);
    }
  });
});

describe('a key set that cannot be fetched', () => {
  it('answers 503 to a token only its keys could judge, saying why', async () => {
    const res = await fetchAs(unchecked, await jwks.sign('RS256', { sites: ['alpha'] }))('/api/v1/sites/alpha/');
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({
      code: 'SERVICE_UNAVAILABLE',
      detail: 'The token keys could not be fetched',
    });
  });

  it('still answers 401 to tokens bad on their face, and serves HS256 users', async () => {
    const crit = `${Buffer.from(JSON.stringify({ alg: 'RS256', crit: ['zz'], zz: 1 })).toString('base64url')}.e30.c2ln`;
    for (const token of [crit, 'a.b.c', `${Buffer.from('{"alg":"PS256"}').toString('base64url')}.e30.c2ln`]) {
      expect(await read(unchecked, token)).toEqual([401, 'UNAUTHENTICATED']);
    }
    expect(await read(unchecked, await hs256Token({ sites: ['alpha'] }))).toEqual([200, undefined]);
  });
});
