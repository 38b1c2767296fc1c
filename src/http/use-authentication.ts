import type { RequestHandler } from 'express';
import type { AugmentedRequest, RateLimitRequestHandler } from 'express-rate-limit';
import type { Authenticator } from '../auth/authenticator.ts';
import { describeClient, type Client } from '../auth/client.ts';
import { AppError } from '../errors/app-error.ts';
import { currentRequestScope } from '../log/request-scope.ts';
import { anonymousKey } from './use-rate-limit.ts';

const isUnauthenticated = (error: unknown) => error instanceof AppError && error.code === 'UNAUTHENTICATED';

/**
 * Gives every request a client (and names it in the request's log lines). A failed authentication
 * counts as an anonymous request of its address: 401 within the anonymous limit, 429 past it. Once
 * refused, the address's tokens are not looked at until its window ends, so a flood of guessed keys
 * costs no key lookups; a valid token sent from that address waits out the window too.
 */
export function useAuthentication(authenticator: Authenticator, rateLimit: RateLimitRequestHandler): RequestHandler {
  const refused = new RefusedAddresses();
  return (req, res, next) => {
    const scope = currentRequestScope();
    const ip = req.ip ?? 'unknown';
    const identify = (client: Client) => {
      req.client = client;
      if (scope) scope.client = describeClient(client);
    };
    // The limiter answers 429 itself past the limit; within it, `then` goes on.
    const limitAsAnonymous = (then: () => void) => {
      identify({ kind: 'anonymous', id: ip });
      void Promise.resolve(rateLimit(req, res, (error?: unknown) => (error === undefined ? then() : next(error)))).then(() => {
        const info = (req as AugmentedRequest).rateLimit;
        if (info && info.used > info.limit) refused.add(anonymousKey(ip), info.resetTime);
      });
    };
    const authenticate = (counted: boolean) =>
      authenticator.authenticate(req.get('authorization'), ip).then(
        (client) => {
          identify(client);
          next();
        },
        (error: unknown) => (counted || !isUnauthenticated(error) ? next(error) : limitAsAnonymous(() => next(error))),
      );
    // Counted before its token is looked at; should the window have just ended, authentication goes on.
    if (req.get('authorization') && refused.has(anonymousKey(ip))) limitAsAnonymous(() => void authenticate(true));
    else void authenticate(false);
  };
}

/** Addresses refused after failed authentications, each until its rate-limit window ends. */
class RefusedAddresses {
  readonly #until = new Map<string, number>();

  has(key: string): boolean {
    const until = this.#until.get(key);
    if (until === undefined) return false;
    if (until > Date.now()) return true;
    this.#until.delete(key);
    return false;
  }

  add(key: string, until: Date | undefined): void {
    if (!until) return;
    const now = Date.now();
    // Windows are of one length, so entries expire roughly in the order they were added: the
    // expired ones are dropped from the front, and the map holds about one window's refusals.
    for (const [entry, time] of this.#until) {
      if (time > now) break;
      this.#until.delete(entry);
    }
    this.#until.delete(key);
    this.#until.set(key, until.getTime());
  }
}
