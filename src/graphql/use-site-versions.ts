import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLContext } from './context.ts';

/**
 * Names, in the answer's `extensions.versions`, the version of each site's graph the request read
 * (`{"hq": 12}`): the ETag an export of that graph answers is `"v12"`, so a client can tell which
 * answers came from the same graph, and base a change on what it read (If-Match).
 */
export function useSiteVersions(): Plugin<GraphQLContext> {
  return {
    onExecute({ args }) {
      const context = args.contextValue as GraphQLContext;
      return {
        onExecuteDone({ result, setResult }) {
          if (context.versions.size === 0 || Symbol.asyncIterator in (result as object)) return;
          const answer = result as ExecutionResult;
          setResult({
            ...answer,
            extensions: { ...answer.extensions, versions: Object.fromEntries(context.versions) },
          });
        },
      };
    },
  };
}
