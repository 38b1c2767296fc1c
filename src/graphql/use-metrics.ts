import { getOperationAST, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Metrics } from '../metrics/metrics.ts';

/** Counts executed operations by type, and the errors of every response by `extensions.code`. */
export function useMetrics(metrics: Metrics): Plugin {
  const operation = ({
    args,
  }: {
    args: { document: Parameters<typeof getOperationAST>[0]; operationName?: string | null };
  }) => {
    metrics.graphqlOperations.inc({ type: getOperationAST(args.document, args.operationName)?.operation ?? 'unknown' });
  };
  return {
    onExecute: operation,
    onSubscribe: operation,
    onResultProcess({ result }) {
      // Streams (subscriptions) are left out: their errors belong to events, not to a response.
      const results = (Array.isArray(result) ? result : [result]) as ExecutionResult[];
      for (const one of results) {
        for (const error of one?.errors ?? [])
          metrics.graphqlErrors.inc({ code: String(error.extensions?.code ?? 'INTERNAL_SERVER_ERROR') });
      }
    },
  };
}
