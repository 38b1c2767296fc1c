/**
 * Builds the viewer page (viewer/ → viewer/dist/, served at /viewer) with Vite.
 *
 *   npm run build:viewer                             # always builds
 *   node --import tsx scripts/build-viewer.ts --if-stale   # only when a source is newer than the build
 *
 * `npm ci` runs it through `prepare`, so a fresh clone serves the page after `npm ci && npm start`.
 * An install without devDependencies (`npm ci --omit=dev`) has no Vite: it says so and succeeds, and
 * /viewer answers 503 until the page is built elsewhere (the Dockerfile builds it in a stage of its own).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const VIEWER = resolve(fileURLToPath(new URL('..', import.meta.url)), 'viewer');
const BUILT = join(VIEWER, 'dist', 'index.html');

/** The newest modification time among the page's sources. */
function newestSource(path: string): number {
  const info = statSync(path);
  if (!info.isDirectory()) return info.mtimeMs;
  return Math.max(
    0,
    ...readdirSync(path)
      .filter((name) => name !== 'dist' && name !== 'node_modules')
      .map((name) => newestSource(join(path, name))),
  );
}

/** Whether the build is missing or older than a source file. */
export function viewerIsStale(): boolean {
  return !existsSync(BUILT) || statSync(BUILT).mtimeMs < newestSource(VIEWER);
}

/** Builds the page; false when Vite is not installed (a production install). */
export async function buildViewer(): Promise<boolean> {
  let vite: typeof import('vite');
  try {
    vite = await import('vite');
  } catch {
    return false;
  }
  await vite.build({ configFile: join(VIEWER, 'vite.config.ts') });
  return true;
}

/** Builds the page unless it is up to date. */
export async function ensureViewerBuilt(): Promise<void> {
  if (viewerIsStale() && !(await buildViewer()))
    throw new Error('The viewer page is not built and Vite is not installed: run npm ci (with devDependencies).');
}

async function main(argv: string[]): Promise<number> {
  if (argv.includes('--if-stale') && !viewerIsStale()) return 0;
  const started = performance.now();
  if (!(await buildViewer())) {
    console.error(
      '[build-viewer] Vite is not installed (an install without devDependencies): the viewer page is not built.',
    );
    return 0;
  }
  console.error(`[build-viewer] built viewer/dist in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = await main(process.argv.slice(2));
}
