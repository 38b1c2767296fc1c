import {
  getOperationAST,
  getVariableValues,
  Kind,
  TypeInfo,
  valueFromAST,
  visit,
  visitWithTypeInfo,
  type ArgumentNode,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLError,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { checkFilterText, isFilterArgument, type FilterArgument } from '../compiler/filter-text-limits.ts';
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

/** A filter argument of an operation, found once per document (`filterArguments`). */
interface FilterUse {
  readonly filter: FilterArgument;
  readonly node: ArgumentNode;
  readonly type: GraphQLInputType;
}

/** Per document, per operation name: its filter arguments, in document order. */
const found = new WeakMap<DocumentNode, Map<string, readonly FilterUse[]>>();

/**
 * The filter arguments of the operation and its fragments (validation has refused fragments no
 * operation uses), on any field at any depth: walked once per document, as yoga parses and
 * validates a document text once.
 */
function filterArguments(schema: GraphQLSchema, document: DocumentNode, operation: OperationDefinitionNode) {
  let byOperation = found.get(document);
  if (!byOperation) found.set(document, (byOperation = new Map()));
  const key = operation.name?.value ?? '';
  const known = byOperation.get(key);
  if (known) return known;
  const only: DocumentNode = {
    kind: Kind.DOCUMENT,
    definitions: document.definitions.filter((node) => node === operation || node.kind === Kind.FRAGMENT_DEFINITION),
  };
  const typeInfo = new TypeInfo(schema);
  const filters: FilterUse[] = [];
  visit(
    only,
    visitWithTypeInfo(typeInfo, {
      Argument(node) {
        const definition = typeInfo.getArgument();
        const filter = node.name.value;
        if (definition && isFilterArgument(filter)) filters.push({ filter, node, type: definition.type });
      },
    }),
  );
  byOperation.set(key, filters);
  return filters;
}

/** The refusal of the operation's first filter over its limit, or undefined when all are within. */
function overLimit(args: ExecutionArgs): GraphQLError | undefined {
  const operation = getOperationAST(args.document, args.operationName);
  if (!operation) return undefined;
  const filters = filterArguments(args.schema, args.document, operation);
  if (filters.length === 0) return undefined;
  const given = (args.variableValues ?? {}) as Record<string, unknown>;
  const variables = getVariableValues(args.schema, operation.variableDefinitions ?? [], given);
  // Variables that do not coerce are graphql-js's to report.
  if (variables.errors) return undefined;
  for (const { filter, node, type } of filters) {
    try {
      checkFilterText(filter, valueFromAST(node.value, type, variables.coerced));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return refusal(error, [node]);
    }
  }
  return undefined;
}
