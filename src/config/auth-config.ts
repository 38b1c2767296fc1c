/** Who may call: the bootstrap admin key, and the keys and claims user tokens are checked against. */
export interface AuthConfig {
  /** Accepted as an admin API key (for bootstrapping the first keys). */
  readonly adminKey: string | undefined;
  /** HS256 secret for user tokens. */
  readonly jwtSecret: string | undefined;
  /** JWKS URL for RS256/ES256 user tokens. */
  readonly jwksUrl: string | undefined;
  /** When set, a user token's `iss` must be exactly this. */
  readonly jwtIssuer: string | undefined;
  /** When set, a user token's `aud` must name one of these. */
  readonly jwtAudience: readonly string[] | undefined;
}

/** The readers `loadConfig` shares, so every variable is checked and reported the same way. */
interface Readers {
  url(name: string, protocols: readonly string[]): string | undefined;
  secret(name: string, minLength: number): string | undefined;
}

/** The authentication settings: `BKG_ADMIN_KEY`, `BKG_JWT_SECRET`, `BKG_JWKS_URL`, `BKG_JWT_ISSUER`, `BKG_JWT_AUDIENCE`. */
export function authConfig(env: Record<string, string | undefined>, read: Readers): AuthConfig {
  const audience = (env.BKG_JWT_AUDIENCE ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  return Object.freeze({
    adminKey: read.secret('BKG_ADMIN_KEY', 16),
    jwtSecret: read.secret('BKG_JWT_SECRET', 32),
    jwksUrl: read.url('BKG_JWKS_URL', ['https:', 'http:']),
    jwtIssuer: env.BKG_JWT_ISSUER?.trim() || undefined,
    jwtAudience: audience.length > 0 ? Object.freeze(audience) : undefined,
  });
}
