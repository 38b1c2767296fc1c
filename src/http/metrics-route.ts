import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { MissingCredentials, unauthenticated } from '../errors/app-error.ts';
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
      const authorization = req.get('authorization');
      const message = '/metrics needs Authorization: Bearer <BKG_METRICS_TOKEN>.';
      if (!authorization) throw new MissingCredentials(message);
      const given = /^Bearer\s+(.+)$/i.exec(authorization)?.[1] ?? '';
      // Compared as digests: equal lengths, in constant time.
      if (!timingSafeEqual(digest(given), expected)) throw unauthenticated(message);
    }
    res.type(metrics.registry.contentType).send(await metrics.registry.metrics());
  };
}
