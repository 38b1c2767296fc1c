import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import { AppError } from '../errors/app-error.ts';
import { clientKey } from '../http-kit/client-key.ts';
import type { SubscriptionSlots } from '../limits/subscription-slots.ts';
import type { GraphQLContext } from './context.ts';
import { refusal } from './use-error-codes.ts';

/**
 * Caps the subscriptions a client holds open at once (a client as rate limits count it: its API key, its
 * user or its address; docs/security.md, "Input, subscriptions, CORS and quotas"), counted in this
 * replica, where their connections are, together with its feeds of graph changes. A subscription
 * past the cap is refused before it costs anything (429, RATE_LIMITED, event stream or not); one
 * that ends, fails to start, or whose client goes away frees its slot.
 */
export function useSubscriptionCap(slots: SubscriptionSlots): Plugin<GraphQLContext> {
  return {
    onSubscribe({ args, setResultAndStopExecution }) {
      const client = (args.contextValue as GraphQLContext).client;
      let release: () => void;
      try {
        release = slots.take(clientKey(client), client.kind);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        setResultAndStopExecution({ errors: [refusal(error)] });
        return;
      }
      return {
        onSubscribeResult: ({ result }) => (isAsyncIterable(result) ? { onEnd: release } : release()),
        onSubscribeError: release,
      };
    },
  };
}
