import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { unauthenticated } from '../errors/app-error.ts';
import type { Metrics } from '../metrics/metrics.ts';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * `GET /metrics` in Prometheus' text format. With a token, only `Authorization: Bearer <token>` may
 * read it (401 otherwise); without one it is open, for scrapers inside the deployment's network.
 */
export function metricsRoute(metrics: Metrics, token: string | undefined): RequestHandler {
  const expected = token === undefined ? undefined : digest(token);
  return async (req, res) => {
    if (expected) {
      const given = /^Bearer\s+(.+)$/i.exec(req.get('authorization') ?? '')?.[1] ?? '';
      // Compared as digests: equal lengths, in constant time.
      if (!timingSafeEqual(digest(given), expected)) throw unauthenticated('/metrics needs Authorization: Bearer <BKG_METRICS_TOKEN>.');
    }
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  };
}
