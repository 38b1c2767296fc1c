import type { RequestHandler } from 'express';
import { ipKeyGenerator, rateLimit } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { Client } from '../auth/client.ts';
import type { Config } from '../config/config.ts';
import { AppError } from '../errors/app-error.ts';
import type { RedisConnection } from '../redis/redis-connection.ts';
import { isGraphQLPath, sendError } from './error-handler.ts';

const limitOf = (client: Client, limits: Config['rateLimits']) =>
  client.kind === 'key' ? limits.key : client.kind === 'user' ? limits.user : limits.anonymous;

/**
 * Requests per window by client identity (SPEC 8): per API key, per user, per anonymous IP. With
 * Redis the counters are shared by every replica. `RateLimit` headers on every response; over the
 * limit 429 with `Retry-After`, and on /graphql a GraphQL body with code RATE_LIMITED.
 */
export function useRateLimit(limits: Config['rateLimits'], redis: RedisConnection | undefined): RequestHandler {
  return rateLimit({
    windowMs: limits.windowMs,
    limit: (req) => limitOf(req.client, limits),
    keyGenerator: (req) => (req.client.kind === 'anonymous' ? `ip:${ipKeyGenerator(req.client.id)}` : `${req.client.kind}:${req.client.id}`),
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    store: redis ? new RedisStore({ prefix: 'bkg:rate:', sendCommand: (...args: string[]) => redis.client.sendCommand(args) }) : undefined,
    // A rate-limit store that is down must not take the API down with it.
    passOnStoreError: true,
    handler: (req, res) => {
      const error = new AppError('RATE_LIMITED', `Rate limit exceeded: ${limitOf(req.client, limits)} requests per ${limits.windowMs / 1000} s for this client. Retry after the time in Retry-After.`);
      sendError(res, error, isGraphQLPath(req.path));
    },
  });
}
