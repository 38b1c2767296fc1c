import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { authConfig, type AuthConfig } from './auth-config.ts';
import { subscriptionCapConfig, type SubscriptionCapConfig } from './subscription-cap-config.ts';
import { corsConfig, type CorsConfig } from './cors-config.ts';
import { ifcConfig, type IfcConfig } from './ifc-config.ts';
import { limitsConfig, type LimitsConfig } from './limits-config.ts';
import { readingsConfig, type ReadingsConfig } from './readings-config.ts';
import { validationConfig, type ValidationConfig } from './validation-config.ts';
import { historyConfig, type HistoryConfig } from './history-config.ts';
import { graphStoreConfig, type GraphStoreConfig } from './graph-store-config.ts';

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
  /** The bootstrap admin key, and what user tokens are checked against. */
  readonly auth: AuthConfig;
  /** Requests per minute by client kind. */
  readonly rateLimits: {
    readonly key: number;
    readonly user: number;
    readonly anonymous: number;
    readonly windowMs: number;
  };
  /** Subscriptions one client may hold open at once, by client kind. */
  readonly subscriptionCaps: SubscriptionCapConfig;
  /** Which web pages on other origins may call the service. */
  readonly cors: CorsConfig;
  /** How often the demo site returns to its fixture state, in seconds; 0 disables the reset. */
  readonly demoResetSeconds: number;
  /** Readings: MQTT ingestion, live events across replicas, the demo simulator. */
  readonly readings: ReadingsConfig;
  /** Largest graph upload (Turtle, N-Triples, N-Quads, JSON-LD), in bytes. */
  readonly maxGraphUploadBytes: number;
  /** Site files and models: where their bytes live, upload limit, downloads, the demo's file set. */
  readonly files: FilesConfig;
  /** Reading IFC files and converting them to fragments: workers and their limits. */
  readonly ifc: IfcConfig;
  /** The triplestore: embedded Oxigraph, any SPARQL 1.1 endpoint, or Comunica over embedded data. */
  readonly graphStore: GraphStoreConfig;
  /** The per-site SPARQL endpoint: how long a client's query may run, and how many results it may give. */
  readonly sparqlEndpoint: { readonly timeoutMs: number; readonly maxResults: number };
  /** Model validation: its threads, how long one validation may run and how much heap a thread may take. */
  readonly validation: ValidationConfig;
  /** The versions of each site's graph: how long their changes are kept, and up to which size a load's changes are worked out. */
  readonly history: HistoryConfig;
  /** Bearer token `/metrics` requires; unset: `/metrics` is open (scrapers inside the deployment's network). */
  readonly metricsToken: string | undefined;
  /** On SIGTERM, how long in-flight requests may take to finish before their connections are cut, in seconds. */
  readonly shutdownGraceSeconds: number;
  /** What one request may cost: engine-work deadline, and budgets of entities, bytes and rows by client tier. */
  readonly limits: LimitsConfig;
  readonly graphqlLimits: {
    readonly maxDepth: number;
    readonly maxAliases: number;
    readonly maxCost: number;
    readonly maxTokens: number;
  };
  /** Bytes of GraphQL answers kept in memory, by query and the versions it read (0: none kept). */
  readonly graphqlCacheBytes: number;
}

/** S3-compatible storage for file bytes (MinIO, AWS S3, s3rver). */
export interface S3Config {
  /** `http(s)://host:port` of the S3 API, as the service reaches it. */
  readonly endpoint: string;
  /** The same store as viewers reach it, for presigned URLs; defaults to `endpoint`. */
  readonly publicEndpoint: string;
  readonly bucket: string;
  readonly accessKey: string;
  readonly secretKey: string;
  readonly region: string;
}

/** Site files and models (docs/configuration.md, "Files, 3D models and IFC"). */
export interface FilesConfig {
  /** Largest file upload, in bytes (413 above it). */
  readonly maxUploadBytes: number;
  /** Most bytes one site's files and models may take together (413 QUOTA_EXCEEDED past it); undefined: no quota. */
  readonly siteQuotaBytes: number | undefined;
  /** Set: bytes go to S3; unset: to `<dataDir>/blobs`. */
  readonly s3: S3Config | undefined;
  /** Whether downloads answer 302 to a presigned URL by default (S3 only; `?redirect=0|1` overrides). */
  readonly downloadRedirect: boolean;
  /** How long a presigned download URL stays valid, in seconds. */
  readonly downloadUrlSeconds: number;
  /** The demo site's file set (a directory with manifest.json); unset: the demo has no files. */
  readonly demoFilesDir: string | undefined;
}

/** S3 takes at most 5 GiB in one PUT, and uploads are sent to it in one PUT. */
export const S3_MAX_OBJECT_BYTES = 5 * 1024 ** 3;

/** The repository root, for paths that default to files the project ships. */
export const projectRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));

