import type { RequestHandler } from 'express';
import type { CorsConfig } from '../config/cors-config.ts';

const METHODS = 'GET, HEAD, POST, PUT, DELETE';
// What a page may read beyond the CORS-safelisted response headers: rate limits, where a new file
// is, download metadata, and which request this was (for a bug report).
const EXPOSED =
  'RateLimit, RateLimit-Policy, Retry-After, Location, ETag, Content-Disposition, Content-Range, X-Request-Id, WWW-Authenticate';
const MAX_AGE_SECONDS = '600';

/**
 * CORS for every route (GraphQL and REST alike), before authentication so that preflights and
 * refusals (401, 429) are readable by the page too. With the default `*`, any page may call the
 * service but never with credentials: clients authenticate with a bearer token they hold, which a
 * browser never attaches on its own, so another site's page can do nothing its visitor's browser
 * could not do with curl. With a list, only those origins are answered, and with credentials (for
 * deployments behind a cookie-based proxy). Requests from other origins still run (CORS only
 * decides what the page may read), and get no CORS headers.
 */
export function useCors(config: CorsConfig): RequestHandler {
  const listed = config.origins === '*' ? undefined : new Set(config.origins);
  return (req, res, next) => {
    const origin = req.get('origin');
    if (listed) res.vary('Origin');
    const allowed = origin !== undefined && (!listed || listed.has(origin));
    if (allowed) {
      res.setHeader('Access-Control-Allow-Origin', listed ? origin : '*');
      if (listed) res.setHeader('Access-Control-Allow-Credentials', 'true');
    }
    const preflight = req.method === 'OPTIONS' && req.get('access-control-request-method') !== undefined;
    if (!preflight) {
      if (allowed) res.setHeader('Access-Control-Expose-Headers', EXPOSED);
      next();
      return;
    }
    if (allowed) {
      res.setHeader('Access-Control-Allow-Methods', METHODS);
      // Headers a page asks to send are harmless to allow (the service reads only those it knows);
      // Authorization must be named, since `*` does not cover it.
      const requested = req.get('access-control-request-headers');
      if (requested) res.setHeader('Access-Control-Allow-Headers', requested);
      res.vary('Access-Control-Request-Headers');
      res.setHeader('Access-Control-Max-Age', MAX_AGE_SECONDS);
    }
    res.status(204).end();
  };
}
