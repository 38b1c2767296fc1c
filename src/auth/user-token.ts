import { SignJWT } from 'jose';
import type { AuthConfig } from '../config/auth-config.ts';

/** What a user token grants: who it names, which sites it may read (or every site), for how long. */
export interface UserTokenGrant {
  readonly subject: string;
  readonly sites: readonly string[] | '*';
  readonly lifetimeSeconds: number;
}

/** The claims of a user token as the authenticator reads them (see createAuthenticator). */
export interface UserTokenClaims {
  readonly sub: string;
  readonly sites: readonly string[] | '*';
  readonly iat: number;
  readonly exp: number;
  readonly iss?: string;
  readonly aud?: string;
}

/**
 * Signs an HS256 user token with `BKG_JWT_SECRET`, with the claims the service checks: `sub`,
 * `sites`, `exp`, and `iss` and `aud` when the service is configured to insist on them (the first
 * accepted audience, which is enough for `aud` to name one of them).
 */
export async function issueUserToken(
  grant: UserTokenGrant,
  auth: Pick<AuthConfig, 'jwtIssuer' | 'jwtAudience'> & { readonly jwtSecret: string },
  now: Date = new Date(),
): Promise<{ token: string; claims: UserTokenClaims }> {
  const iat = Math.floor(now.getTime() / 1000);
  const claims: UserTokenClaims = {
    sub: grant.subject,
    sites: grant.sites === '*' ? '*' : [...grant.sites],
    iat,
    exp: iat + grant.lifetimeSeconds,
    ...(auth.jwtIssuer === undefined ? {} : { iss: auth.jwtIssuer }),
    ...(auth.jwtAudience?.[0] === undefined ? {} : { aud: auth.jwtAudience[0] }),
  };
  const token = await new SignJWT({ ...claims })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .sign(new TextEncoder().encode(auth.jwtSecret));
  return { token, claims };
}
