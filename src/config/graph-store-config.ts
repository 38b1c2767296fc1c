/** Which triplestore serves the graphs, and how to reach it when it is external. */
export interface GraphStoreConfig {
  readonly kind: 'oxigraph' | 'sparql' | 'comunica';
  /** Threads of the embedded store, each with a copy of every graph: queries of that many sites run at once. */
  readonly threads: number;
  /** Most triples one site's graph may hold in the embedded store; undefined: no quota. */
  readonly siteQuotaTriples: number | undefined;
  /** Threads of the embedded store's SPARQL endpoint sandbox, each with its own copies: client queries of that many sites run at once. */
  readonly sandboxThreads: number;
  /** SPARQL 1.1 Protocol query endpoint (kind `sparql`). */
  readonly queryUrl: string | undefined;
  /** SPARQL 1.1 Update endpoint; defaults to the query endpoint. */
  readonly updateUrl: string | undefined;
  /** Graph Store Protocol endpoint for bulk loads; unset loads with chunked INSERTs. */
  readonly gspUrl: string | undefined;
  readonly user: string | undefined;
  readonly password: string | undefined;
  readonly authScheme: 'basic' | 'digest';
  /** Deadline of one query, in milliseconds. */
  readonly timeoutMs: number;
  /** Keep-alive connections to the endpoint; further requests wait for one. */
  readonly maxConnections: number;
  /** The endpoint's quirks; `auto` reads them off the server's answer. */
  readonly dialect: 'auto' | 'standard' | 'virtuoso';
  /** Where the service's graphs live on the endpoint instead of `urn:bkg:` (a triplestore shared by several deployments). */
  readonly graphNamespace: string | undefined;
}

/** The parsers `loadConfig` shares, so every variable is read and reported the same way. */
export interface EnvReaders {
  int(name: string, fallback: number, min: number, max: number): number;
  oneOf<T extends string>(name: string, allowed: readonly T[], fallback: T): T;
  url(name: string, protocols: readonly string[]): string | undefined;
}

// An absolute IRI (scheme, then no spaces, quotes or angle brackets) that graph names can follow.
const GRAPH_NAMESPACE = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s<>"{}|^`\\]*[:/#]$/;

/** The graph store settings: `BKG_GRAPH_STORE` and the `SPARQL_*` variables. */
export function graphStoreConfig(
  env: Record<string, string | undefined>,
  problems: string[],
  read: EnvReaders,
): GraphStoreConfig {
  const config: GraphStoreConfig = {
    kind: read.oneOf('BKG_GRAPH_STORE', ['oxigraph', 'sparql', 'comunica'] as const, 'oxigraph'),
    threads: read.int('BKG_STORE_THREADS', 2, 1, 16),
    // ~0.5 KB a triple in each thread (docs/benchmarks.md): 10M is ~5 GiB a copy. 0 turns it off.
    siteQuotaTriples: read.int('BKG_SITE_QUOTA_TRIPLES', 10_000_000, 0, Number.MAX_SAFE_INTEGER) || undefined,
    sandboxThreads: read.int('BKG_SPARQL_THREADS', 2, 1, 16),
    queryUrl: read.url('SPARQL_QUERY_URL', ['http:', 'https:']),
    updateUrl: read.url('SPARQL_UPDATE_URL', ['http:', 'https:']),
    gspUrl: read.url('SPARQL_GSP_URL', ['http:', 'https:']),
    user: env.SPARQL_USER || undefined,
    password: env.SPARQL_PASSWORD || undefined,
    authScheme: read.oneOf('SPARQL_AUTH', ['basic', 'digest'] as const, 'basic'),
    timeoutMs: read.int('SPARQL_TIMEOUT_MS', 30_000, 100, 3_600_000),
    maxConnections: read.int('SPARQL_MAX_CONNECTIONS', 16, 1, 1024),
    dialect: read.oneOf('SPARQL_DIALECT', ['auto', 'standard', 'virtuoso'] as const, 'auto'),
    graphNamespace: env.SPARQL_GRAPH_NAMESPACE || undefined,
  };
  if (config.graphNamespace !== undefined && !GRAPH_NAMESPACE.test(config.graphNamespace)) {
    problems.push(
      `SPARQL_GRAPH_NAMESPACE must be an IRI prefix ending in ":", "/" or "#" (such as urn:acme:staging:), got "${config.graphNamespace}"`,
    );
  }
  if (config.kind === 'sparql' && !config.queryUrl)
    problems.push('SPARQL_QUERY_URL is required when BKG_GRAPH_STORE is sparql');
  return Object.freeze(config);
}
