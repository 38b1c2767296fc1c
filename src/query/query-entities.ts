/**
 * One typed call for domain code that needs entities of a site (the timeseries API, the demo
 * simulator, IFC elements, subscriptions): a kind, constraints and scalar fields in, typed entities
 * out. It builds the root plan GraphQL would build for the same question and runs it through the
 * same compiler and executor, so domain code never writes a plan or a pattern of its own.
 */
import { ATTRIBUTE_OF, classFilter } from '../compiler/build-plan.ts';
import type { EntityObject } from './shape-entity.ts';
import type {
  Constraint,
  EntityKind,
  FieldPlan,
  RelationName,
  RootPlan,
  RootQueryName,
  ScalarField,
  Selection,
} from '../compiler/plan.ts';
import { relations } from '../compiler/relations.ts';
import type { RequestWork } from '../limits/request-work.ts';
import { siteGraph } from '../rdf/vocabulary.ts';
import { noCurrentValues } from './current-value-source.ts';
import type { QueryLayer } from './query-layer.ts';

/** The value each scalar field holds (docs/brick-mapping.md). */
export interface EntityFieldValues {
  readonly uri: string;
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly typeHierarchy: readonly string[];
  readonly ifcId: string | null;
  readonly unit: string | null;
  readonly timeseriesId: string | null;
  /** Every timeseries id of the entity, sorted. */
  readonly timeseriesIds: readonly string[];
  readonly writable: string | null;
  readonly valueType: string | null;
  /** The id of the equipment a point belongs to; "" when none. */
  readonly equipmentId: string;
}

/** A field domain code may ask for. */
export type EntityField = keyof EntityFieldValues & ScalarField;

/** What the entities must be: every condition given holds. */
export interface EntityWhere {
  /** The one entity with this id (its local name, or its IRI). */
  readonly id?: string;
  /** Of this class or a subclass, named as GraphQL's `is` names it; UNKNOWN_CLASS when the site reads no such class. */
  readonly is?: string;
  /** Carrying this IFC GlobalId. */
  readonly ifcId?: string;
  /** Carrying one of these timeseries ids (a point, linked to one in any style of docs/brick-mapping.md). */
  readonly timeseriesIds?: readonly string[];
}

/**
 * `kind`: one entity kind, or `KgEntity` for the members of GraphQL's union (Building, Equipment,
 * Location, Zone, System), which needs `where.ifcId` to anchor on, as `entityByIfcId` does.
 */
export interface EntityRequest<F extends EntityField, G extends EntityField = never> {
  readonly siteId: string;
  readonly kind: EntityKind | 'KgEntity';
  readonly where?: EntityWhere;
  readonly fields: readonly F[];
  /** The request the entities are asked for: its deadline, budget and client's signal bound the queries. */
  readonly work?: RequestWork;
  /**
   * With each entity, the entities of one of its kind's relation fields (GraphQL's: `equipment` of
   * a Point), with their `fields`: one more query for all of them.
   */
  readonly related?: { readonly field: string; readonly fields: readonly G[] };
}

/** An entity found: its kind (the union member, for `KgEntity`), its IRI, the fields asked, and its related entities when asked. */
export type Entity<F extends EntityField, G extends EntityField = never> = {
  readonly kind: EntityKind;
  readonly iri: string;
} & {
  readonly [K in F]: EntityFieldValues[K];
} & ([G] extends [never] ? unknown : { readonly related: ReadonlyArray<Entity<G>> });

const ROOT_QUERY: Readonly<Record<EntityKind, RootQueryName>> = {
  Building: 'building',
  Equipment: 'equipment',
  Point: 'point',
  Zone: 'zone',
  System: 'system',
  Location: 'location',
};
const UNION_MEMBERS: readonly EntityKind[] = ['Building', 'Equipment', 'Location', 'Zone', 'System'];

const RELATED = 'related';

/** The selection of `fields` on entities of `kind`, and of the related entities' fields. */
function selectionOf(
  kind: EntityKind,
  fields: readonly EntityField[],
  related?: EntityRequest<EntityField, EntityField>['related'],
): Selection {
  const attributes = new Set(fields.flatMap((field) => ATTRIBUTE_OF[field] ?? []));
  const scalars: FieldPlan[] = fields.map((field) => ({ key: field, type: 'scalar', field }));
  if (!related) return { kind, attributes, fields: scalars };
  const relation = `${kind}.${related.field}` as RelationName;
  if (!(relation in relations)) throw new Error(`No relation ${relation}`);
  const args = { recursive: false };
  return {
    kind,
    attributes,
    fields: [
      ...scalars,
      {
        key: RELATED,
        type: 'relation',
        relation,
        args,
        selection: selectionOf(relations[relation].kinds[0]!, related.fields),
      },
    ],
  };
}

/** The entity as domain code reads it, from the executor's object. */
function entityOf(
  object: EntityObject,
  fields: readonly EntityField[],
  related: readonly EntityField[] | undefined,
): Record<string, unknown> {
  const entity: Record<string, unknown> = { kind: object.__kind, iri: object.__iri };
  for (const field of fields) entity[field] = object[field];
  if (related) {
    // A single relation (a point's equipment) holds one entity or null: read as a list of at most one.
    const value = object[RELATED] as EntityObject | EntityObject[] | null;
    entity.related = (Array.isArray(value) ? value : value ? [value] : []).map((child) =>
      entityOf(child, related, undefined),
    );
  }
  return entity;
}

/** The entities of a site that `request` asks for, in IRI order, with its fields. */
export async function queryEntities<F extends EntityField, G extends EntityField = never>(
  layer: QueryLayer,
  request: EntityRequest<F, G>,
): Promise<Array<Entity<F, G>>> {
  const { siteId, kind, where = {}, fields, related, work } = request;
  const ontology = await layer.siteOntology(siteId);
  const constraints: Constraint[] = [];
  if (kind !== 'KgEntity') constraints.push({ type: 'kind', kind, classes: ontology.sortedKindClasses(kind) });
  else if (where.ifcId === undefined) throw new Error('Entities of any kind are found by their IFC GlobalId');
  if (where.id !== undefined) constraints.push({ type: 'id', id: where.id });
  if (where.ifcId !== undefined) constraints.push({ type: 'ifcId', ifcId: where.ifcId });
  if (where.timeseriesIds !== undefined) constraints.push({ type: 'timeseries', ids: where.timeseriesIds });
  const classes = classFilter(ontology, 'is', where.is);
  if (classes) constraints.push({ type: 'class', classes });
  const plan: RootPlan = {
    key: 'entities',
    query: kind === 'KgEntity' ? 'entityByIfcId' : ROOT_QUERY[kind],
    siteId,
    graph: siteGraph(siteId),
    kind: kind === 'KgEntity' ? undefined : kind,
    answer: 'list',
    constraints,
    selection:
      kind === 'KgEntity'
        ? { union: new Map(UNION_MEMBERS.map((member) => [member, selectionOf(member, fields, related)])) }
        : selectionOf(kind, fields, related),
  };
  const found = (await layer.execute(plan, ontology, noCurrentValues, work)) as EntityObject[];
  return found.map((object) => entityOf(object, fields, related?.fields) as Entity<F, G>);
}
