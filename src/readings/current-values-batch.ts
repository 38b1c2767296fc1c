import type { CurrentValues, PointValuesBySite } from './current-values.ts';

/** A root field's share of a request's lookup: ask at most once, then say when the field is done. */
export interface CurrentValuesTicket extends CurrentValues {
  /** The field has finished, whether or not it asked (call it in `finally`). */
  done(): void;
}

/**
 * One current-value lookup per GraphQL request, whatever the number of root fields. Each root
 * field takes a ticket before its first `await` (graphql-js starts every root field of a query
 * in one synchronous loop, so all tickets exist before any field asks); the lookup runs, once,
 * when every ticket has asked or finished, for the series of all of them.
 */
export class CurrentValuesBatch {
  private pending = 0;
  private wanted = new Map<string, Set<string>>();
  private waiters: Array<{ resolve(values: PointValuesBySite): void; reject(error: unknown): void }> = [];

  constructor(private readonly source: CurrentValues) {}

  /** A ticket for a root field that is starting. */
  ticket(): CurrentValuesTicket {
    this.pending += 1;
    let settled = false;
    const settle = () => {
      if (settled) return false;
      settled = true;
      this.pending -= 1;
      return true;
    };
    return {
      currentValues: (series) => {
        const answer = new Promise<PointValuesBySite>((resolve, reject) => this.waiters.push({ resolve, reject }));
        for (const [siteId, ids] of series) {
          const wanted = this.wanted.get(siteId) ?? new Set<string>();
          for (const id of ids) wanted.add(id);
          this.wanted.set(siteId, wanted);
        }
        settle();
        this.flushWhenReady();
        return answer;
      },
      done: () => {
        if (settle()) this.flushWhenReady();
      },
    };
  }

  private flushWhenReady(): void {
    if (this.pending > 0 || this.waiters.length === 0) return;
    const series = new Map([...this.wanted].map(([siteId, ids]) => [siteId, [...ids]]));
    const waiters = this.waiters;
    this.wanted = new Map();
    this.waiters = [];
    this.source.currentValues(series).then(
      (values) => waiters.forEach((w) => w.resolve(values)),
      (error: unknown) => waiters.forEach((w) => w.reject(error)),
    );
  }
}
