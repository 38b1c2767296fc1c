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

/**
 * The one way readings come in (REST, MQTT, the demo simulator): checked item by item, stored in one
 * transaction, then announced. Only what is live is announced: per series, the batch's latest
 * reading, if it is younger than the freshness window; a backfill of history pushes nothing.
 */
export class ReadingIngest {
  constructor(
    private readonly store: ReadingStore,
    private readonly events: ReadingEvents,
    private readonly now: () => number = Date.now,
  ) {}

  /** Checks and stores items as clients send them; `timeseriesId` comes from an MQTT per-series topic. */
  async ingest(siteId: string, items: readonly unknown[], timeseriesId?: string): Promise<IngestReport> {
    const { readings, rejected } = parseReadings(items, timeseriesId);
    await this.write(siteId, readings);
    return { received: items.length, stored: readings.length, rejected };
  }

  /** Stores readings already checked (the simulator's) and announces the live ones. */
  async write(siteId: string, readings: readonly Reading[]): Promise<void> {
    if (readings.length === 0) return;
    await this.store.write(siteId, readings);
    const live = liveReadings(readings, this.now() - FRESHNESS_MS);
    if (live.length > 0) this.events.publish(siteId, live);
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
