import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Why an IFC file could not be read or converted, in words fit for the file record. */
export class IfcJobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IfcJobError';
  }
}

/** What one child process may use. */
export interface ChildLimits {
  /** Resident memory (MB) past which the child is killed. */
  readonly memoryMb: number;
  readonly timeoutMs: number;
  /** Aborting kills the child (the service is stopping). */
  readonly signal?: AbortSignal;
}

const CHILD = fileURLToPath(new URL('./ifc-child.ts', import.meta.url));
// The child runs TypeScript as the service does: through tsx, named by path so any working directory works.
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const WATCH_MS = 200;
const STDERR_KEEP = 4096;

/** The resident memory of a process in MB, where the system tells (Linux /proc); undefined elsewhere. */
async function residentMb(pid: number): Promise<number | undefined> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8').catch(() => undefined);
  const kb = status && /^VmRSS:\s+(\d+)\s+kB/m.exec(status)?.[1];
  return kb ? Number(kb) / 1024 : undefined;
}

/**
 * Runs `ifc-child.ts <task> <input> <output>` in its own process and resolves when it succeeded.
 * The child's V8 heap is capped at `memoryMb`; its whole resident memory (web-ifc's WebAssembly
 * memory included) is watched every 200 ms where /proc exists, and the child is killed past the
 * limit or the deadline. Rejects with an IfcJobError that says which limit was hit, or the
 * child's own error message.
 */
export function runIfcChild(
  task: 'read' | 'convert',
  input: string,
  output: string,
  limits: ChildLimits,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', TSX, `--max-old-space-size=${limits.memoryMb}`, CHILD, task, input, output],
      {
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    let killedFor: string | undefined;
    const kill = (reason: string) => {
      if (killedFor !== undefined) return;
      killedFor = reason;
      child.kill('SIGKILL');
    };
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEEP);
    });
    const watch = setInterval(() => {
      if (child.pid === undefined) return;
      void residentMb(child.pid).then((mb) => {
        if (mb !== undefined && mb > limits.memoryMb)
          kill(`needed more than ${limits.memoryMb} MB of memory (BKG_IFC_MEMORY_MB)`);
      });
    }, WATCH_MS);
    const deadline = setTimeout(
      () => kill(`took longer than ${Math.round(limits.timeoutMs / 1000)} s (BKG_IFC_TIMEOUT_SECONDS)`),
      limits.timeoutMs,
    );
    const onAbort = () => kill('stopped: the service shut down');
    limits.signal?.addEventListener('abort', onAbort, { once: true });
    if (limits.signal?.aborted) onAbort();
    child.once('error', (error) => kill(`could not start: ${error.message}`));
    child.once('close', (code, signal) => {
      clearInterval(watch);
      clearTimeout(deadline);
      limits.signal?.removeEventListener('abort', onAbort);
      if (killedFor === undefined && code === 0) return resolve();
      const reported = /\{"error":.*\}\s*$/.exec(stderr)?.[0];
      // V8 says so on stderr when it stops at the heap limit.
      const heap = /heap limit|out of memory/i.test(stderr)
        ? `needed more than ${limits.memoryMb} MB of memory (BKG_IFC_MEMORY_MB)`
        : undefined;
      const message =
        killedFor ??
        (reported && String((JSON.parse(reported) as { error: unknown }).error)) ??
        heap ??
        `exited with ${signal ?? `status ${code}`}`;
      reject(new IfcJobError(message.slice(0, 900)));
    });
  });
}
