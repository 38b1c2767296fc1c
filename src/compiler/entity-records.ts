/**
 * Rows of an entity query → one record per entity, with the facts its fields are built from,
 * and the links from each parent to its candidate children.
 */
import type { SparqlRow } from '../store/graph-store.ts';

/** What the store told about one entity. */
export interface EntityRecord {
  readonly iri: string;
  readonly types: Set<string>;
  /** rdfs:label, skos:prefLabel, brick:label values, in that order of preference. */
  readonly labels: [string[], string[], string[]];
  /** Fallback kind facts (see `tagOf`): `le`, `hp`, `pt` or empty. */
  tag: string;
  readonly ifcIds: Set<string>;
  readonly timeseriesIds: Set<string>;
  readonly units: Set<string>;
  /** Literal values of `writable`/`valueType`-named predicates, by predicate IRI. */
  readonly literals: Map<string, string[]>;
  /** Entities this one is a point of, with their types. */
  readonly owners: Map<string, Set<string>>;
  readonly outputs: Set<string>;
}

/** Links from a parent IRI to its children, each with the rank of its best path (lower is better). */
export type Links = Map<string, Map<string, number>>;

function newRecord(iri: string): EntityRecord {
  return {
    iri,
    types: new Set(),
    labels: [[], [], []],
    tag: '',
    ifcIds: new Set(),
    timeseriesIds: new Set(),
    units: new Set(),
    literals: new Map(),
    owners: new Map(),
    outputs: new Set(),
  };
}

/** Reads an entity query's rows: the records, and (for relation queries) the parent links. */
export function readEntityRows(rows: readonly SparqlRow[]): { records: Map<string, EntityRecord>; links: Links } {
  const records = new Map<string, EntityRecord>();
  const links: Links = new Map();
  for (const row of rows) {
    const e = row.e?.value;
    if (e === undefined) continue;
    let record = records.get(e);
    if (!record) records.set(e, (record = newRecord(e)));
    if (row.tag?.value) record.tag = row.tag.value;
    const parent = row.parent?.value;
    if (parent !== undefined) {
      let children = links.get(parent);
      if (!children) links.set(parent, (children = new Map()));
      const rank = row.rank ? Number(row.rank.value) : 0;
      const known = children.get(e);
      if (known === undefined || rank < known) children.set(e, rank);
    }
    addFact(record, row);
  }
  return { records, links };
}

function addFact(record: EntityRecord, row: SparqlRow): void {
  const value = row.v?.value;
  if (value === undefined) return;
  switch (row.a?.value) {
    case 't':
      record.types.add(value);
      break;
    case 'l0':
      record.labels[0].push(value);
      break;
    case 'l1':
      record.labels[1].push(value);
      break;
    case 'l2':
      record.labels[2].push(value);
      break;
    case 'ifc':
      record.ifcIds.add(value);
      break;
    case 'ts':
      record.timeseriesIds.add(value);
      break;
    case 'u':
      record.units.add(value);
      break;
    case 'lit': {
      const predicate = row.v2?.value ?? '';
      const values = record.literals.get(predicate) ?? [];
      values.push(value);
      record.literals.set(predicate, values);
      break;
    }
    case 'own': {
      const types = record.owners.get(value) ?? new Set<string>();
      if (row.v2) types.add(row.v2.value);
      record.owners.set(value, types);
      break;
    }
    case 'out':
      record.outputs.add(value);
      break;
  }
}
