/**
 * Rows of an entity query → one record per entity, with the facts its fields are built from,
 * and the links from each parent to its candidate children.
 */
import { MainThreadSlices } from '../limits/main-thread.ts';
import type { SiteProfile } from '../compiler/site-profile.ts';
import type { SparqlRow } from '../rdf/result-row.ts';

/** What the store told about one entity. Facts it did not tell share one empty set or map (fewer objects per entity). */
export interface EntityRecord {
  readonly iri: string;
  readonly types: Set<string>;
  /** rdfs:label, skos:prefLabel, brick:label values, in that order of preference. */
  readonly labels: [readonly string[], readonly string[], readonly string[]];
  /** Fallback kind facts (see `tagOf`): `le`, `hp`, `pt` or empty. */
  tag: string;
  ifcIds: ReadonlySet<string>;
  timeseriesIds: ReadonlySet<string>;
  units: ReadonlySet<string>;
  /** Literal values of `writable`/`valueType`-named predicates, by predicate IRI. */
  literals: ReadonlyMap<string, readonly string[]>;
  /** Entities this one is a point of, with their types. */
  owners: ReadonlyMap<string, ReadonlySet<string>>;
  outputs: ReadonlySet<string>;
}

/** Links from a parent IRI to its children, each with the rank of its best path (lower is better). */
export type Links = Map<string, Map<string, number>>;

const NONE: readonly string[] = Object.freeze([]);
const NO_VALUES: ReadonlySet<string> = new Set();
const NO_ENTRIES: ReadonlyMap<string, never> = new Map<string, never>();

function newRecord(iri: string): EntityRecord {
  return {
    iri,
    types: new Set(),
    labels: [NONE, NONE, NONE],
    tag: '',
    ifcIds: NO_VALUES,
    timeseriesIds: NO_VALUES,
    units: NO_VALUES,
    literals: NO_ENTRIES,
    owners: NO_ENTRIES,
    outputs: NO_VALUES,
  };
}

/** Reads an entity query's rows: the records, and (for relation queries) the parent links. */
export function readEntityRows(rows: readonly SparqlRow[]): { records: Map<string, EntityRecord>; links: Links } {
  const read = { records: new Map<string, EntityRecord>(), links: new Map() as Links };
  readRows(rows, 0, rows.length, read);
  return read;
}

/**
 * `readEntityRows` in slices of the main thread (src/limits/main-thread.ts): how the service reads a
 * large answer. Stops between two slices once `signal` (the request's) is aborted.
 */
export async function readEntityRowsInSlices(
  rows: readonly SparqlRow[],
  signal?: AbortSignal,
): Promise<{ records: Map<string, EntityRecord>; links: Links }> {
  const read = { records: new Map<string, EntityRecord>(), links: new Map() as Links };
  const slices = new MainThreadSlices(signal);
  for (let from = 0; from < rows.length; from += SLICE_ROWS) {
    readRows(rows, from, Math.min(rows.length, from + SLICE_ROWS), read);
    const pause = slices.step(SLICE_ROWS);
    if (pause) await pause;
  }
  return read;
}

/** Rows read between two looks at the clock. */
const SLICE_ROWS = 512;

function readRows(
  rows: readonly SparqlRow[],
  from: number,
  to: number,
  { records, links }: { records: Map<string, EntityRecord>; links: Links },
): void {
  for (let i = from; i < to; i++) {
    const row = rows[i]!;
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
}

function addFact(record: EntityRecord, row: SparqlRow): void {
  if (row.t) record.types.add(row.t.value);
  if (row.l0) record.labels[0] = withValue(record.labels[0], row.l0.value);
  if (row.l1) record.labels[1] = withValue(record.labels[1], row.l1.value);
  if (row.l2) record.labels[2] = withValue(record.labels[2], row.l2.value);
  if (row.ifc) record.ifcIds = withMember(record.ifcIds, row.ifc.value);
  if (row.ts) record.timeseriesIds = withMember(record.timeseriesIds, row.ts.value);
  if (row.u) record.units = withMember(record.units, row.u.value);
  if (row.litp && row.lit) {
    const literals =
      record.literals === NO_ENTRIES
        ? (record.literals = new Map())
        : (record.literals as Map<string, readonly string[]>);
    literals.set(row.litp.value, withValue(literals.get(row.litp.value) ?? NONE, row.lit.value));
  }
  if (row.own) {
    const owners =
      record.owners === NO_ENTRIES ? (record.owners = new Map()) : (record.owners as Map<string, ReadonlySet<string>>);
    const types = owners.get(row.own.value) ?? NO_VALUES;
    owners.set(row.own.value, row.ownt ? withMember(types, row.ownt.value) : types);
  }
  if (row.out) record.outputs = withMember(record.outputs, row.out.value);
}

/** `values` with `value` added, a new set in place of the shared empty one. */
function withMember(values: ReadonlySet<string>, value: string): ReadonlySet<string> {
  const set = values === NO_VALUES ? new Set<string>() : (values as Set<string>);
  set.add(value);
  return set;
}

// Rows repeat a fact once per combination of the entity's other facts.
function withValue(values: readonly string[], value: string): readonly string[] {
  if (values.includes(value)) return values;
  if (values === NONE) return [value];
  (values as string[]).push(value);
  return values;
}

/** Sets the fallback tags a query left out (see `SiteProfile.tags`). */
export function applyTags(records: ReadonlyMap<string, EntityRecord>, profile: SiteProfile | undefined): void {
  if (!profile?.tags) return;
  for (const record of records.values()) record.tag = profile.tags.get(record.iri) ?? '';
}
