import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ApiError, describeErrorBody, UnreachableError } from './errors.ts';

/** A request body streamed from somewhere (a file), with its length when known. */
export interface StreamBody {
  readonly stream: Readable;
  readonly contentType: string;
  readonly length?: number;
}

export interface RequestOptions {
  /** Sent as JSON. */
  readonly json?: unknown;
  /** Streamed as the body (never buffered). */
  readonly body?: StreamBody;
  readonly accept?: string;
  /** The version a change is based on, sent as If-Match (`"v12"`). */
  readonly ifMatch?: number;
}

/** How long to wait for the TCP (and TLS) connection before calling the service unreachable. */
const CONNECT_TIMEOUT_MS = 15_000;

const REASONS: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  ETIMEDOUT: 'connection timed out',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
};

/**
 * A small client for the service's REST API over node:http(s): JSON calls, a streamed upload and a
 * streamed download. Error statuses become ApiError (one line from the DRF-style body); failing to
 * connect becomes UnreachableError.
 */
export class ApiClient {
  private readonly base: URL;

  constructor(
    baseUrl: string,
    private readonly token: string | undefined,
  ) {
    // A base with a path (https://host/bkg) keeps it: API paths are resolved relative to it.
    this.base = new URL(baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
  }

  /** The base URL as given, for messages. */
  get url(): string {
    return this.base.href.replace(/\/$/, '');
  }

  get hasToken(): boolean {
    return this.token !== undefined;
  }

  /** An API path as a full URL, and the headers that authenticate a call to it: for clients other than this one (MCP's). */
  endpoint(path: string): { url: URL; headers: Record<string, string> } {
    return {
      url: new URL(path, this.base),
      headers: this.token === undefined ? {} : { authorization: `Bearer ${this.token}` },
    };
  }

  /** A JSON call; the parsed answer (undefined for 204), or ApiError. */
  async call<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const response = await this.send(method, path, { accept: 'application/json', ...options });
    const text = await readText(response);
    if (response.statusCode === 204 || text === '') return undefined as T;
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new ApiError(
        response.statusCode ?? 0,
        `The service answered ${response.statusCode} with a body that is not JSON.`,
        undefined,
      );
    }
  }

  /** A call whose successful answer is streamed to the caller (an export); errors as in `call`. */
  async stream(method: string, path: string, options: RequestOptions = {}): Promise<IncomingMessage> {
    return this.send(method, path, options);
  }

  /** Sends a request; resolves with a 2xx response (body unread), else rejects. */
  private async send(method: string, path: string, options: RequestOptions): Promise<IncomingMessage> {
    const url = new URL(path.replace(/^\//, ''), this.base);
    const headers: Record<string, string> = { 'user-agent': 'bkg-cli' };
    if (options.accept) headers.accept = options.accept;
    if (options.ifMatch !== undefined) headers['if-match'] = `"v${options.ifMatch}"`;
    if (this.token) headers.authorization = `Bearer ${this.token}`;
    let payload: Buffer | undefined;
    if (options.json !== undefined) {
      payload = Buffer.from(JSON.stringify(options.json));
      headers['content-type'] = 'application/json';
      headers['content-length'] = String(payload.length);
    } else if (options.body) {
      headers['content-type'] = options.body.contentType;
      if (options.body.length !== undefined) headers['content-length'] = String(options.body.length);
    }

    const transport = url.protocol === 'https:' ? https : http;
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      // agent: false: one connection, closed afterwards, so nothing keeps the process alive.
      const req = transport.request(url, { method, headers, agent: false });
      let answered = false;
      const connectTimer = setTimeout(
        () => req.destroy(Object.assign(new Error('connect timeout'), { code: 'ETIMEDOUT' })),
        CONNECT_TIMEOUT_MS,
      );
      req.on('socket', (socket) => {
        if (!socket.connecting) clearTimeout(connectTimer);
        else socket.once(url.protocol === 'https:' ? 'secureConnect' : 'connect', () => clearTimeout(connectTimer));
      });
      req.on('response', (res) => {
        answered = true;
        clearTimeout(connectTimer);
        // The service may answer before the upload is done (too large, unknown site): stop sending.
        res.once('end', () => {
          if (!req.writableFinished) {
            options.body?.stream.destroy();
            req.destroy();
          }
        });
        resolve(res);
      });
      req.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(connectTimer);
        if (answered) return;
        reject(new UnreachableError(this.url, REASONS[error.code ?? ''] ?? error.code ?? error.message));
      });
      if (options.body) {
        // A network failure has already rejected through req's 'error'; what is left is the source's.
        pipeline(options.body.stream, req).catch((error: unknown) => {
          if (answered) return;
          req.destroy();
          reject(error);
        });
      } else {
        req.end(payload);
      }
    });

    const status = response.statusCode ?? 0;
    if (status >= 200 && status < 300) return response;
    const text = await readText(response);
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    let message = describeErrorBody(status, response.statusMessage ?? '', body, text);
    if (status === 401 && !this.token) message += ' (no token given: pass --token or set BKG_TOKEN)';
    throw new ApiError(status, message, body);
  }
}

async function readText(response: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of response) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
