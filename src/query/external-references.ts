/**
 * Rows of an external-references query (`externalReferencesQuery`) → each parent's references
 * (docs/brick-mapping.md, `externalReferences`): every reference stays reachable with its fields (BACnet
 * object identifiers, a Metasys id and its host, an IFC GlobalId, a timeseries id), so no
 * identifier of the model is lost. A reference's class is its `type`; every other triple of it is a
 * field, named by the predicate's local name, valued by the literal's lexical form or the IRI.
 */
import { MainThreadSlices } from '../limits/main-thread.ts';
import { RDF, REF, localName } from '../rdf/vocabulary.ts';
import type { SparqlRow } from '../rdf/result-row.ts';

/** A field of a reference, shaped as an EntityProperty (references state no units). */
export interface ReferenceField {
  readonly name: string;
  readonly value: string;
  readonly unit: null;
  readonly unitSymbol: null;
}

/** One external reference of an entity. */
export interface ExternalReference {
  /** The reference's IRI; null for a blank node, whose label names nothing outside one answer. */
  readonly uri: string | null;
  readonly type: string | null;
  readonly fields: readonly ReferenceField[];
}

const TYPE = `${RDF}type`;
// Brick's own superclass of every reference class: the name of a more specific class says more.
const GENERIC_TYPE = `${REF}ExternalReference`;

/** Of a reference's classes, the first local name but Brick's generic superclass (that one if alone); null if untyped. */
function typeOf(classes: ReadonlySet<string>): string | null {
  const names = [...classes].filter((c) => c !== GENERIC_TYPE || classes.size === 1).map(localName);
  return names.sort()[0] ?? null;
}

const byText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
const fieldOrder = (a: ReferenceField, b: ReferenceField): number => byText(a.name, b.name) || byText(a.value, b.value);

/** What sorts references: their type, their fields, their IRI (never a blank node's label, which differs by store). */
const sortKey = (reference: ExternalReference): string =>
  [reference.type ?? '', ...reference.fields.map((f) => `${f.name}=${f.value}`), reference.uri ?? ''].join('\u0000');

interface Gathered {
  readonly uri: string | null;
  readonly classes: Set<string>;
  readonly fields: Map<string, ReferenceField>;
}

/**
 * Each parent's references from the rows `?parent ?r ?p ?v`, in slices of the main thread: sorted
 * by type, then fields, each reference's fields by name and value. Parents without any are absent.
 * Stops between two slices once `signal` (the request's) is aborted.
 */
export async function readExternalReferences(
  rows: readonly SparqlRow[],
  signal?: AbortSignal,
): Promise<Map<string, ExternalReference[]>> {
  const gathered = new Map<string, Map<string, Gathered>>();
  const slices = new MainThreadSlices(signal);
  for (const row of rows) {
    const pause = slices.step();
    if (pause) await pause;
    const { parent, r, p, v } = row;
    if (!parent || !r || !p || !v) continue;
    let references = gathered.get(parent.value);
    if (!references) gathered.set(parent.value, (references = new Map()));
    let reference = references.get(r.value);
    if (!reference)
      references.set(
        r.value,
        (reference = { uri: r.type === 'bnode' ? null : r.value, classes: new Set(), fields: new Map() }),
      );
    if (p.value === TYPE) reference.classes.add(v.value);
    else
      reference.fields.set(`${p.value}\u0000${v.value}`, {
        name: localName(p.value),
        value: v.value,
        unit: null,
        unitSymbol: null,
      });
  }
  const result = new Map<string, ExternalReference[]>();
  for (const [parent, references] of gathered) {
    const pause = slices.step(references.size);
    if (pause) await pause;
    const shaped = [...references.values()].map(({ uri, classes, fields }) => ({
      uri,
      type: typeOf(classes),
      fields: [...fields.values()].sort(fieldOrder),
    }));
    result.set(
      parent,
      shaped
        .map((reference) => [sortKey(reference), reference] as const)
        .sort(([a], [b]) => byText(a, b))
        .map(([, reference]) => reference),
    );
  }
  return result;
}
