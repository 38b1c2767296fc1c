import { costLimitPlugin } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import type { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Config } from '../config/config.ts';

/** Depth, alias, cost and token limits (graphql-armor), each configurable. */
export function useQueryLimits(limits: Config['graphqlLimits']): Plugin[] {
  const onReject = [
    // The rules report this very error: its code says which kind of refusal it is, and its message
    // loses graphql-armor's "Syntax Error: " prefix (a query over a limit is valid GraphQL).
    (_context: unknown, error: GraphQLError) => {
      (error.extensions as Record<string, unknown>).code = 'QUERY_TOO_COMPLEX';
      error.message = error.message.replace(/^Syntax Error: /, '');
    },
  ];
  return [
    maxDepthPlugin({ n: limits.maxDepth, exposeLimits: true, onReject }),
    maxAliasesPlugin({ n: limits.maxAliases, exposeLimits: true, onReject }),
    costLimitPlugin({ maxCost: limits.maxCost, exposeLimits: true, onReject }),
    maxTokensPlugin({ n: limits.maxTokens, exposeLimits: true, onReject }),
  ] as Plugin[];
}
