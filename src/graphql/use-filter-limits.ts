import {
  BREAK,
  getOperationAST,
  getVariableValues,
  Kind,
  TypeInfo,
  valueFromAST,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLError,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { checkFilterText, isFilterArgument } from '../compiler/filter-text-limits.ts';
import { AppError } from '../errors/app-error.ts';
import { refusal } from './use-error-codes.ts';

/**
 * Refuses an operation whose filter text is over its limit (`src/compiler/filter-text-limits.ts`),
 * as a literal in the document or through a variable, on any field at any depth: 400
 * BAD_USER_INPUT before anything is planned or sent to the store. The token limit
 * (`use-query-limits.ts`) counts a string as one token and never sees variables.
 */
export function useFilterLimits(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const error = overLimit(args);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const error = overLimit(args);
      if (error) setResultAndStopExecution({ errors: [error] });
    },
  };
}

/** The refusal of the operation's first filter over its limit, or undefined when all are within. */
function overLimit(args: ExecutionArgs): GraphQLError | undefined {
  const operation = getOperationAST(args.document, args.operationName);
  if (!operation) return undefined;
  const given = (args.variableValues ?? {}) as Record<string, unknown>;
  const variables = getVariableValues(args.schema, operation.variableDefinitions ?? [], given);
  // Variables that do not coerce are graphql-js's to report.
  if (variables.errors) return undefined;
  // The operation and its fragments (validation has refused fragments no operation uses).
  const document: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: args.document.definitions.filter(
      (node) => node === operation || node.kind === Kind.FRAGMENT_DEFINITION,
    ),
  };
  const typeInfo = new TypeInfo(args.schema);
  let found: GraphQLError | undefined;
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Argument(node) {
        const definition = typeInfo.getArgument();
        if (!definition || !isFilterArgument(node.name.value)) return undefined;
        try {
          checkFilterText(node.name.value, valueFromAST(node.value, definition.type, variables.coerced));
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          found = refusal(error, [node]);
          return BREAK;
        }
        return undefined;
      },
    }),
  );
  return found;
}
