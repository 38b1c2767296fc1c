import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';

/**
 * How long an idle kept-alive connection stays open. Longer than the idle timeout of the usual
 * proxies and clients (60 s for load balancers, 4 s for Node's fetch), so that the client always
 * gives up on an idle connection first. Node's default (5 s) is shorter than that, and a server
 * whose event loop stalls for 5 s between two requests (a loaded machine) closes a connection a
 * client has just sent its next request on: the client reads ECONNRESET.
 */
const KEEP_ALIVE_MS = 65_000;

/** Listens on `port` and `host` with the service's connection settings; answers the server and the port it is on. */
export function listen(app: Express, port: number, host: string): Promise<{ server: Server; port: number }> {
  return new Promise((resolve, reject) => {
    const server = app.listen(port, host);
    server.keepAliveTimeout = KEEP_ALIVE_MS;
    // Headers must be given more time than an idle connection, or Node closes a connection whose
    // next request starts just before the keep-alive timeout ends.
    server.headersTimeout = KEEP_ALIVE_MS + 1_000;
    server.once('error', reject);
    server.once('listening', () => {
      server.off('error', reject);
      resolve({ server, port: (server.address() as AddressInfo).port });
    });
  });
}
