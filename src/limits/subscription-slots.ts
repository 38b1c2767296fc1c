/**
 * The subscriptions each client holds open on this replica (GraphQL subscriptions, the graph
 * change feed, MCP sessions), counted together against its kind's cap: an open subscription
 * holds a connection and its buffers for as long as the client likes, past any rate-limit window.
 */
import { AppError } from '../errors/app-error.ts';

type ClientKind = 'key' | 'user' | 'anonymous';

const HOLDER_NAMES: Record<ClientKind, string> = { key: 'API key', user: 'user', anonymous: 'address' };

export class SubscriptionSlots {
  private readonly open = new Map<string, number>();

  /** `caps`: how many each client of a kind may hold open at once (`BKG_MAX_SUBSCRIPTIONS_*`). */
  constructor(private readonly caps: Readonly<Record<ClientKind, number>>) {}

  /**
   * Takes a slot of `holder` (a client as rate limits count it), of kind `kind`: the way to free
   * it (once). Throws RATE_LIMITED (429) when the client holds as many as it may.
   */
  take(holder: string, kind: ClientKind): () => void {
    const held = this.open.get(holder) ?? 0;
    const cap = this.caps[kind];
    if (held >= cap)
      throw new AppError(
        'RATE_LIMITED',
        `Too many open subscriptions: at most ${cap} per ${HOLDER_NAMES[kind]}. Close one to open another.`,
      );
    this.open.set(holder, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = this.open.get(holder)! - 1;
      if (left === 0) this.open.delete(holder);
      else this.open.set(holder, left);
    };
  }
}
