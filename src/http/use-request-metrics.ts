import { AsyncResource } from 'node:async_hooks';
import type { RequestHandler } from 'express';
import type { Logger } from '../log/logger.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { countedUpload } from '../http-kit/count-upload.ts';
import '../http-kit/request-context.ts';

// Probes and scrapes arrive every few seconds; their lines would drown the rest at info.
const QUIET_ROUTES = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * When a response ends: counts and times it by route pattern, status and client kind, counts rate-limit
 * refusals and upload bytes, and writes one access-log line (`request`) in the request's scope.
 */
export function useRequestMetrics(
  metrics: Metrics,
  logger: Logger,
  routeOf: (method: string, path: string) => string,
): RequestHandler {
  return (req, res, next) => {
    let done = false;
    // Bound to the request's scope: the events fire from the socket, outside it.
    const finish = AsyncResource.bind(() => {
      if (done) return;
      done = true;
      // originalUrl: inside a mount (GraphQL) req.path is relative to it.
      const path = req.originalUrl.split('?')[0]!;
      const route = routeOf(req.method, path);
      const status = String(res.statusCode);
      const clientKind = req.client?.kind ?? 'none';
      const seconds = (performance.now() - req.startedAt) / 1000;
      metrics.httpRequests.inc({ method: req.method, route, status, client_kind: clientKind });
      metrics.httpDuration.observe({ method: req.method, route, status }, seconds);
      if (res.statusCode === 429) metrics.rateLimited.inc({ client_kind: clientKind });
      const upload = countedUpload(res);
      if (upload && res.statusCode < 400) metrics.uploadBytes.inc({ kind: upload.kind }, upload.bytes);
      const line = {
        method: req.method,
        route,
        path,
        status: res.statusCode,
        ms: Number((seconds * 1000).toFixed(1)),
        aborted: !res.writableFinished || undefined,
      };
      if (QUIET_ROUTES.has(route)) logger.debug(line, 'request');
      else logger.info(line, 'request');
    });
    res.once('finish', finish);
    res.once('close', finish);
    next();
  };
}
