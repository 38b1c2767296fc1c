/**
 * Keeps the demo site alive: every interval it writes a reading for every demo point that has a
 * timeseries (so `currentValue` is `good` and subscriptions tick), and at start it backfills the
 * history at 15-minute resolution, 7 days on a first start, otherwise the gap since the last
 * reading. Readings live in the readings table, which the demo reset (graph and site record) does
 * not touch; after a reset the points are resolved again in case the fixture changed.
 */
import { DEMO_SITE } from '../auth/client.ts';
import type { Logger } from '../log/logger.ts';
import { queryEntities } from '../query/query-entities.ts';
import type { QueryLayer } from '../query/query-layer.ts';
import type { ReadingIngest } from '../readings/reading-ingest.ts';
import type { Reading, ReadingStore } from '../readings/reading-store.ts';
import { signalValue, type SignalPoint } from './point-signals.ts';

export interface DemoSimulatorOptions {
  /** Seconds between live readings. */
  readonly intervalSeconds: number;
  /** How far back a first start fills, in days. */
  readonly backfillDays: number;
  /** The demo site's timezone (its daily cycle is local). */
  readonly timeZone: string;
}

const MINUTE = 60_000;
const BACKFILL_STEP = 15 * MINUTE;
const DAY = 24 * 60 * MINUTE;

export class DemoSimulator {
  private timer: NodeJS.Timeout | undefined;
  private points: SignalPoint[] | undefined;
  /** The work in progress (start, a tick), so `stop` can wait for it before the database closes. */
  private work: Promise<unknown> = Promise.resolve();
  private stopped = false;
  private started: Promise<void> | undefined;

  constructor(
    private readonly query: QueryLayer,
    private readonly readings: ReadingStore,
    private readonly ingest: ReadingIngest,
    private readonly logger: Logger,
    private readonly options: DemoSimulatorOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** Backfills, writes the current readings, then ticks every interval. Resolves when the backfill is done. */
  start(): Promise<void> {
    const started = this.run(async () => {
      await this.backfill();
      await this.tick();
    });
    this.started = started;
    if (this.options.intervalSeconds > 0) {
      this.timer = setInterval(() => void this.run(() => this.tick()), this.options.intervalSeconds * 1000);
      this.timer.unref();
    }
    return started;
  }

  /** Resolves when the start (backfill and first readings) is done; at once if never started. */
  async whenStarted(): Promise<void> {
    await this.started;
  }

  /** Forgets the points, so the next tick reads them from the (reset) graph again. */
  refreshPoints(): void {
    this.points = undefined;
  }

  /** Stops ticking and waits for work in progress. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    await this.work;
  }

  /** The readings of every point at `t`. */
  readingsAt(points: readonly SignalPoint[], t: number): Reading[] {
    return points.map((p) => ({
      timeseriesId: p.timeseriesId,
      ms: t,
      value: signalValue(p, t, this.options.timeZone),
    }));
  }

  private run(work: () => Promise<void>): Promise<void> {
    const next = this.work.then(async () => {
      if (this.stopped) return;
      try {
        await work();
      } catch (error) {
        this.logger.error({ err: error, site: DEMO_SITE }, 'demo simulator failed');
      }
    });
    this.work = next;
    return next;
  }

  private async demoPoints(): Promise<SignalPoint[]> {
    if (this.points) return this.points;
    // Every point of the site, with what a signal needs.
    const found = await queryEntities(this.query, {
      siteId: DEMO_SITE,
      kind: 'Point',
      fields: ['type', 'unit', 'timeseriesId'],
    });
    const byTimeseries = new Map<string, SignalPoint>();
    for (const { type, unit, timeseriesId } of found) {
      if (timeseriesId && !byTimeseries.has(timeseriesId)) byTimeseries.set(timeseriesId, { type, unit, timeseriesId });
    }
    this.points = [...byTimeseries.values()];
    return this.points;
  }

  /** Fills 15-minute history from the last reading (at most `backfillDays` back) up to now, a day per transaction. */
  private async backfill(): Promise<void> {
    const points = await this.demoPoints();
    if (points.length === 0) return;
    const now = this.now();
    const last = await this.readings.lastReadingTime(DEMO_SITE);
    const from = Math.max(last ?? 0, now - this.options.backfillDays * DAY);
    let t = Math.ceil((from + 1) / BACKFILL_STEP) * BACKFILL_STEP;
    if (t >= now) return;
    const started = performance.now();
    let written = 0;
    while (t < now && !this.stopped) {
      const batch: Reading[] = [];
      const dayEnd = Math.min(now, t + DAY);
      for (; t < dayEnd; t += BACKFILL_STEP) batch.push(...this.readingsAt(points, t));
      await this.ingest.write(DEMO_SITE, batch);
      written += batch.length;
    }
    this.logger.info(
      {
        site: DEMO_SITE,
        readings: written,
        points: points.length,
        seconds: Number(((performance.now() - started) / 1000).toFixed(2)),
      },
      'demo history backfilled',
    );
  }

  /** Writes every point's reading for the current minute. */
  private async tick(): Promise<void> {
    const points = await this.demoPoints();
    const t = Math.floor(this.now() / MINUTE) * MINUTE;
    await this.ingest.write(DEMO_SITE, this.readingsAt(points, t));
  }
}
