import { readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Logger } from '../log/logger.ts';
import { siteGraph } from '../rdf/vocabulary.ts';
import type { GraphStore } from '../store/graph-store.ts';
import { SITE_ID } from '../tenants/site-directory.ts';

/** A site to load at start-up from a Turtle file. */
export interface SiteFile {
  readonly siteId: string;
  readonly path: string;
}

/** The `<siteId>.ttl` files of a directory; other files are reported and skipped. */
export async function siteFilesIn(directory: string, logger: Logger): Promise<SiteFile[]> {
  const files: SiteFile[] = [];
  for (const name of (await readdir(directory)).sort()) {
    if (!name.endsWith('.ttl')) continue;
    const siteId = basename(name, '.ttl');
    if (!SITE_ID.test(siteId)) {
      logger.warn(
        { file: name },
        'skipping site file: the name is not a valid site id (lowercase letters, digits, hyphens)',
      );
      continue;
    }
    files.push({ siteId, path: join(directory, name) });
  }
  return files;
}

/** A site file that could not be loaded: the message names the file, then the parser's words (line and column). */
export class SiteFileError extends Error {
  constructor(
    readonly file: SiteFile,
    cause: unknown,
  ) {
    const reason = (cause instanceof Error ? cause.message : String(cause)).replace(/\s+/g, ' ').trim();
    super(`The site file ${file.path} (site "${file.siteId}") could not be loaded: ${reason}`, { cause });
    this.name = 'SiteFileError';
  }
}

/** Replaces a site's graph with a Turtle file's content; returns the triple count. Fails with SiteFileError. */
export async function loadSiteFile(store: GraphStore, file: SiteFile, logger: Logger): Promise<number> {
  const started = performance.now();
  await store.whenRestored?.(siteGraph(file.siteId));
  let triples: number;
  try {
    ({ triples } = await store.replaceGraph(siteGraph(file.siteId), { path: file.path }, 'text/turtle'));
  } catch (error) {
    const failure = new SiteFileError(file, error);
    logger.error({ site: file.siteId, file: file.path, err: error }, failure.message);
    throw failure;
  }
  const seconds = (performance.now() - started) / 1000;
  logger.info(
    {
      site: file.siteId,
      file: file.path,
      triples,
      seconds: Number(seconds.toFixed(3)),
      triplesPerSecond: Math.round(triples / seconds),
    },
    'site graph loaded',
  );
  return triples;
}
