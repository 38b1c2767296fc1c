/**
 * What one request may cost the process, and what it has cost so far: a deadline counted in
 * engine work (time spent waiting for a thread does not count against it), a budget of entities,
 * response bytes and store rows, and the signal that says its client went away or its budget is
 * spent. Passed, never
 * ambient: the HTTP layer makes one per request (`req.work`), and what runs a store query on the
 * request's behalf hands it to the store (`SelectOptions.work`); work without one (start-up, background
 * jobs, reads shared by requests) runs within the store's own timeout.
 */
import { setMaxListeners } from 'node:events';
import { queryTooComplex, queryTooLarge } from '../errors/app-error.ts';

/** How much one request's answer may hold. */
export interface Budget {
  /** Entity objects in the answer, each counted as often as it appears in it. */
  readonly entities: number;
  /** The answer's size, estimated from the values of its fields. */
  readonly responseBytes: number;
  /** Rows the triplestore may hand over for the request, all its queries together. */
  readonly storeRows: number;
}

/** The budgets by client tier: anonymous callers get the smaller one. */
export interface Budgets {
  readonly client: Budget;
  readonly anonymous: Budget;
}

export type BudgetResource = keyof Budget;

const RESOURCE_WORDS: Record<BudgetResource, string> = {
  entities: 'entities in the answer',
  responseBytes: 'bytes of answer',
  storeRows: 'rows from the triplestore',
};

/** The one deadline error, of a request's work and of a client's SPARQL query alike. */
export const deadlineExceeded = (timeoutMs: number) =>
  queryTooComplex(
    `The query ran longer than ${timeoutMs} ms and was stopped; narrow it (more specific patterns or filters, fewer levels, a LIMIT).`,
  );

/** One request's deadline, budget and cancellation. */
export class RequestWork {
  private spentMs = 0;
  /** Set once the budget is exceeded: the request's other work stops at its next step. */
  private refusal: Error | undefined;
  private readonly used: Record<BudgetResource, number> = { entities: 0, responseBytes: 0, storeRows: 0 };
  /** Aborted with the refusal once the budget is exceeded. */
  private readonly refused = new AbortController();
  /**
   * Aborted when the client goes away, or once the budget is exceeded (its reason is then the
   * refusal): queued store queries leave their queue, and sliced work stops at its next slice.
   */
  readonly signal: AbortSignal;

  constructor(
    /** Aborted when the request's client goes away. */
    clientSignal: AbortSignal | undefined,
    /** Engine work the request may take, in milliseconds. */
    readonly timeoutMs: number,
    readonly budget: Budget,
    /** Which budget applies, for the message that names it. */
    readonly tier: 'anonymous' | 'client',
    /** The other tier's budget, for the message (what a key would allow). */
    private readonly clientBudget?: Budget,
    /** The request this is a part of (`within`): its deadline, and its budget spent as well. */
    private readonly whole?: RequestWork,
  ) {
    this.signal = clientSignal ? AbortSignal.any([clientSignal, this.refused.signal]) : this.refused.signal;
    // Each store query of the request waits on this signal (a GraphQL request may run dozens at once).
    setMaxListeners(0, this.signal);
  }

  /**
   * A part of this request that may cost at most `max` of `resource` (an MCP tool's answer): the
   * request's deadline, budget and client, spent by the part as well; past `max` only the part is
   * refused (`exceeded`), and its work stops as the whole request's would.
   */
  within(resource: BudgetResource, max: number): RequestWork {
    return new RequestWork(
      this.signal,
      this.timeoutMs,
      { ...this.budget, [resource]: max },
      this.tier,
      this.clientBudget,
      this,
    );
  }

  /** Whether this work's own budget was exceeded (for a part: its cap, not the whole request's budget). */
  get exceeded(): boolean {
    return this.refusal !== undefined;
  }

  /** Engine work time left; throws the deadline's error when none is, or the refusal once over budget. */
  remainingMs(): number {
    if (this.refusal) throw this.refusal;
    if (this.whole) return this.whole.remainingMs();
    const left = this.timeoutMs - this.spentMs;
    if (left <= 0) throw deadlineExceeded(this.timeoutMs);
    return left;
  }

  /** Counts engine work the request took. */
  chargeTime(ms: number): void {
    if (this.whole) this.whole.chargeTime(ms);
    else this.spentMs += ms;
  }

  /** What is left of one resource (at least 0). */
  left(resource: BudgetResource): number {
    const own = Math.max(0, this.budget[resource] - this.used[resource]);
    return this.whole ? Math.min(own, this.whole.left(resource)) : own;
  }

  /** Counts `amount` of a resource; past the budget throws QUERY_TOO_LARGE saying which and what to do. */
  spend(resource: BudgetResource, amount: number): void {
    if (this.refusal) throw this.refusal;
    this.whole?.spend(resource, amount);
    this.used[resource] += amount;
    if (this.used[resource] > this.budget[resource]) {
      this.refusal = this.overBudget(resource);
      this.refused.abort(this.refusal);
      throw this.refusal;
    }
  }

  /** The error for a resource over budget. */
  overBudget(resource: BudgetResource): Error {
    const max = this.budget[resource];
    const more =
      this.tier === 'anonymous' && this.clientBudget
        ? ` (the budget of anonymous callers; an API key or user token allows ${this.clientBudget[resource].toLocaleString('en')})`
        : '';
    return queryTooLarge(
      `The answer would hold more than ${max.toLocaleString('en')} ${RESOURCE_WORDS[resource]}, more than one request may cost${more}. ` +
        'Ask for fewer levels or fields, narrow the query with filters (id, name, is, locationId), or page through the list with limit and offset (the count fields say how many there are).',
      { exceeded: resource, limit: max, tier: this.tier },
    );
  }
}
