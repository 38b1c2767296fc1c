/**
 * Query operations made of the service's own root fields (entity lists, lookups, counts) are
 * answered without graphql-js executing them. The plan has already built every object of the
 * answer (src/compiler/); graphql-js would walk them again, a resolver call per field, each list
 * in one synchronous loop (112k points: ~400 ms of the main thread at once, a third of the
 * request). Here the answer is completed from the plan's objects in slices (`complete-answer.ts`).
 * Anything else (introspection beside them, a subscription, variables that do not coerce) goes to
 * graphql-js. Validation has run before either; errors are located as graphql-js locates them,
 * and yoga masks them as it masks any.
 */
import {
  getArgumentValues,
  getOperationAST,
  getVariableValues,
  isNonNullType,
  Kind,
  locatedError,
  type ExecutionArgs,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLObjectType,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { collectFields, type RequestDocument } from '../compiler/collect-fields.ts';
import { completeAnswer } from './complete-answer.ts';
import type { GraphQLContext } from './context.ts';
import { ROOT_FIELDS, runRootField } from './resolvers.ts';

export function useDirectExecution(): Plugin {
  return {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn((args: ExecutionArgs) => executeDirectly(args) ?? executeFn(args));
    },
  };
}

/** A query operation's root fields by response key, collected as graphql-js collects them, with what collected them. */
export interface QueryRootFields {
  readonly request: RequestDocument;
  readonly queryType: GraphQLObjectType;
  readonly fields: Map<string, FieldNode[]>;
}

/** Per request (its context), the root fields collected: the answer cache and the execution both ask. */
const collected = new WeakMap<object, { document: ExecutionArgs['document']; root: QueryRootFields | undefined }>();

/** The root fields of a query operation; undefined for another operation, or variables that do not coerce. */
export function queryRootFields(args: ExecutionArgs): QueryRootFields | undefined {
  const context = args.contextValue as object | undefined;
  const known = context && collected.get(context);
  if (known?.document === args.document) return known.root;
  const root = collectRootFields(args);
  if (context) collected.set(context, { document: args.document, root });
  return root;
}

function collectRootFields(args: ExecutionArgs): QueryRootFields | undefined {
  const operation = getOperationAST(args.document, args.operationName);
  const queryType = args.schema.getQueryType();
  if (operation?.operation !== 'query' || !queryType) return undefined;
  const variables = getVariableValues(
    args.schema,
    operation.variableDefinitions ?? [],
    (args.variableValues ?? {}) as Record<string, unknown>,
  );
  if (variables.errors) return undefined;
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of args.document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  const request: RequestDocument = { schema: args.schema, fragments, variableValues: variables.coerced };
  return { request, queryType, fields: collectFields(request, queryType.name, [operation.selectionSet]) };
}

/** The operation's answer, or undefined when graphql-js should execute it. */
function executeDirectly(args: ExecutionArgs): Promise<ExecutionResult> | undefined {
  const root = queryRootFields(args);
  if (!root) return undefined;
  for (const [node] of root.fields.values())
    if (node!.name.value !== '__typename' && !ROOT_FIELDS.has(node!.name.value)) return undefined;
  return answer(root.request, root.queryType, root.fields, args.contextValue as GraphQLContext);
}

/** Every root field at once, as graphql-js runs a query's; an error nulls its field, or all data for a non-null one. */
async function answer(
  request: RequestDocument,
  queryType: GraphQLObjectType,
  fields: Map<string, FieldNode[]>,
  context: GraphQLContext,
): Promise<ExecutionResult> {
  const data: Record<string, unknown> = {};
  const errors: GraphQLError[] = [];
  let dataNulled = false;
  for (const key of fields.keys()) data[key] = null;
  await Promise.all(
    [...fields].map(async ([key, nodes]) => {
      const name = nodes[0]!.name.value;
      if (name === '__typename') {
        data[key] = queryType.name;
        return;
      }
      const definition = queryType.getFields()[name]!;
      try {
        const args = getArgumentValues(definition, nodes[0]!, request.variableValues as Record<string, unknown>);
        const { plan, answer } = await runRootField(name, args, context, {
          request,
          responseKey: key,
          fieldNodes: nodes,
        });
        data[key] = await completeAnswer(answer, plan.selection, context.work?.signal);
      } catch (error) {
        errors.push(locatedError(error, nodes, [key]));
        if (isNonNullType(definition.type)) dataNulled = true;
      }
    }),
  );
  const result = dataNulled ? null : data;
  return errors.length > 0 ? { errors, data: result } : { data: result };
}
