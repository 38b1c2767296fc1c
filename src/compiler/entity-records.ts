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
  if (row.t) record.types.add(row.t.value);
  if (row.l0) pushNew(record.labels[0], row.l0.value);
  if (row.l1) pushNew(record.labels[1], row.l1.value);
  if (row.l2) pushNew(record.labels[2], row.l2.value);
  if (row.ifc) record.ifcIds.add(row.ifc.value);
  if (row.ts) record.timeseriesIds.add(row.ts.value);
  if (row.u) record.units.add(row.u.value);
  if (row.litp && row.lit) {
    const values = record.literals.get(row.litp.value) ?? [];
    pushNew(values, row.lit.value);
    record.literals.set(row.litp.value, values);
  }
  if (row.own) {
    const types = record.owners.get(row.own.value) ?? new Set<string>();
    if (row.ownt) types.add(row.ownt.value);
    record.owners.set(row.own.value, types);
  }
  if (row.out) record.outputs.add(row.out.value);
}

// Rows repeat a fact once per combination of the entity's other facts.
function pushNew(values: string[], value: string): void {
  if (!values.includes(value)) values.push(value);
}
