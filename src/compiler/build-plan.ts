/**
 * GraphQL selection and arguments → query plan. Arguments are validated and class names, media
 * and ids resolved here, so the later stages only see well-formed plans.
 */
import { getArgumentValues, getNamedType, isObjectType, type FieldNode } from 'graphql';
import { AppError, badUserInput } from '../errors/app-error.ts';
import { ENTITY_KINDS } from '../ontology/entity-kind.ts';
import { expandPrefixedName } from '../ontology/prefixes.ts';
import type { Ontology } from '../ontology/ontology.ts';
import { isAbsoluteIri } from '../rdf/iri.ts';
import { siteGraph } from '../rdf/vocabulary.ts';
import { collectFields, type RequestDocument } from './collect-fields.ts';
import type {
  Attribute,
  ClassFilter,
  Constraint,
  EntityKind,
  EntityRef,
  FieldPlan,
  NameFilter,
  Page,
  PropertyName,
  RelationArgs,
  RelationName,
  RootPlan,
  RootQueryName,
  ScalarField,
  Selection,
  UnionSelection,
  ValueFields,
} from './plan.ts';
import { relations } from './relations.ts';

const SCALARS = new Set<ScalarField>([
  'uri',
  'id',
  'name',
  'type',
  'typeHierarchy',
  'ifcId',
  'unit',
  'unitSymbol',
  'timeseriesId',
  'writable',
  'valueType',
  'equipmentId',
]);
/** The fact each scalar field needs fetched with its entity. */
export const ATTRIBUTE_OF: Readonly<Partial<Record<ScalarField, Attribute>>> = {
  name: 'labels',
  ifcId: 'ifc',
  unit: 'unit',
  unitSymbol: 'unit',
  timeseriesId: 'timeseries',
  timeseriesIds: 'timeseries',
  writable: 'literals',
  valueType: 'literals',
  equipmentId: 'owner',
};

/** The field of the request being planned: its nodes (one per occurrence) and the request around it. */
export interface PlannedField {
  readonly request: RequestDocument;
  readonly responseKey: string;
  readonly fieldNodes: readonly FieldNode[];
}

type Args = Record<string, unknown>;

const str = (args: Args, name: string): string | undefined =>
  typeof args[name] === 'string' ? (args[name] as string) : undefined;

function nameFilter(args: Args, nameArg = 'name'): NameFilter | undefined {
  const value = str(args, nameArg);
  if (value === undefined) return undefined;
  return { value, match: args.nameMatch === 'EXACT' ? 'EXACT' : 'CONTAINS' };
}

