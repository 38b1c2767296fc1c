import type { Server, ServerResponse } from 'node:http';
import type { Logger } from '../log/logger.ts';

export interface GracefulShutdownOptions {
  /** How long in-flight requests may take to finish before their connections are cut. */
  readonly graceMs: number;
  readonly logger: Logger;
  /** Closes the engines once no request is left (MQTT, Redis, database, the embedded store). */
  readonly close: () => Promise<void>;
}

// Every answer of the app has a header set before writeHead (X-Request-Id), so Node keeps writeHead's
// headers where getHeader sees them.
const isEventStream = (res: ServerResponse) =>
  String(res.getHeader('content-type') ?? '').startsWith('text/event-stream');

/**
 * Prepares a server for a graceful stop and answers the function that performs it: the listener
 * closes (new connections are refused), requests in flight finish, bounded by `graceMs`, after
 * which the remaining connections are cut; keep-alive connections close once idle; event streams
 * (GraphQL subscriptions) end at once, since they never finish by themselves and their clients
 * reconnect elsewhere. Then the engines close. Calling it again answers the same promise.
 */
export function gracefulShutdown(server: Server, options: GracefulShutdownOptions): (reason: string) => Promise<void> {
  const { logger, graceMs } = options;
  const open = new Set<ServerResponse>();
  let stopping: Promise<void> | undefined;
  server.on('request', (_req, res: ServerResponse) => {
    open.add(res);
    res.once('close', () => open.delete(res));
    // A request that arrives on a kept-alive connection while stopping is served, and its connection closed after.
    if (stopping) res.setHeader('Connection', 'close');
  });

  const stop = async (reason: string): Promise<void> => {
    logger.info(
      { reason, inFlight: open.size, graceSeconds: graceMs / 1000 },
      'shutting down: refusing new connections, finishing requests in flight',
    );
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const res of open) {
      if (isEventStream(res)) res.end();
      else if (!res.headersSent) res.setHeader('Connection', 'close');
    }
    const idle = setInterval(() => server.closeIdleConnections(), 100);
    const cut = setTimeout(() => {
      logger.warn({ requests: open.size }, 'grace period over: cutting the connections still open');
      server.closeAllConnections();
    }, graceMs);
    server.closeIdleConnections();
    await closed;
    clearInterval(idle);
    clearTimeout(cut);
    await options.close();
    logger.info('stopped');
  };
  return (reason) => (stopping ??= stop(reason));
}
