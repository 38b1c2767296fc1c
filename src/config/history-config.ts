import type { EnvReaders } from './graph-store-config.ts';

/** The versions of each site's graph (docs/changing-a-graph.md, "History and retention"). */
export interface HistoryConfig {
  /** Versions whose change is kept, newest first (0: no limit by count). */
  readonly keepVersions: number | undefined;
  /** Days a version's change is kept (0: no limit by age). */
  readonly keepDays: number | undefined;
  /** Largest graph (before or after) whose load (PUT, POST) is compared with the graph it replaces, so the version keeps what changed. */
  readonly diffMaxTriples: number;
  /** Largest change a version keeps (triples added and removed); a larger one keeps its counts only. */
  readonly maxChangeTriples: number;
  /** Redis pub/sub channel of a site's graph changes (the feed across replicas): this prefix, then the site id. */
  readonly channelPrefix: string;
}

/** `BKG_HISTORY_KEEP_VERSIONS`, `BKG_HISTORY_KEEP_DAYS`, `BKG_HISTORY_DIFF_MAX_TRIPLES`, `BKG_HISTORY_MAX_CHANGE_TRIPLES`, `BKG_HISTORY_CHANNEL_PREFIX`. */
export function historyConfig(read: Pick<EnvReaders, 'int'>, env: Record<string, string | undefined>): HistoryConfig {
  return Object.freeze({
    keepVersions: read.int('BKG_HISTORY_KEEP_VERSIONS', 0, 0, 1_000_000_000) || undefined,
    keepDays: read.int('BKG_HISTORY_KEEP_DAYS', 0, 0, 36_500) || undefined,
    // A load of a million triples is compared in a few seconds and a few hundred MB of memory at most.
    diffMaxTriples: read.int('BKG_HISTORY_DIFF_MAX_TRIPLES', 1_000_000, 0, Number.MAX_SAFE_INTEGER),
    // A change kept is text in the record database: 100k triples is ~10 MB; a larger change is a new model.
    maxChangeTriples: read.int('BKG_HISTORY_MAX_CHANGE_TRIPLES', 100_000, 0, 10_000_000),
    channelPrefix: env.BKG_HISTORY_CHANNEL_PREFIX || 'bkg:graph-changes:',
  });
}
