// A Redis of a test's own, on a free loopback port, that the test may stop and start again (the
// shared Redis of the suite must not go away under the other files).
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { createClient } from 'redis';

export interface RedisServer {
  /** `redis://127.0.0.1:<port>`, the same across restarts. */
  readonly url: string;
  /** Kills the server at once, as a crash would; its data is gone (nothing is saved). */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty. */
  start(): Promise<void>;
  /** Sends one command on a connection of its own (e.g. `CLIENT PAUSE 2000 ALL`). */
  command(...args: string[]): Promise<unknown>;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** Starts `redis-server` (on the PATH) without persistence on a free port. */
export async function startRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const start = async () => {
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    child = started;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      started.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
      started.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
    });
    started.stdout!.resume();
  };
  await start();
  return {
    url,
    start,
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      await new Promise((resolve) => {
        running.once('exit', resolve);
        running.kill('SIGKILL');
      });
    },
    async command(...args) {
      const client = createClient({ url });
      await client.connect();
      try {
        return await client.sendCommand(args);
      } finally {
        client.destroy();
      }
    },
  };
}
