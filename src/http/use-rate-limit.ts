import { rateLimit, type RateLimitRequestHandler } from 'express-rate-limit';
import type { Client } from '../auth/client.ts';
import type { Config } from '../config/config.ts';
import { AppError } from '../errors/app-error.ts';
import { clientKey } from '../http-kit/client-key.ts';
import type { Logger } from '../log/logger.ts';
import type { Services } from '../services.ts';
import { isGraphQLPath, sendError } from './error-handler.ts';
import { FallbackRateLimitStore } from './fallback-rate-limit-store.ts';

const limitOf = (client: Client, limits: Config['rateLimits']) =>
  client.kind === 'key' ? limits.key : client.kind === 'user' ? limits.user : limits.anonymous;

/**
 * Requests per window by client identity (docs/access.md, "Rate limits"): per API key, per user, per
 * anonymous IP. With Redis the counters are shared by every replica, and counted in memory while Redis does not answer.
 * `RateLimit` headers on every response; over the limit 429 with `Retry-After`, and on /graphql a
 * GraphQL body with code RATE_LIMITED.
 */
export function useRateLimit(
  limits: Config['rateLimits'],
  services: Pick<Services, 'redis' | 'metrics'>,
  logger: Logger,
): RateLimitRequestHandler {
  return rateLimit({
    windowMs: limits.windowMs,
    limit: (req) => limitOf(req.client, limits),
    keyGenerator: (req) => clientKey(req.client),
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    store: services.redis ? new FallbackRateLimitStore(services.redis, logger, services.metrics) : undefined,
    handler: (req, res) => {
      const error = new AppError(
        'RATE_LIMITED',
        `Rate limit exceeded: ${limitOf(req.client, limits)} requests per ${limits.windowMs / 1000} s for this client. Retry after the time in Retry-After.`,
      );
      sendError(res, error, isGraphQLPath(req.path));
    },
  });
}
