import {
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  getDirectiveValues,
  isAbstractType,
  isObjectType,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';

/** What field collection needs from a request (a subset of GraphQLResolveInfo). */
export interface RequestDocument {
  readonly schema: GraphQLSchema;
  readonly fragments: Readonly<Record<string, FragmentDefinitionNode>>;
  readonly variableValues: Readonly<Record<string, unknown>>;
}

/**
 * The fields selected on an object type, by response key, as GraphQL's CollectFields does it:
 * fragments whose type condition applies, and @skip/@include honoured.
 */
export function collectFields(
  request: RequestDocument,
  typeName: string,
  selectionSets: readonly (SelectionSetNode | undefined)[],
): Map<string, FieldNode[]> {
  const fields = new Map<string, FieldNode[]>();
  const visited = new Set<string>();
  const applies = (condition: string | undefined): boolean => {
    if (condition === undefined || condition === typeName) return true;
    const conditionType = request.schema.getType(condition);
    const objectType = request.schema.getType(typeName);
    return (
      !!conditionType &&
      isAbstractType(conditionType) &&
      isObjectType(objectType) &&
      request.schema.isSubType(conditionType, objectType)
    );
  };
  const included = (node: FieldNode | { directives?: FieldNode['directives'] }): boolean => {
    const skip = getDirectiveValues(GraphQLSkipDirective, node, request.variableValues as Record<string, unknown>);
    if (skip?.if === true) return false;
    const include = getDirectiveValues(
      GraphQLIncludeDirective,
      node,
      request.variableValues as Record<string, unknown>,
    );
    return include?.if !== false;
  };
  const visit = (selectionSet: SelectionSetNode | undefined) => {
    for (const selection of selectionSet?.selections ?? []) {
      if (!included(selection)) continue;
      if (selection.kind === 'Field') {
        const key = selection.alias?.value ?? selection.name.value;
        const same = fields.get(key);
        if (same) same.push(selection);
        else fields.set(key, [selection]);
      } else if (selection.kind === 'InlineFragment') {
        if (applies(selection.typeCondition?.name.value)) visit(selection.selectionSet);
      } else {
        const name = selection.name.value;
        const fragment = request.fragments[name];
        if (visited.has(name) || !fragment) continue;
        visited.add(name);
        if (applies(fragment.typeCondition.name.value)) visit(fragment.selectionSet);
      }
    }
  };
  selectionSets.forEach(visit);
  return fields;
}