/** Resolves a class argument, or fails with UNKNOWN_CLASS naming the argument and close names. */
export function classFilter(ontology: Ontology, argument: string, name: string | undefined): ClassFilter | undefined {
  if (name === undefined) return undefined;
  const iri = ontology.resolveClass(name);
  if (!iri) {
    const suggestions = ontology.suggest(name);
    const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.join(', ')}?` : '';
    throw new AppError('UNKNOWN_CLASS', `Unknown class "${name}" in argument "${argument}".${hint}`, {
      argument,
      suggestions,
    });
  }
  // A kind's root class means the whole kind, so that kinds add up (docs/brick-mapping.md, "Kinds add up"):
  // `is: "System"` also takes the loops, which Brick puts under brick:Collection beside brick:System.
  const kind = ENTITY_KINDS.find((k) => ontology.isKindRoot(iri, k));
  return { iri, closure: kind ? ontology.sortedKindClasses(kind) : ontology.sortedClosure(iri) };
}

/**
 * No filter where a class argument names the root of the only kind asked for (`point(is: "Point")`):
 * kinds add up (docs/brick-mapping.md, "Kinds add up"), so it asks for what the kind alone asks, entities placed
 * in the kind by their links (an untyped point, or one of a class Brick does not know) included.
 */
function unlessKindRoot(
  ontology: Ontology,
  filter: ClassFilter | undefined,
  kinds: readonly EntityKind[],
): ClassFilter | undefined {
  return filter && kinds.length === 1 && ontology.isKindRoot(filter.iri, kinds[0]!) ? undefined : filter;
}

/** The page `limit` and `offset` ask for; none when neither is given. */
function pageOf(args: Args): Page | undefined {
  const bound = (name: 'limit' | 'offset'): number | undefined => {
    const value = args[name];
    if (value === undefined || value === null) return undefined;
    if ((value as number) < 0)
      throw badUserInput(`${name} must be 0 or more, got ${value as number}.`, { argument: name });
    return value as number;
  };
  const limit = bound('limit');
  const offset = bound('offset');
  return limit === undefined && offset === undefined ? undefined : { offset: offset ?? 0, limit };
}

function relationArgs(ontology: Ontology, args: Args, kinds: readonly EntityKind[]): RelationArgs {
  let maxDepth: number | undefined;
  if (args.maxDepth !== undefined && args.maxDepth !== null) {
    maxDepth = args.maxDepth as number;
    if (maxDepth < 1) throw badUserInput(`maxDepth must be at least 1, got ${maxDepth}.`, { argument: 'maxDepth' });
  }
  let medium: string | undefined;
  const mediumArg = str(args, 'medium');
  if (mediumArg !== undefined) {
    medium = ontology.resolveMedium(mediumArg);
    if (!medium) {
      throw new AppError(
        'UNKNOWN_MEDIUM',
        `Unknown medium "${mediumArg}". Use one of ${ontology.mediumValues.join(', ')}.`,
        {
          argument: 'medium',
          allowed: ontology.mediumValues,
        },
      );
    }
  }
  return {
    name: nameFilter(args),
    classes: unlessKindRoot(ontology, classFilter(ontology, 'is', str(args, 'is')), kinds),
    recursive: args.recursive === true,
    maxDepth,
    medium,
    page: pageOf(args),
  };
}

/** The fields selected on a value type (EntityProperty, PointValue, ExternalReference), and on its object-valued fields. */
function valueFields(request: RequestDocument, typeName: string, nodes: readonly FieldNode[]): ValueFields {
  const type = request.schema.getType(typeName);
  const definitions = isObjectType(type) ? type.getFields() : {};
  return [
    ...collectFields(
      request,
      typeName,
      nodes.map((n) => n.selectionSet),
    ),
  ].map(([key, fieldNodes]) => {
    const name = fieldNodes[0]!.name.value;
    const definition = definitions[name];
    const valueType = definition && getNamedType(definition.type);
    return isObjectType(valueType)
      ? ([key, name, { typeName: valueType.name, fields: valueFields(request, valueType.name, fieldNodes) }] as const)
      : ([key, name] as const);
  });
}

/** Plans the selection of an object type (one of the entity kinds). */
function planSelection(field: PlannedField, typeName: string, ontology: Ontology): Selection {
  const { request } = field;
  const type = request.schema.getType(typeName);
  if (!isObjectType(type)) throw new Error(`${typeName} is not an object type`);
  const kind = typeName as EntityKind;
  const attributes = new Set<Attribute>();
  const fields: FieldPlan[] = [];
  const selected = collectFields(
    request,
    typeName,
    field.fieldNodes.map((n) => n.selectionSet),
  );
  for (const [key, nodes] of selected) {
    const node = nodes[0]!;
    const name = node.name.value;
    if (name === '__typename') {
      fields.push({ key, type: 'typename' });
      continue;
    }
    const definition = type.getFields()[name];
    if (!definition) continue;
    if (SCALARS.has(name as ScalarField)) {
      fields.push({ key, type: 'scalar', field: name as ScalarField });
      const attribute = ATTRIBUTE_OF[name as ScalarField];
      if (attribute) attributes.add(attribute);
    } else if (name === 'properties') {
      fields.push({ key, type: 'properties', fields: valueFields(request, 'EntityProperty', nodes) });
    } else if (name === 'externalReferences') {
      fields.push({ key, type: 'externalReferences', fields: valueFields(request, 'ExternalReference', nodes) });
    } else if (name === 'currentValue') {
      fields.push({ key, type: 'currentValue', fields: valueFields(request, 'PointValue', nodes) });
      attributes.add('timeseries');
    } else {
      const relation = `${typeName}.${name}` as RelationName;
      if (!(relation in relations)) throw new Error(`No relation ${relation}`);
      const args = getArgumentValues(definition, node, request.variableValues as Record<string, unknown>);
      const childType = getNamedType(definition.type).name;
      const child: PlannedField = { request, responseKey: key, fieldNodes: nodes };
      fields.push({
        key,
        type: 'relation',
        relation,
        args: relationArgs(ontology, args, relations[relation].kinds),
        selection: planSelection(child, childType, ontology),
      });
    }
  }
  return { kind, attributes, fields };
}

function planUnion(field: PlannedField, ontology: Ontology): UnionSelection {
  const union = new Map<EntityKind, Selection>();
  for (const kind of ['Building', 'Equipment', 'Location', 'Zone', 'System'] as const)
    union.set(kind, planSelection(field, kind, ontology));
  return { union };
}

const idRef = (id: string | undefined): EntityRef | undefined => (id === undefined ? undefined : { id });

/** The constraints a root query's arguments impose, resolved against the ontology. */
function rootConstraints(
  query: RootQueryName,
  kind: EntityKind | undefined,
  args: Args,
  ontology: Ontology,
): Constraint[] {
  const constraints: Constraint[] = [];
  const classesOf = (k: EntityKind) => ontology.sortedKindClasses(k);
  if (kind) constraints.push({ type: 'kind', kind, classes: classesOf(kind) });
  const id = str(args, query === 'location' ? 'locationId' : 'id');
  if (id !== undefined) constraints.push({ type: 'id', id });
  const name = nameFilter(args);
  if (name) constraints.push({ type: 'name', name });
  const is = unlessKindRoot(ontology, classFilter(ontology, 'is', str(args, 'is')), kind ? [kind] : []);
  if (is) constraints.push({ type: 'class', classes: is });
  if (query !== 'location') {
    const location =
      idRef(str(args, 'locationId')) ??
      (str(args, 'locationName') !== undefined ? { name: nameFilter(args, 'locationName')! } : undefined);
    if (location) constraints.push({ type: 'inLocation', location, locationClasses: classesOf('Location') });
  }
  const equipment = idRef(str(args, 'equipmentId'));
  if (equipment) constraints.push({ type: 'ofEquipment', equipment, equipmentClasses: classesOf('Equipment') });
  const equipmentIs = classFilter(ontology, 'equipmentIs', str(args, 'equipmentIs'));
  if (equipmentIs) constraints.push({ type: 'equipmentClass', classes: equipmentIs });
  const zone = idRef(str(args, 'zoneId'));
  if (zone) constraints.push({ type: 'ofZone', zone, zoneClasses: classesOf('Zone') });
  const system = idRef(str(args, 'systemId'));
  if (system) constraints.push({ type: 'inSystem', system, systemClasses: classesOf('System') });
  const hasProperty = str(args, 'hasProperty');
  const propertyValue = str(args, 'propertyValue');
  if (hasProperty !== undefined || propertyValue !== undefined) {
    constraints.push({
      type: 'property',
      name: hasProperty === undefined ? undefined : propertyName(hasProperty),
      value: propertyValue,
    });
  }
  const ifcId = str(args, 'ifcId');
  if (ifcId !== undefined) constraints.push({ type: 'ifcId', ifcId });
  return constraints;
}

const ROOT_KIND: Record<RootQueryName, EntityKind | undefined> = {
  building: 'Building',
  equipment: 'Equipment',
  point: 'Point',
  zone: 'Zone',
  system: 'System',
  location: 'Location',
  entityByIfcId: undefined,
};

/** Plans a root query field; `count`: its count field (`pointCount` for `point`), which selects nothing. */
export function buildPlan(
  query: RootQueryName,
  siteId: string,
  args: Args,
  field: PlannedField,
  ontology: Ontology,
  count = false,
): RootPlan {
  const kind = ROOT_KIND[query];
  const single = query === 'location' || query === 'entityByIfcId';
  let selection: Selection | UnionSelection;
  if (count) selection = { kind: kind!, attributes: new Set(), fields: [] };
  else selection = kind ? planSelection(field, kind, ontology) : planUnion(field, ontology);
  return {
    key: field.responseKey,
    query,
    siteId,
    graph: siteGraph(siteId),
    kind,
    answer: count ? 'count' : single ? 'one' : 'list',
    page: single || count ? undefined : pageOf(args),
    constraints: rootConstraints(query, kind, args, ontology),
    selection,
    ...unmarkedOf(ontology),
  };
}

/** The kinds a kind test is written for: those an argument names an entity of, and those a relation pattern tests. */
const TESTED_KINDS: readonly EntityKind[] = ['Location', 'Equipment', 'Zone', 'System'];

/** The classes a site reads that the ontology graph's kind marks miss, per kind a query tests (`TESTED_KINDS`). */
function unmarkedOf(ontology: Ontology): Pick<RootPlan, 'unmarked'> {
  const entries = TESTED_KINDS.map((kind) => [kind, ontology.unmarkedKindClasses(kind)] as const).filter(
    ([, list]) => list.length > 0,
  );
  return entries.length > 0 ? { unmarked: Object.fromEntries(entries) } : {};
}

/** `hasProperty` as a predicate IRI (full, or prefixed with a known prefix) or as a local name. */
function propertyName(text: string): PropertyName {
  // Only a valid IRI names a predicate: anything else is a local name, which may match nothing.
  const iri = [expandPrefixedName(text), text].find((candidate) => candidate !== undefined && isAbsoluteIri(candidate));
  return iri === undefined ? { localName: text } : { iri };
}
