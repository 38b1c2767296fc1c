/**
 * The query plan: what a GraphQL request asks for, resolved against the ontology and free of
 * GraphQL syntax. Built by `build-plan.ts`, turned into SPARQL by `sparql-builder.ts`, run by
 * `src/query/execute-plan.ts`. Plain data, so a plan can be printed and compared in tests.
 */
import type { EntityKind } from '../ontology/ontology.ts';

export type { EntityKind };

/** Scalar fields an entity object can carry. */
export type ScalarField =
  | 'uri'
  | 'id'
  | 'name'
  | 'type'
  | 'typeHierarchy'
  | 'ifcId'
  | 'unit'
  | 'unitSymbol'
  | 'timeseriesId'
  /** Every timeseries id of the entity, sorted (domain code's; GraphQL shows `timeseriesId`). */
  | 'timeseriesIds'
  | 'writable'
  | 'valueType'
  | 'equipmentId';

/** Optional facts fetched with each entity, beyond its types, when a field needs them (`labels`: its name). */
export type Attribute = 'labels' | 'ifc' | 'timeseries' | 'unit' | 'literals' | 'owner' | 'output';

export interface NameFilter {
  readonly value: string;
  readonly match: 'CONTAINS' | 'EXACT';
}

/** A resolved class argument: the class the caller named and every class that matches it. */
export interface ClassFilter {
  readonly iri: string;
  readonly closure: readonly string[];
}

/** A page of a list: `offset` results skipped, then at most `limit` (all the rest without it), in the list's order. */
export interface Page {
  readonly offset: number;
  readonly limit?: number;
}

export interface RelationArgs {
  readonly name?: NameFilter;
  readonly classes?: ClassFilter;
  readonly recursive: boolean;
  readonly maxDepth?: number;
  /** The substance IRI the traversal's edges must carry. */
  readonly medium?: string;
  readonly page?: Page;
}

/** Relation fields, named `<Type>.<field>`. */
export type RelationName =
  | 'Building.locations'
  | 'Building.equipment'
  | 'Building.zones'
  | 'Building.systems'
  | 'Building.points'
  | 'Location.parent'
  | 'Location.locations'
  | 'Location.equipment'
  | 'Location.points'
  | 'Location.zones'
  | 'Equipment.points'
  | 'Equipment.parts'
  | 'Equipment.partOf'
  | 'Equipment.feeds'
  | 'Equipment.fedBy'
  | 'Equipment.upstream'
  | 'Equipment.downstream'
  | 'Equipment.location'
  | 'Equipment.systems'
  | 'Zone.locations'
  | 'Zone.fedBy'
  | 'Zone.upstream'
  | 'Zone.points'
  | 'System.equipment'
  | 'System.points'
  | 'Point.equipment'
  | 'Point.location';

/**
 * The fields selected on a value that is not an entity (EntityProperty, PointValue,
 * ExternalReference): response key, field name, and when the field's values are objects
 * themselves (an ExternalReference's `fields`), their type and the fields selected on them.
 */
export type ValueFields = ReadonlyArray<readonly [key: string, field: string, nested?: NestedValues]>;

/** The objects a value's field holds: their GraphQL type, and the fields selected on them. */
export interface NestedValues {
  readonly typeName: string;
  readonly fields: ValueFields;
}

export type FieldPlan =
  | { readonly key: string; readonly type: 'scalar'; readonly field: ScalarField }
  | {
      readonly key: string;
      readonly type: 'relation';
      readonly relation: RelationName;
      readonly args: RelationArgs;
      readonly selection: Selection;
    }
  | { readonly key: string; readonly type: 'properties'; readonly fields: ValueFields }
  | { readonly key: string; readonly type: 'externalReferences'; readonly fields: ValueFields }
  | { readonly key: string; readonly type: 'currentValue'; readonly fields: ValueFields }
  | { readonly key: string; readonly type: 'typename' };

/** What to build for each entity of one kind. */
export interface Selection {
  readonly kind: EntityKind;
  readonly attributes: ReadonlySet<Attribute>;
  readonly fields: readonly FieldPlan[];
}

/** A selection on the KgEntity union: one selection per member kind. */
export interface UnionSelection {
  readonly union: ReadonlyMap<EntityKind, Selection>;
}

/** A condition a root query's entities must meet. */
export type Constraint =
  | { readonly type: 'id'; readonly id: string }
  | { readonly type: 'name'; readonly name: NameFilter }
  | { readonly type: 'class'; readonly classes: ClassFilter }
  | { readonly type: 'kind'; readonly kind: EntityKind; readonly classes: readonly string[] }
  | { readonly type: 'inLocation'; readonly location: EntityRef; readonly locationClasses: readonly string[] }
  | { readonly type: 'ofEquipment'; readonly equipment: EntityRef; readonly equipmentClasses: readonly string[] }
  | { readonly type: 'equipmentClass'; readonly classes: ClassFilter }
  | { readonly type: 'ofZone'; readonly zone: EntityRef; readonly zoneClasses: readonly string[] }
  | { readonly type: 'inSystem'; readonly system: EntityRef; readonly systemClasses: readonly string[] }
  | { readonly type: 'property'; readonly name?: PropertyName; readonly value?: string }
  | { readonly type: 'ifcId'; readonly ifcId: string }
  | { readonly type: 'timeseries'; readonly ids: readonly string[] };

/**
 * How `hasProperty` names a property: by its predicate's full IRI (or a prefixed name with a known
 * prefix, `brick:area`), matching that predicate exactly, or by a bare local name, matching every
 * predicate that ends with it (`area` is `brick:area` and `ex:area` alike).
 */
export type PropertyName = { readonly iri: string } | { readonly localName: string };

/** How a root argument names another entity: by id (local name or IRI) or by name. */
export type EntityRef = { readonly id: string } | { readonly name: NameFilter };

export type RootQueryName = 'building' | 'equipment' | 'point' | 'zone' | 'system' | 'location' | 'entityByIfcId';

export interface RootPlan {
  readonly key: string;
  readonly query: RootQueryName;
  readonly siteId: string;
  readonly graph: string;
  readonly kind: EntityKind | undefined;
  /** What the query answers: the list (`page` of it, when given), one entity or null, or how many the list holds. */
  readonly answer: 'list' | 'one' | 'count';
  readonly page?: Page;
  readonly constraints: readonly Constraint[];
  readonly selection: Selection | UnionSelection;
  /** The site's classes without a kind mark (`UnmarkedClasses`). Absent: none. */
  readonly unmarked?: UnmarkedClasses;
}

/**
 * Per kind, the site's classes the ontology graph does not mark with it (older Brick names, the
 * site's own classes: `Ontology.unmarkedKindClasses`), which a kind test must list beside the marks.
 */
export type UnmarkedClasses = Readonly<Partial<Record<EntityKind, readonly string[]>>>;
