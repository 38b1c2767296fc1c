/**
 * The signal of the HTTP request being served, so a store can stop asking the triplestore when
 * the client has gone away. Carried by AsyncLocalStorage: the resolvers and the compiler between
 * the HTTP layer and the store need not pass it along.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestHandler } from 'express';

const storage = new AsyncLocalStorage<AbortSignal>();

/** The current request's signal, aborted when its client disconnects; undefined outside a request. */
export function requestSignal(): AbortSignal | undefined {
  return storage.getStore();
}

/** Runs `fn` with `signal` as the current request's signal. */
export function withRequestSignal<T>(signal: AbortSignal, fn: () => T): T {
  return storage.run(signal, fn);
}

/** Express middleware: a signal per request, aborted when the connection closes before the response is sent. */
export function useRequestSignal(): RequestHandler {
  return (_req, res, next) => {
    const controller = new AbortController();
    res.once('close', () => {
      if (!res.writableFinished) controller.abort(new Error('The client went away'));
    });
    withRequestSignal(controller.signal, next);
  };
}
