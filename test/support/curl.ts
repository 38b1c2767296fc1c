/**
 * Requests sent by curl(1) in a child process. Memory tests measure this process's RSS, which
 * must be the service's alone: a client here would count too (undici's FormData encoder holds a
 * Blob's bytes, and a streamed body's spent chunks wait for V8's external-memory GC, up to ~64 MB).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export interface CurlAnswer {
  readonly status: number;
  readonly body: string;
}

/** Runs curl with `args` (method, headers, body options, URL) and answers the status and body. */
export async function curl(args: readonly string[]): Promise<CurlAnswer> {
  const { stdout } = await execFileAsync(
    'curl',
    ['--silent', '--show-error', '--write-out', '\n%{http_code}', ...args],
    { maxBuffer: 16 * 2 ** 20 },
  );
  const cut = stdout.lastIndexOf('\n');
  return { status: Number(stdout.slice(cut + 1)), body: stdout.slice(0, cut) };
}