/** The ontology the project ships (derived from Brick by `npm run build:ontology`). */
export const defaultOntologyPath = resolve(projectRoot, 'ontology/brick-hierarchy.ttl');

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
    ontologyPath: path('BKG_ONTOLOGY', defaultOntologyPath)!,
    sitesDir: path('BKG_SITES_DIR', undefined),
    demoFixture: path('BKG_DEMO_FIXTURE', resolve(projectRoot, 'fixtures/demo.ttl')),
    logLevel: oneOf('LOG_LEVEL', ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const, 'info'),
    environment,
    databaseUrl: url('DATABASE_URL', ['postgres:', 'postgresql:']),
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    auth: authConfig(env, { url, secret }),
    rateLimits: {
      key: int('BKG_RATE_LIMIT_KEY', 2400, 1, 10_000_000),
      user: int('BKG_RATE_LIMIT_USER', 1200, 1, 10_000_000),
      anonymous: int('BKG_RATE_LIMIT_ANONYMOUS', 120, 1, 10_000_000),
      windowMs: int('BKG_RATE_LIMIT_WINDOW_MS', 60_000, 1000, 86_400_000),
    },
    subscriptionCaps: subscriptionCapConfig({ int }),
    cors: corsConfig(env, problems),
    demoResetSeconds: int('BKG_DEMO_RESET_SECONDS', 3600, 0, 31_536_000),
    readings: readingsConfig(env, problems, { int, oneOf, url }),
    maxGraphUploadBytes: int('BKG_MAX_GRAPH_UPLOAD_BYTES', 1024 * 1024 * 1024, 1024, Number.MAX_SAFE_INTEGER),
    files: {
      maxUploadBytes: int('BKG_MAX_FILE_UPLOAD_BYTES', 2 * 1024 ** 3, 1, Number.MAX_SAFE_INTEGER),
      // 0 turns the quota off; the default holds five uploads of the largest size.
      siteQuotaBytes: int('BKG_SITE_QUOTA_BYTES', 10 * 1024 ** 3, 0, Number.MAX_SAFE_INTEGER) || undefined,
      s3: s3Config(env, problems, url, secret),
      downloadRedirect: oneOf('BKG_DOWNLOAD_REDIRECT', ['true', 'false'] as const, 'false') === 'true',
      downloadUrlSeconds: int('BKG_DOWNLOAD_URL_SECONDS', 300, 1, 604_800),
      demoFilesDir: path('BKG_DEMO_FILES', resolve(projectRoot, 'fixtures/demo-files')),
    },
    ifc: ifcConfig({ int }),
    graphStore: graphStoreConfig(env, problems, { int, oneOf, url }),
    sparqlEndpoint: {
      timeoutMs: int('BKG_SPARQL_TIMEOUT_MS', 10_000, 100, 600_000),
      maxResults: int('BKG_SPARQL_MAX_RESULTS', 10_000, 1, 1_000_000),
    },
    validation: validationConfig({ int }),
    history: historyConfig({ int }, env),
    metricsToken: secret('BKG_METRICS_TOKEN', 16),
    shutdownGraceSeconds: int('BKG_SHUTDOWN_GRACE_SECONDS', 25, 0, 3600),
    limits: limitsConfig({ int }),
    graphqlLimits: {
      maxDepth: int('BKG_GRAPHQL_MAX_DEPTH', 12, 1, 100),
      maxAliases: int('BKG_GRAPHQL_MAX_ALIASES', 30, 1, 1000),
      maxCost: int('BKG_GRAPHQL_MAX_COST', 5000, 1, 1_000_000),
      maxTokens: int('BKG_GRAPHQL_MAX_TOKENS', 2000, 10, 100_000),
    },
    // A dashboard's answers are tens of kB: 64 MB keeps thousands of them.
    graphqlCacheBytes: int('BKG_GRAPHQL_CACHE_MB', 64, 0, 65_536) * 1024 * 1024,
  };
  if (config.files.s3 && config.files.maxUploadBytes > S3_MAX_OBJECT_BYTES) {
    problems.push(
      `BKG_MAX_FILE_UPLOAD_BYTES must be at most ${S3_MAX_OBJECT_BYTES} (5 GiB, one S3 PUT) when S3_ENDPOINT is set`,
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);
  return Object.freeze({
    ...config,
    rateLimits: Object.freeze(config.rateLimits),
    graphqlLimits: Object.freeze(config.graphqlLimits),
    sparqlEndpoint: Object.freeze(config.sparqlEndpoint),
    files: Object.freeze({ ...config.files, s3: config.files.s3 && Object.freeze(config.files.s3) }),
  });
}

// S3 bucket names: 3 to 63 lowercase letters, digits, dots and hyphens, starting and ending with a letter or digit.
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** The S3 settings, when S3_ENDPOINT is set; the keys are then required. */
function s3Config(
  env: Env,
  problems: string[],
  url: (name: string, protocols: readonly string[]) => string | undefined,
  secret: (name: string, minLength: number) => string | undefined,
): S3Config | undefined {
  const endpoint = url('S3_ENDPOINT', ['http:', 'https:']);
  const publicEndpoint = url('S3_PUBLIC_ENDPOINT', ['http:', 'https:']);
  if (!endpoint) return undefined;
  const bucket = env.S3_BUCKET || 'bkg-files';
  if (!BUCKET_NAME.test(bucket))
    problems.push(
      `S3_BUCKET must be a valid bucket name (3-63 lowercase letters, digits, dots, hyphens), got "${bucket}"`,
    );
  const accessKey = env.S3_ACCESS_KEY || undefined;
  const secretKey = secret('S3_SECRET_KEY', 1);
  if (!accessKey || !secretKey) problems.push('S3_ACCESS_KEY and S3_SECRET_KEY are required when S3_ENDPOINT is set');
  return {
    endpoint,
    publicEndpoint: publicEndpoint ?? endpoint,
    bucket,
    accessKey: accessKey ?? '',
    secretKey: secretKey ?? '',
    region: env.S3_REGION || 'us-east-1',
  };
}
