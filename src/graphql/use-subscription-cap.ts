import type { GraphQLError } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { Client } from '../auth/client.ts';
import { AppError } from '../errors/app-error.ts';
import { clientKey } from '../http-kit/client-key.ts';
import type { GraphQLContext } from './context.ts';
import type { SubscriptionCapConfig } from '../config/subscription-cap-config.ts';
import { refusal } from './use-error-codes.ts';

const HOLDER_NAMES: Record<Client['kind'], string> = { key: 'API key', user: 'user', anonymous: 'address' };

/** RATE_LIMITED as GraphQL gives it, with the HTTP status yoga answers a refused subscription with (429, event stream or not). */
function capReached(kind: Client['kind'], cap: number): GraphQLError {
  const message = `Too many open subscriptions: at most ${cap} per ${HOLDER_NAMES[kind]}. Close one to open another.`;
  return refusal(new AppError('RATE_LIMITED', message));
}

/**
 * Caps the subscriptions a client holds open at once (a client as rate limits count it: its API key, its
 * user or its address; docs/security.md, "Input, subscriptions, CORS and quotas"), counted in this
 * replica, where their connections are. A subscription past the cap is refused before it costs
 * anything (429, RATE_LIMITED); one that ends, fails to start, or whose client goes away frees
 * its slot.
 */
export function useSubscriptionCap(caps: SubscriptionCapConfig): Plugin<GraphQLContext> {
  const open = new Map<string, number>();
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const client = (args.contextValue as GraphQLContext).client;
      const holder = clientKey(client);
      const held = open.get(holder) ?? 0;
      if (held >= caps[client.kind]) {
        setResultAndStopExecution({ errors: [capReached(client.kind, caps[client.kind])] });
        return;
      }
      open.set(holder, held + 1);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        const left = open.get(holder)! - 1;
        if (left === 0) open.delete(holder);
        else open.set(holder, left);
      };
      return {
        onSubscribeResult: ({ result }) => (isAsyncIterable(result) ? { onEnd: release } : release()),
        onSubscribeError: release,
      };
    },
  };
}
