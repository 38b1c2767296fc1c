import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

// What the metrics watch, by shape: the store, the ingest and the MQTT subscriber sit above the
// metrics (which every layer may count into), so the metrics name none of them.
/** Something that tells of each store query it ran (the instrumented store). */
export interface QueryEvents {
  onQuery(
    listener: (event: { readonly store: string; readonly durationMs: number; readonly ok: boolean }) => void,
  ): unknown;
}
/** Something that tells of each batch of readings it stored (the readings ingest). */
export interface IngestEvents {
  onIngest(
    listener: (event: { readonly source: string; readonly stored: number; readonly rejected: number }) => void,
  ): unknown;
}
/** A subscriber's connection state and message counters (the MQTT readings). */
export interface SubscriberState {
  readonly connected: boolean;
  readonly stats: { readonly messages: number; readonly badMessages: number };
}

// Seconds: an embedded query takes a millisecond, a large graph upload minutes.
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 120];

/**
 * The service's Prometheus metrics, in a registry of their own (so two services in one process,
 * as in tests, never share counters). Labels are bounded: route patterns, never paths or site ids.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: 'bkg_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern, status and client kind (key, user, anonymous; none before authentication).',
    labelNames: ['method', 'route', 'status', 'client_kind'] as const,
    registers: [this.registry],
  });

  readonly httpDuration = new Histogram({
    name: 'bkg_http_request_duration_seconds',
    help: 'Time from a request’s arrival to the end of its response, by method, route pattern and status.',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly rateLimited = new Counter({
    name: 'bkg_rate_limit_rejections_total',
    help: 'Requests refused with 429 by the rate limiter, by client kind.',
    labelNames: ['client_kind'] as const,
    registers: [this.registry],
  });

  readonly rateLimitDegraded = new Gauge({
    name: 'bkg_rate_limit_degraded',
    help: '1 while rate limits are counted in this process alone because Redis (REDIS_URL) does not answer, else 0.',
    registers: [this.registry],
  });

  readonly rateLimitFallbacks = new Counter({
    name: 'bkg_rate_limit_fallbacks_total',
    help: 'Times the rate limiter turned to counting in this process because Redis did not answer.',
    registers: [this.registry],
  });

  readonly uploadBytes = new Counter({
    name: 'bkg_upload_bytes_total',
    help: 'Bytes of accepted uploads: graph (Turtle, N-Triples, N-Quads, JSON-LD bodies) and file (site files and models).',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });

  readonly graphqlAnswerCache = new Counter({
    name: 'bkg_graphql_answer_cache_total',
    help: 'GraphQL queries by what the answer cache did: hit (answered from memory), not_modified (304 to If-None-Match), miss (executed and kept), uncached (live fields, errors, other operations).',
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  readonly graphqlAnswerCacheBytes = new Gauge({
    name: 'bkg_graphql_answer_cache_bytes',
    help: 'Bytes of GraphQL answers kept in memory (bounded by BKG_GRAPHQL_CACHE_MB).',
    registers: [this.registry],
  });

  readonly graphqlOperations = new Counter({
    name: 'bkg_graphql_operations_total',
    help: 'GraphQL operations executed, by operation type (query, subscription).',
    labelNames: ['type'] as const,
    registers: [this.registry],
  });

  readonly graphqlErrors = new Counter({
    name: 'bkg_graphql_errors_total',
    help: 'Errors in GraphQL responses, by extensions.code (NOT_FOUND, GRAPHQL_VALIDATION_FAILED, SERVICE_UNAVAILABLE, ...).',
    labelNames: ['code'] as const,
    registers: [this.registry],
  });

  readonly storeQueries = new Counter({
    name: 'bkg_store_queries_total',
    help: 'SPARQL queries sent to the triplestore, by store kind (oxigraph, sparql, comunica) and outcome (ok, error).',
    labelNames: ['store', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly storeDuration = new Histogram({
    name: 'bkg_store_query_duration_seconds',
    help: 'Duration of SPARQL queries in the triplestore, by store kind.',
    labelNames: ['store'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });

  readonly readingsStored = new Counter({
    name: 'bkg_readings_stored_total',
    help: 'Readings stored, by source (rest, mqtt, simulator).',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });

  readonly readingsRejected = new Counter({
    name: 'bkg_readings_rejected_total',
    help: 'Reading items refused by the checks (bad timestamp, value or id), by source.',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Counts and times every query the store runs. */
  watchStore(store: QueryEvents): void {
    store.onQuery(({ store: kind, durationMs, ok }) => {
      this.storeQueries.inc({ store: kind, outcome: ok ? 'ok' : 'error' });
      this.storeDuration.observe({ store: kind }, durationMs / 1000);
    });
  }

  /** Counts readings stored and refused, whichever way they came in. */
  watchReadings(ingest: IngestEvents): void {
    ingest.onIngest(({ source, stored, rejected }) => {
      if (stored > 0) this.readingsStored.inc({ source }, stored);
      if (rejected > 0) this.readingsRejected.inc({ source }, rejected);
    });
  }

  /** Exposes the MQTT subscriber's connection state and message counters, read at each scrape. */
  watchMqtt(mqtt: SubscriberState): void {
    new Gauge({
      name: 'bkg_mqtt_connected',
      help: '1 while the MQTT broker connection is up, else 0.',
      registers: [this.registry],
      collect() {
        this.set(mqtt.connected ? 1 : 0);
      },
    });
    const counter = (name: string, help: string, read: () => number) =>
      new Counter({
        name,
        help,
        registers: [this.registry],
        collect() {
          this.reset();
          this.inc(read());
        },
      });
    counter('bkg_mqtt_messages_total', 'MQTT messages received.', () => mqtt.stats.messages);
    counter(
      'bkg_mqtt_bad_messages_total',
      'MQTT messages refused whole (unknown topic or site, not JSON, too many readings, store failure).',
      () => mqtt.stats.badMessages,
    );
  }
}
