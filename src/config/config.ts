import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Everything the service reads from its environment, parsed once. */
export interface Config {
  readonly port: number;
  readonly host: string;
  /** Where the embedded engines keep their data. */
  readonly dataDir: string;
  /** The ontology file loaded into the ontology graph (derived hierarchy or a full Brick.ttl). */
  readonly ontologyPath: string;
  /** A directory of `<siteId>.ttl` files loaded at start-up, each replacing that site's graph. */
  readonly sitesDir: string | undefined;
  /** The demo site's Turtle fixture; loaded at start-up as site `demo`. Empty disables the demo. */
  readonly demoFixture: string | undefined;
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** development unmasks unexpected errors and enables `?explain`. */
  readonly environment: 'development' | 'production' | 'test';
  /** PostgreSQL connection string for records and readings; unset keeps them in PGlite in the data directory. */
  readonly databaseUrl: string | undefined;
  /** Redis for shared rate-limit counters and events across replicas; unset keeps them in memory. */
  readonly redisUrl: string | undefined;
  readonly auth: {
    /** Accepted as an admin API key (for bootstrapping the first keys). */
    readonly adminKey: string | undefined;
    /** HS256 secret for user tokens. */
    readonly jwtSecret: string | undefined;
    /** JWKS URL for RS256/ES256 user tokens. */
    readonly jwksUrl: string | undefined;
  };
  /** Requests per minute by client kind. */
  readonly rateLimits: { readonly key: number; readonly user: number; readonly anonymous: number; readonly windowMs: number };
  /** How often the demo site returns to its fixture state, in seconds; 0 disables the reset. */
  readonly demoResetSeconds: number;
  /** Largest graph upload (Turtle, N-Triples, N-Quads, JSON-LD), in bytes. */
  readonly maxGraphUploadBytes: number;
  readonly graphqlLimits: {
    readonly maxDepth: number;
    readonly maxAliases: number;
    readonly maxCost: number;
    readonly maxTokens: number;
  };
}

/** The repository root, for paths that default to files the project ships. */
export const projectRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** Thrown when the environment holds a value the service cannot use; one line per problem. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Parses the environment into a frozen Config; the only reader of process.env. */
export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const int = (name: string, fallback: number, min: number, max: number): number => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      problems.push(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
      return fallback;
    }
    return value;
  };
  const oneOf = <T extends string>(name: string, allowed: readonly T[], fallback: T): T => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if ((allowed as readonly string[]).includes(raw)) return raw as T;
    problems.push(`${name} must be one of ${allowed.join(', ')}, got "${raw}"`);
    return fallback;
  };
  const path = (name: string, fallback: string | undefined): string | undefined => {
    const raw = env[name];
    if (raw === undefined) return fallback;
    return raw === '' ? undefined : resolve(raw);
  };

  const url = (name: string, protocols: readonly string[]): string | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    try {
      const parsed = new URL(raw);
      if (protocols.includes(parsed.protocol)) return raw;
    } catch {
      // reported below
    }
    problems.push(`${name} must be a ${protocols.map((p) => p.replace(':', '')).join(' or ')} URL`);
    return undefined;
  };
  const secret = (name: string, minLength: number): string | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    // Never echo the value: it is a secret.
    if (raw.length < minLength) problems.push(`${name} must be at least ${minLength} characters long`);
    return raw;
  };
  const environment = oneOf('NODE_ENV', ['development', 'production', 'test'] as const, 'production');
  const config: Config = {
    port: int('PORT', 4000, 0, 65535),
    host: env.HOST || '0.0.0.0',
    dataDir: path('BKG_DATA_DIR', resolve(projectRoot, 'data'))!,
    ontologyPath: path('BKG_ONTOLOGY', resolve(projectRoot, 'ontology/brick-hierarchy.ttl'))!,
    sitesDir: path('BKG_SITES_DIR', undefined),
    demoFixture: path('BKG_DEMO_FIXTURE', resolve(projectRoot, 'fixtures/demo.ttl')),
    logLevel: oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    environment,
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    auth: {
      adminKey: secret('BKG_ADMIN_KEY', 16),
      jwtSecret: secret('BKG_JWT_SECRET', 32),
      jwksUrl: url('BKG_JWKS_URL', ['https:', 'http:']),
    },
    rateLimits: {
      key: int('BKG_RATE_LIMIT_KEY', 2400, 1, 10_000_000),
      user: int('BKG_RATE_LIMIT_USER', 1200, 1, 10_000_000),
      anonymous: int('BKG_RATE_LIMIT_ANONYMOUS', 120, 1, 10_000_000),
      windowMs: int('BKG_RATE_LIMIT_WINDOW_MS', 60_000, 1000, 86_400_000),
    },
    demoResetSeconds: int('BKG_DEMO_RESET_SECONDS', 3600, 0, 31_536_000),
    maxGraphUploadBytes: int('BKG_MAX_GRAPH_UPLOAD_BYTES', 1024 * 1024 * 1024, 1024, Number.MAX_SAFE_INTEGER),
    graphqlLimits: {
      maxDepth: int('BKG_GRAPHQL_MAX_DEPTH', 12, 1, 100),
      maxAliases: int('BKG_GRAPHQL_MAX_ALIASES', 30, 1, 1000),
      maxCost: int('BKG_GRAPHQL_MAX_COST', 5000, 1, 1_000_000),
      maxTokens: int('BKG_GRAPHQL_MAX_TOKENS', 2000, 10, 100_000),
    },
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    ...config,
    auth: Object.freeze(config.auth),
    rateLimits: Object.freeze(config.rateLimits),
    graphqlLimits: Object.freeze(config.graphqlLimits),
  });
}
