import { describeFailure, StartupError } from './startup-error.ts';

type Openers = Record<string, () => Promise<unknown>>;
type Opened<T extends Openers> = { [K in keyof T]: Awaited<ReturnType<T[K]>> };

/** How long one engine may take to answer at start-up before that is reported as its problem. */
export const ENGINE_START_TIMEOUT_MS = 30_000;

const closeQuietly = async (value: unknown) => {
  const close = (value as { close?: () => Promise<void> } | undefined)?.close;
  if (typeof close === 'function') await close.call(value).catch(() => undefined);
};

/**
 * Opens the engines at once and waits for all of them. If any fails (or does not answer in time),
 * the ones that opened are closed again and a StartupError names every failure, one line each:
 * a bad database, Redis and S3 are reported together rather than one per restart.
 */
export async function openEngines<T extends Openers>(
  openers: T,
  timeoutMs = ENGINE_START_TIMEOUT_MS,
): Promise<Opened<T>> {
  const names = Object.keys(openers);
  const timers: NodeJS.Timeout[] = [];
  const results = await Promise.allSettled(
    names.map((name) =>
      Promise.race([
        openers[name]!(),
        new Promise<never>((_resolve, reject) => {
          timers.push(setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs).unref());
        }),
      ]),
    ),
  );
  for (const timer of timers) clearTimeout(timer);
  const problems = results.flatMap((result, i) =>
    result.status === 'rejected' ? [`${names[i]}: ${describeFailure(result.reason)}`] : [],
  );
  if (problems.length > 0) {
    await Promise.all(
      results.map((result) => (result.status === 'fulfilled' ? closeQuietly(result.value) : undefined)),
    );
    throw new StartupError(problems);
  }
  return Object.fromEntries(
    names.map((name, i) => [name, (results[i] as PromiseFulfilledResult<unknown>).value]),
  ) as Opened<T>;
}
