// Runs the service as operators do (node with the service's flags --import tsx src/main.ts) in a child process, for tests of
// start-up and shutdown: its JSON log lines, stderr, exit code and port.
import { SERVICE_NODE_FLAGS } from '../../src/startup/node-flags.ts';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { projectRoot } from '../../src/config/config.ts';

export interface ServiceProcess {
  readonly child: ChildProcess;
  /** Parsed JSON log lines (stdout), as they arrive. */
  readonly logs: Array<Record<string, unknown>>;
  /** stderr lines. */
  readonly stderr: string[];
  /** The exit code (or the signal's name). */
  readonly exited: Promise<number | string>;
  /** Resolves with the first log line whose `msg` is `msg`. */
  waitForLog(msg: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** Kills it if it still runs. */
  kill(): Promise<void>;
}

/** Starts the service with exactly `env` (plus PATH and HOME). */
export function spawnService(env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, [...SERVICE_NODE_FLAGS, '--import', 'tsx', 'src/main.ts'], {
    cwd: projectRoot,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: Array<Record<string, unknown>> = [];
  const stderr: string[] = [];
  const waiters: Array<() => void> = [];
  const lines = (stream: NodeJS.ReadableStream, each: (line: string) => void) => {
    let rest = '';
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (rest + chunk).split('\n');
      rest = parts.pop()!;
      for (const line of parts) if (line.trim()) each(line);
      for (const wake of waiters.splice(0)) wake();
    });
  };
  lines(child.stdout!, (line) => {
    try {
      logs.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      logs.push({ msg: line });
    }
  });
  lines(child.stderr!, (line) => stderr.push(line));
  const exited = new Promise<number | string>((resolve) =>
    child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)),
  );
  void exited.then(() => {
    for (const wake of waiters.splice(0)) wake();
  });
  let done = false;
  void exited.then(() => (done = true));
  return {
    child,
    logs,
    stderr,
    exited,
    async waitForLog(msg, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = logs.find((line) => line.msg === msg);
        if (found) return found;
        if (done) throw new Error(`the service exited before logging "${msg}"; stderr: ${stderr.join('\n')}`);
        if (Date.now() > deadline) throw new Error(`no "${msg}" within ${timeoutMs} ms; stderr: ${stderr.join('\n')}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 200);
        });
      }
    },
    async kill() {
      if (!done) child.kill('SIGKILL');
      await exited;
    },
  };
}

/** A loopback port nothing listens on (it was free a moment ago). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
