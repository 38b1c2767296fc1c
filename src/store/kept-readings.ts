/**
 * What the service reads of a persisted graph, kept on disk beside its journal so a restart does
 * not read it again: at 5M triples the site profile, ids and classes are a dozen scans of the
 * graph (a minute on a busy machine), and the first query after a restart waited for them.
 *
 * A reading is a JSON file `readings/<graph>/<name>.json` holding the name of the graph's content
 * it was read from (graph-journal.ts `content`) and the caller's `context`: it is given back only
 * while both are the same, so a change of the graph (by this process or, before a restart, by the
 * last one) or of the ontology leaves it unread, and the next reading replaces it. Written under a
 * temporary name and renamed, in the background; a reading that cannot be written is read again
 * after the next restart, which is all it costs.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log/logger.ts';
import type { GraphJournal } from './graph-journal.ts';
import type { ReadingArchive } from './graph-store.ts';

/** A reading larger than this as JSON is not kept (a site whose ids are mostly shared local names, say). */
const MAX_KEPT_CHARS = 64 * 1024 * 1024;

interface KeptReading {
  readonly content: string;
  readonly context: string;
  readonly value: unknown;
}

export class KeptReadings implements ReadingArchive {
  /** Writes under way: close waits for them, so a stopped store leaves no file half-written or still to come. */
  private readonly writing = new Set<Promise<void>>();

  constructor(
    private readonly dir: string,
    private readonly journal: GraphJournal,
    private readonly logger?: Logger,
  ) {}

  async kept(graph: string, name: string, context: string): Promise<unknown> {
    const content = this.journal.content(graph);
    if (content === undefined) return undefined;
    let kept: KeptReading;
    try {
      kept = JSON.parse(await readFile(this.path(graph, name), 'utf8')) as KeptReading;
    } catch {
      return undefined;
    }
    return kept.content === content && kept.context === context ? kept.value : undefined;
  }

  keep(graph: string, name: string, context: string, value: unknown): void {
    const content = this.journal.content(graph);
    if (content === undefined) return;
    const writing = this.write(graph, name, { content, context, value })
      .catch((error: unknown) =>
        this.logger?.warn({ graph, reading: name, err: error }, 'a reading of a graph could not be kept'),
      )
      .finally(() => this.writing.delete(writing));
    this.writing.add(writing);
  }

  async settled(): Promise<void> {
    while (this.writing.size > 0) await Promise.all(this.writing);
  }

  /** Removes the readings of graphs no longer persisted (`graphs`: those that are), and writes a stop cut short. */
  async prune(graphs: ReadonlySet<string>): Promise<void> {
    const folders = await readdir(this.dir).catch(() => [] as string[]);
    await Promise.all(
      folders.map(async (folder) => {
        const path = join(this.dir, folder);
        if (!graphs.has(decodeURIComponent(folder))) return rm(path, { recursive: true, force: true });
        const files = await readdir(path).catch(() => [] as string[]);
        await Promise.all(files.filter((f) => f.endsWith('.tmp')).map((f) => rm(join(path, f), { force: true })));
      }),
    );
  }

  private async write(graph: string, name: string, kept: KeptReading): Promise<void> {
    const text = JSON.stringify(kept);
    if (text.length > MAX_KEPT_CHARS) return;
    const path = this.path(graph, name);
    const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`;
    await mkdir(join(this.dir, encodeURIComponent(graph)), { recursive: true });
    await writeFile(temporary, text);
    await rename(temporary, path);
  }

  private path(graph: string, name: string): string {
    return join(this.dir, encodeURIComponent(graph), `${encodeURIComponent(name)}.json`);
  }
}
