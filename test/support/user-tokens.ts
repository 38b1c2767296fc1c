// User tokens for tests (docs/access.md, "Issuing a user token"): HS256 tokens signed with a shared secret, and RS256/ES256 tokens
// whose public keys a tiny loopback JWKS server publishes.
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';

/** The HS256 secret a harness is given as `BKG_JWT_SECRET`. */
export const JWT_SECRET = 'test-jwt-secret-0123456789abcdef-0123456789';

/** What a test puts in a user token; `exp: null` leaves the expiry out. */
export interface UserClaims {
  /** The user id; a fresh UUID unless given, `null` leaves it out. */
  sub?: string | null;
  /** The `sites` claim: a list of site ids or `*`; left out unless given. */
  sites?: unknown;
  /** Seconds since the epoch; ten minutes from now unless given. */
  exp?: number | null;
  /** The issuer; left out unless given. */
  iss?: string;
  /** The audience; left out unless given. */
  aud?: string | string[];
}

const now = () => Math.floor(Date.now() / 1000);

async function sign(
  claims: UserClaims,
  header: { alg: string; kid?: string },
  key: CryptoKey | Uint8Array,
): Promise<string> {
  const payload: Record<string, unknown> = {};
  if (claims.sites !== undefined) payload.sites = claims.sites;
  const jwt = new SignJWT(payload).setProtectedHeader({ ...header, typ: 'JWT' }).setIssuedAt();
  if (claims.sub !== null) jwt.setSubject(claims.sub ?? `user-${randomUUID()}`);
  if (claims.exp !== null) jwt.setExpirationTime(claims.exp ?? now() + 600);
  if (claims.iss !== undefined) jwt.setIssuer(claims.iss);
  if (claims.aud !== undefined) jwt.setAudience(claims.aud);
  return jwt.sign(key);
}

/** An HS256 user token signed with `secret` (by default the harness's `JWT_SECRET`). */
export function hs256Token(claims: UserClaims, secret = JWT_SECRET): Promise<string> {
  return sign(claims, { alg: 'HS256' }, new TextEncoder().encode(secret));
}

/** A moment in the past, for expired tokens. */
export const expiredAt = () => now() - 120;

/** A JWKS endpoint on a loopback port, and the private keys behind it. */
export interface JwksServer {
  /** The URL to give the service as `BKG_JWKS_URL`. */
  readonly url: string;
  /** A token signed with the published RS256 or ES256 key. */
  sign(alg: 'RS256' | 'ES256', claims: UserClaims): Promise<string>;
  /** A token signed with a key of the same kid that the JWKS does not publish. */
  signWithUnpublishedKey(alg: 'RS256' | 'ES256', claims: UserClaims): Promise<string>;
  close(): Promise<void>;
}

/** Starts a JWKS server publishing one RS256 and one ES256 public key. */
export async function startJwksServer(): Promise<JwksServer> {
  const algs = ['RS256', 'ES256'] as const;
  const published = new Map<string, CryptoKey>();
  const unpublished = new Map<string, CryptoKey>();
  const jwks: JWK[] = [];
  for (const alg of algs) {
    const pair = await generateKeyPair(alg);
    published.set(alg, pair.privateKey);
    unpublished.set(alg, (await generateKeyPair(alg)).privateKey);
    jwks.push({ ...(await exportJWK(pair.publicKey)), kid: `test-${alg}`, alg, use: 'sig' });
  }
  const body = JSON.stringify({ keys: jwks });
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end(body);
  });
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
  return {
    url,
    sign: (alg, claims) => sign(claims, { alg, kid: `test-${alg}` }, published.get(alg)!),
    signWithUnpublishedKey: (alg, claims) => sign(claims, { alg, kid: `test-${alg}` }, unpublished.get(alg)!),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
