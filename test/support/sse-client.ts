// A minimal Server-Sent Events client for the suites: a GraphQL subscription (POST with Accept:
// text/event-stream, the payloads of its `data:` events), or any event stream (the graph change
// feed: each event's name, id and JSON data), handed out one by one.

/** One event of a stream: its name (`message` when unnamed), its id, and its data as JSON. */
export interface StreamEvent {
  readonly event: string;
  readonly id?: string;
  readonly data: any;
}

export interface EventStream<T> {
  readonly status: number;
  /** The next event; rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<T>;
  /** Waits `ms` and answers whatever arrived meanwhile. */
  drain(ms: number): Promise<T[]>;
  close(): void;
}

/** A GraphQL subscription: its events are the payloads (`{data}` or `{errors}`). */
export type Subscription = EventStream<any>;

/** Opens an event stream with `fetch(url, init)` (a refusal as an event stream has its events too). */
export async function openEventStream(url: string, init: RequestInit = {}): Promise<EventStream<StreamEvent>> {
  const controller = new AbortController();
  const res = await fetch(url, { ...init, signal: controller.signal });
  const events: StreamEvent[] = [];
  const waiters: Array<(event: StreamEvent) => void> = [];
  const deliver = (event: StreamEvent) => {
    const waiter = waiters.shift();
    if (waiter) waiter(event);
    else events.push(event);
  };
  void (async () => {
    if (!res.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const lines = buffer.slice(0, end).split('\n');
          buffer = buffer.slice(end + 2);
          const field = (name: string) =>
            lines
              .find((line) => line.startsWith(`${name}:`))
              ?.slice(name.length + 1)
              .trim();
          const data = lines
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trim())
            .join('\n');
          if (data) deliver({ event: field('event') ?? 'message', id: field('id'), data: JSON.parse(data) });
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    status: res.status,
    next(timeoutMs = 10_000) {
      if (events.length > 0) return Promise.resolve(events.shift()!);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          const i = waiters.indexOf(waiter);
          if (i >= 0) waiters.splice(i, 1);
          reject(new Error(`no event within ${timeoutMs} ms`));
        }, timeoutMs);
        const waiter = (event: StreamEvent) => {
          clearTimeout(timer);
          resolve(event);
        };
        waiters.push(waiter);
      });
    },
    async drain(ms) {
      await new Promise((resolve) => setTimeout(resolve, ms));
      return events.splice(0);
    },
    close: () => controller.abort(),
  };
}

/** Opens a subscription on `url` (`…/graphql`) as the holder of `token` (null: anonymous). */
export async function subscribe(
  url: string,
  token: string | null,
  query: string,
  variables?: Record<string, unknown>,
): Promise<Subscription> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const stream = await openEventStream(url, { method: 'POST', headers, body: JSON.stringify({ query, variables }) });
  return {
    status: stream.status,
    next: async (timeoutMs) => (await stream.next(timeoutMs)).data,
    drain: async (ms) => (await stream.drain(ms)).map((event) => event.data),
    close: () => stream.close(),
  };
}
