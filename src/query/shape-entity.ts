/**
 * Entity records → the objects GraphQL returns: kind checks, names, types and the other scalar
 * fields, exactly as docs/brick-mapping.md defines them.
 */
import type { Ontology } from '../ontology/ontology.ts';
import { unitSymbol } from '../ontology/unit-symbols.ts';
import { BRICK, localName } from '../rdf/vocabulary.ts';
import type { EntityRecord } from './entity-records.ts';
import type { SiteIds } from '../compiler/site-ids.ts';
import type { EntityKind, ScalarField, Selection } from '../compiler/plan.ts';

/** An entity as the resolvers see it: its IRI and kind, and a value per response key. */
export interface EntityObject {
  readonly __iri: string;
  readonly __kind: EntityKind;
  /** The timeseries `currentValue` is looked up for, when that field is selected. */
  readonly __timeseriesId?: string;
  [responseKey: string]: unknown;
}

/** The kinds of an entity: by its classes, else by the fallback facts of docs/brick-mapping.md, "Kinds add up". */
export function kindsOf(record: EntityRecord, ontology: Ontology): ReadonlySet<EntityKind> {
  const kinds = ontology.kindsOfTypes(record.types);
  if (kinds.size > 0) return kinds;
  return FALLBACK_KINDS[record.tag] ?? kinds;
}

const FALLBACK_KINDS: Record<string, ReadonlySet<EntityKind>> = {
  le: new Set(['Location']),
  hp: new Set(['Equipment']),
  pt: new Set(['Point']),
};

/** The least value (facts are sets: the answer must not depend on row order). */
function first(values: ReadonlySet<string> | readonly string[]): string | undefined {
  if (('size' in values ? values.size : values.length) <= 1) return values.values().next().value;
  return [...values].sort()[0];
}

/**
 * The name: rdfs:label, else skos:prefLabel, else brick:label, else the local name (not the
 * site-unique id: names need not be unique, and name filters compute this one in the store).
 */
export function nameOf(record: EntityRecord): string {
  for (const labels of record.labels) {
    const label = first(labels);
    if (label !== undefined) return label;
  }
  return localName(record.iri);
}

const writableByClass: ReadonlyArray<readonly [string, string]> = [
  [`${BRICK}Command`, 'true'],
  [`${BRICK}Setpoint`, 'true'],
  [`${BRICK}Parameter`, 'true'],
  [`${BRICK}Sensor`, 'false'],
  [`${BRICK}Status`, 'false'],
  [`${BRICK}Alarm`, 'false'],
];

function literalNamed(record: EntityRecord, name: string): string | undefined {
  for (const [predicate, values] of record.literals) if (localName(predicate) === name) return first(values);
  return undefined;
}

function writableOf(record: EntityRecord, ontology: Ontology): string | null {
  const stated = literalNamed(record, 'writable');
  if (stated !== undefined) return stated;
  for (const [cls, value] of writableByClass) {
    const closure = ontology.closure(cls);
    for (const t of record.types) if (closure.has(t)) return value;
  }
  return null;
}

/** The id of the equipment a point belongs to: an owner that is not a location, zone or system; "" if none. */
function equipmentIdOf(record: EntityRecord, ontology: Ontology, ids: SiteIds): string {
  const owners = [...record.owners]
    .filter(([, types]) => {
      const kinds = ontology.kindsOfTypes(types);
      return kinds.size === 0 || kinds.has('Equipment');
    })
    .map(([iri]) => iri)
    .sort();
  return owners[0] === undefined ? '' : ids.idOf(owners[0]);
}

function scalar(field: ScalarField, record: EntityRecord, kind: EntityKind, ontology: Ontology, ids: SiteIds): unknown {
  switch (field) {
    case 'uri':
      return record.iri;
    case 'id':
      return ids.idOf(record.iri);
    case 'name':
      return nameOf(record);
    case 'type': {
      const type = ontology.typeWithinKind(record.types, kind);
      return type === undefined ? kind : localName(type);
    }
    case 'typeHierarchy': {
      const type = ontology.typeWithinKind(record.types, kind);
      if (type === undefined) return [kind];
      if (!ontology.isKnownClass(type)) return [localName(type), kind];
      return ontology.typeHierarchy(type, kind);
    }
    case 'ifcId':
      return first(record.ifcIds) ?? null;
    case 'unit': {
      const unit = first(record.units);
      return unit === undefined ? null : localName(unit);
    }
    case 'unitSymbol': {
      const unit = first(record.units);
      return unit === undefined ? null : unitSymbol(unit);
    }
    case 'timeseriesId':
      return first(record.timeseriesIds) ?? null;
    case 'timeseriesIds':
      return [...record.timeseriesIds].sort();
    case 'writable':
      return writableOf(record, ontology);
    case 'valueType':
      return literalNamed(record, 'valueType') ?? null;
    case 'equipmentId':
      return equipmentIdOf(record, ontology, ids);
  }
}

/** Builds the object of one entity with the selection's scalar fields; `ids`: the site's (`site-ids.ts`). */
export function shapeEntity(
  record: EntityRecord,
  selection: Selection,
  ontology: Ontology,
  ids: SiteIds,
): EntityObject {
  const wantsValue = selection.fields.some((field) => field.type === 'currentValue');
  const timeseriesId = wantsValue ? first(record.timeseriesIds) : undefined;
  const object: EntityObject = {
    __iri: record.iri,
    __kind: selection.kind,
    ...(timeseriesId ? { __timeseriesId: timeseriesId } : {}),
  };
  for (const field of selection.fields) {
    if (field.type === 'scalar') object[field.key] = scalar(field.field, record, selection.kind, ontology, ids);
    // Filled by one batched lookup once the whole plan has run (src/query/execute-plan.ts).
    else if (field.type === 'currentValue') object[field.key] = null;
  }
  return object;
}
