// Bearer tokens of every broken shape: JWTs with a `crit` header naming an extension nobody
// supports, algorithms the service does not take, bad base64url, headers and payloads that are not
// JSON objects, claims of the wrong type, signatures that do not verify, expired tokens, API keys
// of the wrong form. Each is a 401 invalid_token, on REST and GraphQL alike, never a 503 or a 500
// (only a key set that cannot be fetched is a 503: test/integration/api/user-token-claims.test.ts).
// Meanwhile a valid user is served as usual.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CompactSign, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientIp, fetchFrom, postGraphQL } from '../../support/api-client.ts';
import { ADMIN_KEY, createHarness, type Harness } from '../../support/harness.ts';
import { expiredAt, hs256Token, JWT_SECRET, startJwksServer, type JwksServer } from '../../support/user-tokens.ts';
import { duringAttack } from './hostile-support.ts';

const fixture = readFileSync(new URL('../../../fixtures/small/tenant-a.ttl', import.meta.url), 'utf8');
const INVALID_TOKEN = 'Bearer error="invalid_token"';

// Started before the tests are collected: the table is made with its keys.
const jwks: JwksServer = await startJwksServer();
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sites: { alpha: fixture }, env: { BKG_JWT_SECRET: JWT_SECRET, BKG_JWKS_URL: jwks.url } });
});
afterAll(async () => {
  await h?.close();
  await jwks.close();
});

const secret = new TextEncoder().encode(JWT_SECRET);
const inTenMinutes = () => Math.floor(Date.now() / 1000) + 600;
const segment = (value: unknown) =>
  Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const claims = () => ({ sub: 'mallory', sites: '*', exp: inTenMinutes() });
/** A JWT of the given header and payload, and a signature that is not one. */
const forged = (header: unknown, payload: unknown = claims()) =>
  `${segment(header)}.${segment(payload)}.${randomBytes(32).toString('base64url')}`;
/** A JWS correctly signed with the service's HS256 secret, over any payload bytes. */
const signed = (payload: string | object, header: Record<string, unknown> = {}) =>
  new CompactSign(new TextEncoder().encode(typeof payload === 'string' ? payload : JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'HS256', ...header })
    .sign(secret);

