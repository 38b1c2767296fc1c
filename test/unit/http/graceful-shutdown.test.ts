// gracefulShutdown on a bare HTTP server: requests in flight finish, event streams end at once,
// new connections are refused, what outlives the grace period is cut, and the engines close last.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { gracefulShutdown } from '../../../src/http/graceful-shutdown.ts';

const logger = pino({ level: 'silent' });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('gracefulShutdown', () => {
  let server: Server;
  afterEach(() => {
    server?.closeAllConnections();
  });

  /** A server with /slow (answers after 400 ms), /events (an event stream) and /hang (never answers). */
  const start = async () => {
    const events: string[] = [];
    server = createServer((req, res) => {
      if (req.url === '/slow') setTimeout(() => res.end('done', () => events.push('slow answered')), 400);
      else if (req.url === '/events') {
        // As in the app, where express has set headers before (X-Request-Id), so writeHead's are kept.
        res.setHeader('x-request-id', 'r1');
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write(': open\n\n');
      } else if (req.url !== '/hang') res.end('ok');
    });
    const stop = gracefulShutdown(server, {
      graceMs: 1500,
      logger,
      close: async () => void events.push('engines closed'),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stop, events };
  };

  it('lets requests in flight finish, ends event streams at once, refuses new connections, then closes the engines', async () => {
    const { url, stop, events } = await start();
    const slow = fetch(`${url}/slow`).then(async (res) => ({
      status: res.status,
      body: await res.text(),
      connection: res.headers.get('connection'),
    }));
    const stream = await fetch(`${url}/events`);
    const streamEnded = stream.text().then(() => events.push('stream ended'));
    await sleep(100);
    const stopped = stop('SIGTERM').then(() => events.push('stopped'));
    await expect(fetch(`${url}/healthz`)).rejects.toThrow();
    expect(await slow).toEqual({ status: 200, body: 'done', connection: 'close' });
    await Promise.all([streamEnded, stopped]);
    expect(events).toEqual(['stream ended', 'slow answered', 'engines closed', 'stopped']);
  });

  it('cuts what is still open after the grace period', async () => {
    const { url, stop, events } = await start();
    const hanging = fetch(`${url}/hang`).catch((error: Error) => error);
    await sleep(100);
    const started = Date.now();
    await stop('SIGTERM');
    expect(Date.now() - started).toBeGreaterThanOrEqual(1400);
    expect(await hanging).toBeInstanceOf(Error);
    expect(events).toEqual(['engines closed']);
  });
});
