/**
 * What a reviewer reads of a change, from its triples alone: the entities it added and removed
 * (an entity is a subject IRI; added when it gains a type and loses none, removed the other way
 * round), the entities whose class changed, the relations (triples to another IRI) added and
 * removed, and the labels that changed.
 */
import type { GraphPatch, TripleText } from '../rdf/rdf-patch.ts';

const RDF_TYPE = '<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>';
const LABELS = new Set([
  '<http://www.w3.org/2000/01/rdf-schema#label>',
  '<http://www.w3.org/2004/02/skos/core#prefLabel>',
  '<https://brickschema.org/schema/Brick#label>',
]);

/** A triple's three terms (an IRI or a blank node has no space; the object is the rest). */
function terms(triple: TripleText): [string, string, string] {
  const first = triple.indexOf(' ');
  const second = triple.indexOf(' ', first + 1);
  return [triple.slice(0, first), triple.slice(first + 1, second), triple.slice(second + 1)];
}

const iri = (term: string) => (term.startsWith('<') ? term.slice(1, -1) : undefined);
/** A literal's lexical form (N-Triples escapes are JSON's, but for \U, rare in labels: then the term as written). */
function literalValue(term: string): string {
  try {
    return JSON.parse(term.slice(0, term.lastIndexOf('"') + 1)) as string;
  } catch {
    return term;
  }
}

/** The subjects (IRIs) of the triples a change removes or adds. */
export function touchedEntities(patch: GraphPatch): Set<string> {
  const entities = new Set<string>();
  for (const triple of [...patch.remove, ...patch.add]) {
    const subject = iri(terms(triple)[0]);
    if (subject) entities.add(subject);
  }
  return entities;
}

export interface Relation {
  readonly subject: string;
  readonly predicate: string;
  readonly object: string;
}

export interface PatchSummary {
  readonly entitiesAdded: string[];
  readonly entitiesRemoved: string[];
  readonly classChanges: Array<{ entity: string; from: string[]; to: string[] }>;
  readonly relationsAdded: Relation[];
  readonly relationsRemoved: Relation[];
  readonly labelsChanged: Array<{ entity: string; from: string | null; to: string | null }>;
}

export function summarizePatch(patch: GraphPatch): PatchSummary {
  const types = new Map<string, { from: string[]; to: string[] }>();
  const labels = new Map<string, { from: string | null; to: string | null }>();
  const relationsAdded: Relation[] = [];
  const relationsRemoved: Relation[] = [];
  const read = (triple: TripleText, added: boolean) => {
    const [s, p, o] = terms(triple);
    const subject = iri(s);
    if (!subject) return;
    if (p === RDF_TYPE && iri(o)) {
      const entry = types.get(subject) ?? { from: [], to: [] };
      (added ? entry.to : entry.from).push(iri(o)!);
      types.set(subject, entry);
    } else if (LABELS.has(p) && o.startsWith('"')) {
      const entry = labels.get(subject) ?? { from: null, to: null };
      if (added) entry.to = literalValue(o);
      else entry.from = literalValue(o);
      labels.set(subject, entry);
    } else if (iri(o)) {
      (added ? relationsAdded : relationsRemoved).push({ subject, predicate: iri(p)!, object: iri(o)! });
    }
  };
  for (const triple of patch.remove) read(triple, false);
  for (const triple of patch.add) read(triple, true);
  const entitiesAdded: string[] = [];
  const entitiesRemoved: string[] = [];
  const classChanges: PatchSummary['classChanges'] = [];
  for (const [entity, { from, to }] of types) {
    if (from.length === 0) entitiesAdded.push(entity);
    else if (to.length === 0) entitiesRemoved.push(entity);
    else classChanges.push({ entity, from: from.sort(), to: to.sort() });
  }
  const byIri = (a: string, b: string) => a.localeCompare(b);
  const byRelation = (a: Relation, b: Relation) =>
    a.subject.localeCompare(b.subject) || a.predicate.localeCompare(b.predicate) || a.object.localeCompare(b.object);
  return {
    entitiesAdded: entitiesAdded.sort(byIri),
    entitiesRemoved: entitiesRemoved.sort(byIri),
    classChanges: classChanges.sort((a, b) => byIri(a.entity, b.entity)),
    relationsAdded: relationsAdded.sort(byRelation),
    relationsRemoved: relationsRemoved.sort(byRelation),
    labelsChanged: [...labels]
      .map(([entity, change]) => ({ entity, ...change }))
      .sort((a, b) => byIri(a.entity, b.entity)),
  };
}
