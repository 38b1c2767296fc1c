import { createHash, timingSafeEqual } from 'node:crypto';
import {
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { AppError, serviceUnavailable, unauthenticated } from '../errors/app-error.ts';
import type { AuthConfig } from '../config/auth-config.ts';
import type { Client } from './client.ts';
import type { KeyStore } from './key-store.ts';

/** Turns an Authorization header into a client, or fails with UNAUTHENTICATED. */
export interface Authenticator {
  authenticate(authorization: string | undefined, ip: string): Promise<Client>;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest();

// What jose throws when the key set could not be had: a timeout, a network failure (not a JOSE
// error), an answer other than 200 or not JSON (generic JOSE errors), a malformed set. Any other
// error, no key matching the token's kid and alg among them, is the token's fault.
const isFetchFailure = (error: unknown) =>
  !(error instanceof joseErrors.JOSEError) ||
  error instanceof joseErrors.JWKSTimeout ||
  error instanceof joseErrors.JWKSInvalid ||
  error.code === joseErrors.JOSEError.code;

/** The keys at a JWKS URL; a set that cannot be fetched is SERVICE_UNAVAILABLE, not the token's fault. */
function remoteKeys(url: string): JWTVerifyGetKey {
  const jwks = createRemoteJWKSet(new URL(url));
  return async (header, token) => {
    try {
      return await jwks(header, token);
    } catch (error) {
      if (isFetchFailure(error)) throw serviceUnavailable('The token keys could not be fetched', error);
      throw error;
    }
  };
}

/**
 * Bearer tokens: the bootstrap admin key (`BKG_ADMIN_KEY`), API keys (`bkg_…`, verified against
 * their stored hash) and user JWTs (HS256 with `BKG_JWT_SECRET`, or RS256/ES256 from `BKG_JWKS_URL`;
 * claim `sites` lists readable sites or `*`; `exp` enforced; `iss` and `aud` when configured).
 * No header: an anonymous client. Every token that does not verify is UNAUTHENTICATED, whatever
 * its shape; only a key set that cannot be fetched is SERVICE_UNAVAILABLE.
 */
export function createAuthenticator(auth: AuthConfig, keys: KeyStore): Authenticator {
  const adminKeyHash = auth.adminKey ? sha256(auth.adminKey) : undefined;
  const jwks = auth.jwksUrl ? remoteKeys(auth.jwksUrl) : undefined;
  const hmacKey = auth.jwtSecret ? new TextEncoder().encode(auth.jwtSecret) : undefined;
  const claims = { issuer: auth.jwtIssuer, audience: auth.jwtAudience ? [...auth.jwtAudience] : undefined };

  const verifyJwt = async (token: string): Promise<JWTPayload> => {
    try {
      // The header's alg picks the key; jwtVerify then insists on that algorithm.
      const { alg } = decodeProtectedHeader(token);
      if (alg === 'HS256' && hmacKey)
        return (await jwtVerify(token, hmacKey, { ...claims, algorithms: ['HS256'] })).payload;
      if ((alg === 'RS256' || alg === 'ES256') && jwks)
        return (await jwtVerify(token, jwks, { ...claims, algorithms: ['RS256', 'ES256'] })).payload;
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof joseErrors.JWTExpired) throw unauthenticated('The token has expired.');
      throw unauthenticated('The token is not valid.');
    }
    throw unauthenticated('The token is not valid.');
  };

  return {
    async authenticate(authorization, ip) {
      if (authorization === undefined || authorization === '') return { kind: 'anonymous', id: ip };
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
      if (!match) throw unauthenticated('The Authorization header must be "Bearer <token>".');
      const token = match[1]!;
      if (adminKeyHash && timingSafeEqual(sha256(token), adminKeyHash)) {
        return { kind: 'key', id: 'admin', name: 'BKG_ADMIN_KEY', sites: '*', write: true, admin: true };
      }
      if (token.startsWith('bkg_')) {
        const key = await keys.verify(token);
        if (!key) throw unauthenticated('The API key is not valid or was revoked.');
        return { kind: 'key', id: key.id, name: key.name, sites: key.sites, write: key.write, admin: key.admin };
      }
      if (token.split('.').length === 3 && (hmacKey || jwks)) {
        const payload = await verifyJwt(token);
        if (typeof payload.sub !== 'string' || payload.sub === '') throw unauthenticated('The token has no subject.');
        if (payload.exp === undefined) throw unauthenticated('The token has no expiry.');
        const sites =
          payload.sites === '*'
            ? '*'
            : Array.isArray(payload.sites)
              ? payload.sites.filter((s): s is string => typeof s === 'string')
              : [];
        return { kind: 'user', id: payload.sub, sites };
      }
      throw unauthenticated('The token is not valid.');
    },
  };
}
