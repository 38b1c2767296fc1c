// A minimal GraphQL-over-SSE client for the subscription suites: POSTs the subscription with
// Accept: text/event-stream and hands out the payloads of the `data:` events one by one.

export interface Subscription {
  readonly status: number;
  /** The next event's payload (`{data}` or `{errors}`); rejects after `timeoutMs`. */
  next(timeoutMs?: number): Promise<any>;
  /** Waits `ms` and answers whatever arrived meanwhile. */
  drain(ms: number): Promise<any[]>;
  close(): void;
}

/** Opens a subscription on `url` (`…/graphql`) as the holder of `token` (null: anonymous). */
export async function subscribe(
  url: string,
  token: string | null,
  query: string,
  variables?: Record<string, unknown>,
): Promise<Subscription> {
  const controller = new AbortController();
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream' };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query, variables }),
    signal: controller.signal,
  });
  const events: any[] = [];
  const waiters: Array<(event: any) => void> = [];
  const deliver = (event: any) => {
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
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = block
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trim())
            .join('\n');
          if (data) deliver(JSON.parse(data));
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    status: res.status,
    next(timeoutMs = 10_000) {
      if (events.length > 0) return Promise.resolve(events.shift());
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          const i = waiters.indexOf(waiter);
          if (i >= 0) waiters.splice(i, 1);
          reject(new Error(`no event within ${timeoutMs} ms`));
        }, timeoutMs);
        const waiter = (event: any) => {
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
