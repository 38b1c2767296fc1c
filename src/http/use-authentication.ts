import { createHash } from 'node:crypto';
import type { RequestHandler } from 'express';
import type { AugmentedRequest, RateLimitRequestHandler } from 'express-rate-limit';
import type { Authenticator } from '../auth/authenticator.ts';
import { describeClient, type Client } from '../auth/client.ts';
import { AppError } from '../errors/app-error.ts';
import { currentRequestScope } from '../log/request-scope.ts';
import { anonymousKey } from '../http-kit/client-key.ts';

const isUnauthenticated = (error: unknown) => error instanceof AppError && error.code === 'UNAUTHENTICATED';

/**
 * Gives every request a client (and names it in the request's log lines). A failed authentication
 * counts as an anonymous request of its address: 401 within the anonymous limit, 429 past it. Once
 * refused, the address's tokens are not looked at until its window ends, so a flood of guessed keys
 * costs no key lookups; but a token that verified recently (from anywhere) still goes through, so
 * one client's flood does not lock out the other clients behind the same address (a NAT, a proxy).
 */
export function useAuthentication(authenticator: Authenticator, rateLimit: RateLimitRequestHandler): RequestHandler {
  const refused = new RefusedAddresses();
  const verified = new RecentTokens();
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
      void Promise.resolve(rateLimit(req, res, (error?: unknown) => (error === undefined ? then() : next(error)))).then(
        () => {
          const info = (req as AugmentedRequest).rateLimit;
          if (info && info.used > info.limit) refused.add(anonymousKey(ip), info.resetTime);
        },
      );
    };
    const authenticate = (counted: boolean) =>
      authenticator.authenticate(req.get('authorization'), ip).then(
        (client) => {
          if (client.kind !== 'anonymous') verified.add(req.get('authorization')!);
          identify(client);
          next();
        },
        (error: unknown) => (counted || !isUnauthenticated(error) ? next(error) : limitAsAnonymous(() => next(error))),
      );
    // Counted before its token is looked at; should the window have just ended, authentication goes on.
    const authorization = req.get('authorization');
    if (authorization && refused.has(anonymousKey(ip)) && !verified.has(authorization))
      limitAsAnonymous(() => void authenticate(true));
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

// Tokens remembered as recently verified: enough for every active client of a deployment.
const RECENT_TOKENS = 10_000;
const RECENT_MS = 10 * 60_000;

/**
 * Digests of Authorization headers that verified in the last ten minutes, the oldest forgotten
 * first. A digest, never the token: the map must not become a store of secrets. A revoked key in
 * it is still looked up (and then refused) as any token is.
 */
class RecentTokens {
  readonly #until = new Map<string, number>();

  has(authorization: string): boolean {
    const key = digest(authorization);
    const until = this.#until.get(key);
    return until !== undefined && until > Date.now();
  }

  add(authorization: string): void {
    const key = digest(authorization);
    this.#until.delete(key);
    this.#until.set(key, Date.now() + RECENT_MS);
    if (this.#until.size > RECENT_TOKENS) this.#until.delete(this.#until.keys().next().value!);
  }
}

const digest = (text: string) => createHash('sha256').update(text).digest('base64');
