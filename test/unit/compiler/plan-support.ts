/**
 * Helpers for the compiler's stage tests: plan a GraphQL document the way the root resolvers do,
 * and print a plan as plain data (sets and maps as sorted arrays and objects) to compare in tests.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSchema, executeSync, parse, validate, type GraphQLResolveInfo } from 'graphql';
import { buildPlan } from '../../../src/compiler/build-plan.ts';
import type {
  ClassFilter,
  Constraint,
  FieldPlan,
  RootPlan,
  RootQueryName,
  Selection,
  UnionSelection,
} from '../../../src/compiler/plan.ts';
import type { Ontology } from '../../../src/ontology/ontology.ts';
import { compactIri } from '../../../src/ontology/prefixes.ts';

export const schema = buildSchema(
  readFileSync(fileURLToPath(new URL('../../../src/graphql/schema.graphql', import.meta.url)), 'utf8'),
);

const ROOT_QUERIES: readonly RootQueryName[] = [
  'building',
  'equipment',
  'point',
  'zone',
  'system',
  'location',
  'entityByIfcId',
];
const SINGLE: ReadonlySet<RootQueryName> = new Set(['location', 'entityByIfcId']);

/**
 * Plans every root field of a (valid) document, by response key. GraphQL's own executor collects
 * the root fields and coerces arguments and variables; each root resolver calls `buildPlan` exactly
 * as src/graphql/resolvers.ts does. A planning error is rethrown as the error `buildPlan` threw.
 */
export function planDocument(
  ontology: Ontology,
  source: string,
  variableValues: Record<string, unknown> = {},
): Map<string, RootPlan> {
  const document = parse(source);
  const invalid = validate(schema, document);
  if (invalid.length > 0) throw new Error(`Invalid test document: ${invalid.map((e) => e.message).join('; ')}`);
  const plans = new Map<string, RootPlan>();
  const rootValue = Object.fromEntries(
    ROOT_QUERIES.map((query) => [
      query,
      (args: Record<string, unknown>, _context: unknown, info: GraphQLResolveInfo) => {
        const responseKey = info.path.key as string;
        const field = { request: info, responseKey, fieldNodes: info.fieldNodes };
        plans.set(responseKey, buildPlan(query, args.siteId as string, args, field, ontology));
        return SINGLE.has(query) ? null : [];
      },
    ]),
  );
  const result = executeSync({ schema, document, rootValue, variableValues });
  const error = result.errors?.[0];
  if (error) throw error.originalError ?? error;
  return plans;
}

/** Plans a document with one root field and returns its plan. */
export function planOne(ontology: Ontology, source: string, variableValues?: Record<string, unknown>): RootPlan {
  const plans = [...planDocument(ontology, source, variableValues).values()];
  if (plans.length !== 1) throw new Error(`Expected one root field, got ${plans.length}`);
  return plans[0]!;
}

/** A class filter as the prefixed name of the class the caller named; closures are asserted apart. */
const printClasses = (classes: ClassFilter) => compactIri(classes.iri);

export type PrintedField =
  | { key: string; scalar: string }
  | { key: string; properties: true }
  | { key: string; externalReferences: true }
  | { key: string; currentValue: true }
  | { key: string; typename: true }
  | { key: string; relation: string; args: Record<string, unknown>; selection: PrintedSelection };

export interface PrintedSelection {
  kind: string;
  attributes: string[];
  fields: PrintedField[];
}

function printField(field: FieldPlan): PrintedField {
  switch (field.type) {
    case 'scalar':
      return { key: field.key, scalar: field.field };
    case 'properties':
      return { key: field.key, properties: true };
    case 'externalReferences':
      return { key: field.key, externalReferences: true };
    case 'currentValue':
      return { key: field.key, currentValue: true };
    case 'typename':
      return { key: field.key, typename: true };
    case 'relation': {
      const { name, classes, recursive, maxDepth, medium, page } = field.args;
      const args: Record<string, unknown> = { recursive };
      if (name) args.name = `${name.match} ${name.value}`;
      if (classes) args.is = printClasses(classes);
      if (maxDepth !== undefined) args.maxDepth = maxDepth;
      if (medium !== undefined) args.medium = compactIri(medium);
      if (page !== undefined) args.page = page;
      return { key: field.key, relation: field.relation, args, selection: printSelection(field.selection) };
    }
  }
}

/** A selection as plain data: attributes sorted, fields in selection order. */
export function printSelection(selection: Selection): PrintedSelection {
  return {
    kind: selection.kind,
    attributes: [...selection.attributes].sort(),
    fields: selection.fields.map(printField),
  };
}

/** A union selection as an object keyed by member kind. */
export function printUnion(selection: UnionSelection): Record<string, PrintedSelection> {
  return Object.fromEntries([...selection.union].map(([kind, s]) => [kind, printSelection(s)]));
}

/** A constraint as plain data; class lists become their size, class filters the named class. */
export function printConstraint(c: Constraint): Record<string, unknown> {
  switch (c.type) {
    case 'kind':
      return { type: c.type, kind: c.kind, classes: c.classes.length };
    case 'class':
    case 'equipmentClass':
      return { type: c.type, is: printClasses(c.classes) };
    case 'inLocation':
      return { type: c.type, location: c.location };
    case 'ofEquipment':
      return { type: c.type, equipment: c.equipment };
    case 'ofZone':
      return { type: c.type, zone: c.zone };
    case 'inSystem':
      return { type: c.type, system: c.system };
    default:
      return { ...c };
  }
}

/** A root plan as plain data. */
export function printPlan(plan: RootPlan): Record<string, unknown> {
  return {
    key: plan.key,
    query: plan.query,
    siteId: plan.siteId,
    graph: plan.graph,
    kind: plan.kind,
    answer: plan.answer,
    ...(plan.page ? { page: plan.page } : {}),
    constraints: plan.constraints.map(printConstraint),
    selection: 'union' in plan.selection ? printUnion(plan.selection) : printSelection(plan.selection),
  };
}