async function tokens(): Promise<Array<[string, string]>> {
  const valid = await hs256Token({ sites: '*' });
  const [, payload, signature] = valid.split('.');
  const stranger = await generateKeyPair('RS256');
  return [
    [
      'crit naming an unknown extension (HS256, forged signature)',
      forged({ alg: 'HS256', typ: 'JWT', crit: ['zz'], zz: 1 }),
    ],
    [
      'crit naming an unknown extension (RS256, forged signature)',
      forged({ alg: 'RS256', kid: 'test-RS256', crit: ['zz'], zz: 1 }),
    ],
    [
      'crit naming an unknown extension (ES256, forged signature)',
      forged({ alg: 'ES256', kid: 'test-ES256', crit: ['zz'], zz: 1 }),
    ],
    [
      'crit naming an unknown extension, correctly signed',
      await new SignJWT(claims())
        .setProtectedHeader({ alg: 'HS256', crit: ['zz'], zz: 1 })
        .sign(secret, { crit: { zz: true } }),
    ],
    ['crit that is not a list', forged({ alg: 'HS256', crit: 'zz' })],
    ['crit naming a registered header', forged({ alg: 'HS256', crit: ['alg'] })],
    ['an unencoded payload (b64: false)', forged({ alg: 'HS256', b64: false, crit: ['b64'] })],
    ['alg none', `${segment({ alg: 'none', typ: 'JWT' })}.${segment(claims())}.`],
    [
      'alg HS512, correctly signed with the secret',
      await new SignJWT(claims())
        .setProtectedHeader({ alg: 'HS512' })
        .sign(new TextEncoder().encode(JWT_SECRET.repeat(2))),
    ],
    ['alg PS256', forged({ alg: 'PS256', kid: 'test-RS256' })],
    ['alg EdDSA', forged({ alg: 'EdDSA' })],
    ['alg of no algorithm', forged({ alg: 'XX999' })],
    ['alg a number', forged({ alg: 256 })],
    ['no alg', forged({ typ: 'JWT' })],
    ['RS256 header over an HS256 signature', `${segment({ alg: 'RS256', kid: 'test-RS256' })}.${payload}.${signature}`],
    [
      'a kid the key set does not hold',
      await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256', kid: 'nope' }).sign(stranger.privateKey),
    ],
    ['signed by a key the JWKS does not publish (RS256)', await jwks.signWithUnpublishedKey('RS256', { sites: '*' })],
    ['signed by a key the JWKS does not publish (ES256)', await jwks.signWithUnpublishedKey('ES256', { sites: '*' })],
    [
      'HS256 signed with another secret',
      await hs256Token({ sites: '*' }, 'another-secret-that-is-long-enough-0123456789'),
    ],
    [
      'a signature from another token',
      `${valid.split('.').slice(0, 2).join('.')}.${(await hs256Token({ sites: '*' })).split('.')[2]}`,
    ],
    ['a header that is not base64url', `!!!.${payload}.${signature}`],
    ['a header that is not JSON', `${segment('not json')}.${payload}.${signature}`],
    ['a header that is a JSON array', `${segment([{ alg: 'HS256' }])}.${payload}.${signature}`],
    ['a header that is JSON null', `${segment('null')}.${payload}.${signature}`],
    ['a payload that is not JSON, correctly signed', await signed('not json')],
    ['a payload that is a JSON array, correctly signed', await signed('[1,2,3]')],
    ['a sub that is a number, correctly signed', await signed({ ...claims(), sub: 42 })],
    ['an exp that is a string, correctly signed', await signed({ ...claims(), exp: 'tomorrow' })],
    ['an nbf in the future, correctly signed', await signed({ ...claims(), nbf: inTenMinutes() })],
    ['expired (HS256)', await hs256Token({ sites: '*', exp: expiredAt() })],
    ['expired (ES256)', await jwks.sign('ES256', { sites: '*', exp: expiredAt() })],
    ['empty segments', '..'],
    ['four segments', `${valid}.${signature}`],
    ['five segments (a JWE)', 'a.b.c.d.e'],
    ['8 KB of garbage around two dots', `${'x'.repeat(4000)}.${'y'.repeat(4000)}.z`],
    ['an API key too short', 'bkg_short'],
    ['an API key of characters outside base64url', `bkg_${'!'.repeat(43)}`],
    ['an unknown API key', `bkg_${randomBytes(32).toString('base64url')}`],
    ['the admin key with a character more', `${ADMIN_KEY}x`],
  ];
}

const table = await tokens();

describe('a malformed token answers 401 invalid_token, and a valid user is served meanwhile', () => {
  const innocent = async () => {
    const res = await fetchFrom(h, await hs256Token({ sites: ['alpha'] }), clientIp())('/api/v1/sites/alpha/');
    expect(res.status).toBe(200);
    expect((await res.json()).id).toBe('alpha');
  };

  it.each(table)('%s', async (_name, token) => {
    const ip = clientIp();
    const { attack } = await duringAttack(
      async () => [
        await fetchFrom(h, token, ip)('/api/v1/sites/alpha/'),
        await fetchFrom(
          h,
          token,
          ip,
        )('/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: '{ building(siteId: "alpha") { name } }' }),
        }),
      ],
      innocent,
    );
    const [rest, graphql] = attack;
    const [restBody, graphqlBody] = [await rest!.json(), await graphql!.json()];
    expect([rest!.status, rest!.headers.get('www-authenticate'), restBody.code]).toEqual([
      401,
      INVALID_TOKEN,
      'UNAUTHENTICATED',
    ]);
    expect([
      graphql!.status,
      graphql!.headers.get('www-authenticate'),
      graphqlBody.errors?.[0]?.extensions?.code,
      graphqlBody.data,
    ]).toEqual([401, INVALID_TOKEN, 'UNAUTHENTICATED', undefined]);
  });

  it('the valid tokens the table was made from are accepted', async () => {
    expect(
      (await postGraphQL(h, await hs256Token({ sites: ['alpha'] }), '{ building(siteId: "alpha") { name } }')).status,
    ).toBe(200);
    expect(
      (await fetchFrom(h, await jwks.sign('ES256', { sites: ['alpha'] }), clientIp())('/api/v1/sites/alpha/')).status,
    ).toBe(200);
  });
});
