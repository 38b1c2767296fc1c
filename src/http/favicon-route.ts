import { readFileSync } from 'node:fs';
import { Router } from 'express';

/** The service's icon, one small SVG committed beside this file. */
const ICON = readFileSync(new URL('./favicon.svg', import.meta.url));

/**
 * The icon the service's pages link to (`/favicon.svg`), also at `/favicon.ico`, where browsers and
 * tools ask by convention; every current browser takes an SVG there by its content type. Cached for a
 * day, not for ever: the path has no version in it.
 */
export function faviconRoute(): Router {
  const router = Router();
  router.get(['/favicon.svg', '/favicon.ico'], (_req, res) => {
    res.set('Cache-Control', 'public, max-age=86400').type('image/svg+xml').send(ICON);
  });
  return router;
}
