import { AsyncLocalStorage } from 'node:async_hooks';

/** What every log line written while serving a request says about it. */
export interface RequestScope {
  readonly requestId: string;
  /** Who is calling (kind and key id, never a secret); set once authentication has run. */
  client?: Readonly<Record<string, string>>;
}

const storage = new AsyncLocalStorage<RequestScope>();

/** Runs `work` (and everything it starts) inside the request's scope. */
export function runInRequestScope<T>(scope: RequestScope, work: () => T): T {
  return storage.run(scope, work);
}

/** The scope of the request being served, if any. */
export function currentRequestScope(): RequestScope | undefined {
  return storage.getStore();
}
