/**
 * HTTP to a SPARQL endpoint: keep-alive connections (undici) up to a bound, credentials, a
 * deadline per query, cancellation when the client of the request being served goes away, and
 * one mapping of failures: unreachable, slow, refusing or failing endpoints are
 * SERVICE_UNAVAILABLE; an endpoint rejecting what we sent is an internal error.
 *
 * Two failures of a SQL-backed endpoint (Virtuoso) are read from the SQLSTATE its error body
 * names (`Virtuoso 40001 Error SR172: Transaction deadlocked`):
 * - 40001, a transaction chosen as a deadlock's victim: SQL's "try again", so a read (which
 *   changes nothing) is sent again, twice at most, while its deadline allows;
 * - S1TAT, a query stopped at its time limit while it was writing its answer (HTTP 500 after
 *   part of the results; before any, it answers 200 and says so in a header): the deadline's error.
 */
import { createReadStream } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { serviceUnavailable } from '../errors/app-error.ts';
import { cancelled } from '../limits/fair-queue.ts';
import { HttpAuth, type Credentials } from './http-auth.ts';

/** A request body whose length is known (some endpoints ignore chunked bodies). */
export type SizedBody = string | Buffer | { readonly path: string; readonly size: number };

export interface SparqlHttpClientOptions {
  readonly credentials?: Credentials | undefined;
  /** Deadline of a request that has one (queries), in milliseconds. */
  readonly timeoutMs: number;
  /** Connections kept per endpoint origin; more requests wait for a free one. */
  readonly maxConnections: number;
}

export interface HttpAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly text: string;
}

export interface SendOptions {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly headers?: Record<string, string>;
  /** Made anew for each attempt (a Digest challenge costs one retry). */
  readonly body?: () => SizedBody;
  /** Whether the request has the query deadline; loads have none (their size is unbounded). */
  readonly deadline: boolean;
  /** A deadline of its own (a client's query), and the error to throw when it passes. */
  readonly ownDeadline?: { readonly ms: number; readonly error: () => Error };
  /** Statuses that are answers rather than failures (404 for an absent graph). */
  readonly accept?: readonly number[];
  /** The client's request: aborted when it went away, which stops the query. */
  readonly signal?: AbortSignal;
  /** A read, which may be sent again when the endpoint chose it as a deadlock's victim. */
  readonly idempotent?: boolean;
}

/** Times a read chosen as a deadlock's victim is sent again. */
const DEADLOCK_RETRIES = 2;

/** The SQLSTATE a SQL-backed endpoint's error body names (see the file comment). */
const sqlState = (body: string): string | undefined => /\bVirtuoso (\w{5}) Error\b/.exec(body)?.[1];

/** The endpoint answered with a status that says our request was wrong. */
export class SparqlEndpointError extends Error {
  constructor(
    readonly status: number,
    body: string,
  ) {
    super(`The SPARQL endpoint answered HTTP ${status}: ${body.slice(0, 500)}`);
    this.name = 'SparqlEndpointError';
  }
}

const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

/** One endpoint's connections and credentials. */
export class SparqlHttpClient {
  private readonly agent: Agent;
  private readonly auth: HttpAuth | undefined;

  constructor(private readonly options: SparqlHttpClientOptions) {
    this.agent = new Agent({
      connections: options.maxConnections,
      keepAliveTimeout: 30_000,
      // Deadlines are signals per request; these only stop a connection that went silent.
      headersTimeout: 0,
      bodyTimeout: 0,
      connect: { timeout: Math.min(options.timeoutMs, 10_000) },
    });
    this.auth = options.credentials && new HttpAuth(options.credentials);
  }

  /** Sends a request and reads its whole answer; throws AppErrors for failures (see the file comment). */
  async send(url: URL, options: SendOptions): Promise<HttpAnswer> {
    const deadlineMs = options.ownDeadline?.ms ?? this.options.timeoutMs;
    const deadline = options.deadline ? AbortSignal.timeout(deadlineMs) : undefined;
    const signals = [deadline, options.signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
    for (let attempt = 0, victims = 0; ; attempt++) {
      const authorization = this.auth?.header(options.method, url);
      let answer: HttpAnswer;
      try {
        answer = await this.once(url, options, authorization, signal);
      } catch (error) {
        if (deadline?.aborted)
          throw (
            options.ownDeadline?.error() ??
            serviceUnavailable(`The triplestore did not answer within ${deadlineMs} ms.`, error)
          );
        if (signal?.aborted) throw cancelled(options.signal, error);
        throw serviceUnavailable('The triplestore cannot be reached.', error);
      }
      if (
        answer.status === 401 &&
        attempt === 0 &&
        this.auth?.accept(header(answer.headers['www-authenticate']), authorization !== undefined)
      )
        continue;
      if ((answer.status >= 200 && answer.status < 300) || options.accept?.includes(answer.status)) return answer;
      const failure = new SparqlEndpointError(answer.status, answer.text);
      if (answer.status === 401 || answer.status === 403)
        throw serviceUnavailable('The triplestore refused our credentials.', failure);
      const state = answer.status >= 500 ? sqlState(answer.text) : undefined;
      if (state === 'S1TAT')
        throw (
          options.ownDeadline?.error() ??
          serviceUnavailable('The triplestore stopped the query at its own time limit.', failure)
        );
      if (state === '40001' && options.idempotent && victims < DEADLOCK_RETRIES && !signal?.aborted) {
        victims++;
        await delay(25 * victims + Math.random() * 50);
        continue;
      }
      if (answer.status >= 500 || answer.status === 429)
        throw serviceUnavailable(`The triplestore failed (HTTP ${answer.status}).`, failure);
      throw failure;
    }
  }

  private async once(
    url: URL,
    options: SendOptions,
    authorization: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<HttpAnswer> {
    const headers: Record<string, string> = { ...options.headers };
    if (authorization) headers.authorization = authorization;
    const body = options.body?.();
    let payload: string | Buffer | NodeJS.ReadableStream | undefined;
    if (typeof body === 'string' || Buffer.isBuffer(body)) payload = body;
    else if (body) {
      payload = createReadStream(body.path);
      headers['content-length'] = String(body.size);
    }
    const response = await request(url, {
      method: options.method,
      headers,
      body: payload as never,
      signal,
      dispatcher: this.agent,
    });
    return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
  }

  /** Closes the kept connections. */
  async close(): Promise<void> {
    await this.agent.close();
  }
}
