import { FRESHNESS_MS } from './point-value.ts';
import type { ReadingEvents } from './reading-events.ts';
import { parseReadings, type Rejection } from './reading-input.ts';
import type { Reading, ReadingStore } from './reading-store.ts';

/** What one ingestion did: items received, stored, and the rejected ones with their reasons. */
export interface IngestReport {
  readonly received: number;
  readonly stored: number;
  readonly rejected: Rejection[];
}

/** Where readings came from. */
export type ReadingSource = 'rest' | 'mqtt' | 'simulator';

/** Told after each stored batch: how many readings were stored and how many items refused. */
export type IngestListener = (event: {
  readonly source: ReadingSource;
  readonly stored: number;
  readonly rejected: number;
}) => void;

/**
 * The one way readings come in (REST, MQTT, the demo simulator): checked item by item, stored in one
 * transaction, then announced. Only what is live is announced: per series, the batch's latest
 * reading, if it is younger than the freshness window; a backfill of history pushes nothing.
 */
export class ReadingIngest {
  private readonly listeners = new Set<IngestListener>();

  constructor(
    private readonly store: ReadingStore,
    private readonly events: ReadingEvents,
    private readonly now: () => number = Date.now,
  ) {}

  /** Adds a listener (metrics); returns the function that removes it. */
  onIngest(listener: IngestListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Checks and stores items as clients send them; `timeseriesId` comes from an MQTT per-series topic. */
  async ingest(
    siteId: string,
    items: readonly unknown[],
    origin: { readonly source: ReadingSource; readonly timeseriesId?: string } = { source: 'rest' },
  ): Promise<IngestReport> {
    const { readings, rejected } = parseReadings(items, origin.timeseriesId);
    await this.save(siteId, readings);
    this.tell({ source: origin.source, stored: readings.length, rejected: rejected.length });
    return { received: items.length, stored: readings.length, rejected };
  }

  /** Stores readings already checked (the simulator's) and announces the live ones. */
  async write(siteId: string, readings: readonly Reading[]): Promise<void> {
    await this.save(siteId, readings);
    this.tell({ source: 'simulator', stored: readings.length, rejected: 0 });
  }

  private async save(siteId: string, readings: readonly Reading[]): Promise<void> {
    if (readings.length === 0) return;
    await this.store.write(siteId, readings);
    const live = liveReadings(readings, this.now() - FRESHNESS_MS);
    if (live.length > 0) this.events.publish(siteId, live);
  }

  private tell(event: Parameters<IngestListener>[0]): void {
    for (const listener of this.listeners) listener(event);
  }
}

/** Per series, the latest reading, if it is newer than `after`. */
function liveReadings(readings: readonly Reading[], after: number): Reading[] {
  const latest = new Map<string, Reading>();
  for (const reading of readings) {
    const known = latest.get(reading.timeseriesId);
    if (reading.ms > after && (!known || reading.ms >= known.ms)) latest.set(reading.timeseriesId, reading);
  }
  return [...latest.values()];
}
