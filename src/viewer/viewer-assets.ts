import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express, { Router } from 'express';
import { AppError } from '../errors/app-error.ts';
import { projectRoot } from '../config/config.ts';

/** Where `npm run build:viewer` (run by `npm ci` through `prepare`) puts the viewer page. */
export const VIEWER_DIST = resolve(projectRoot, 'viewer', 'dist');

/**
 * The 3D viewer page at `/viewer` (`/viewer?site=<id>`): the Vite build of `viewer/`, static and
 * public (it holds no data; what it shows comes from the API with the caller's key). Hashed asset
 * names are cached for a year, the page itself never. Without a build, 503 says how to make one.
 */
export function viewerAssets(dist: string = VIEWER_DIST): Router {
  const router = Router();
  router.use(
    express.static(dist, {
      index: false,
      redirect: false,
      setHeaders: (res, path) => {
        res.setHeader(
          'Cache-Control',
          path.includes(`${join(dist, 'assets')}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    }),
  );
  // `/viewer?site=x` and `/viewer/?site=x` both load the page (its assets are built under /viewer/).
  router.get('/', (_req, res, next) => {
    if (!existsSync(join(dist, 'index.html')))
      throw new AppError('SERVICE_UNAVAILABLE', 'The viewer is not built: run npm run build:viewer.');
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile(join(dist, 'index.html'), next);
  });
  return router;
}
