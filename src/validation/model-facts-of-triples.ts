/**
 * The counts of a model reading (src/ontology/model-reading.ts) taken from a model held as triples,
 * for `POST …/graph/validate` of a document that is not loaded: the same counts the store computes
 * for a loaded graph (src/query/graph-statistics.ts), in one pass over the triples.
 */
import type N3 from 'n3';
import type { IriPair } from '../ontology/hierarchy-extractor.ts';
import type { ModelFacts } from '../ontology/model-reading.ts';
import type { SiteClassStatements } from '../ontology/ontology.ts';
import { RELATIONSHIPS } from '../rdf/relationships.ts';
import { RDF, RDFS } from '../ontology/prefixes.ts';

const TYPE = `${RDF}type`;
const SUB_CLASS_OF = `${RDFS}subClassOf`;
const EXAMPLES = 10;

// The ends the kind fallback places in a kind (docs/brick-mapping.md, "Kinds add up"): what has points,
// what is a point, what something is located in.
const { point, located } = RELATIONSHIPS;
const POINT_LINKS: ReadonlySet<string> = new Set([...point.forward, ...point.backward]);
const LOCATED_IN: ReadonlySet<string> = new Set(located.forward);
const IS_LOCATION_OF: ReadonlySet<string> = new Set(located.backward);

/** The model's counts, and what its graph says of classes (for `Ontology.forSite`). */
export function factsOfTriples(model: N3.Store): { facts: ModelFacts; statements: SiteClassStatements } {
  const classes = new Map<string, number>();
  const links = new Map<string, number>();
  const typed = new Set<string>();
  const linkedEnds = new Set<string>();
  const subClassOf: IriPair[] = [];
  for (const { subject, predicate, object } of model) {
    const p = predicate.value;
    if (p === TYPE && object.termType === 'NamedNode') {
      typed.add(subject.value);
      classes.set(object.value, (classes.get(object.value) ?? 0) + 1);
    }
    if (p === SUB_CLASS_OF && subject.termType === 'NamedNode' && object.termType === 'NamedNode')
      subClassOf.push([subject.value, object.value]);
    if (object.termType !== 'Literal') links.set(p, (links.get(p) ?? 0) + 1);
    const ends = POINT_LINKS.has(p)
      ? [subject, object]
      : LOCATED_IN.has(p)
        ? [object]
        : IS_LOCATION_OF.has(p)
          ? [subject]
          : [];
    for (const end of ends) if (end.termType === 'NamedNode') linkedEnds.add(end.value);
  }
  const untyped = [...linkedEnds].filter((iri) => !typed.has(iri)).sort();
  return {
    facts: {
      typed: typed.size,
      classes,
      links,
      untyped: { count: untyped.length, examples: untyped.slice(0, EXAMPLES) },
    },
    statements: { types: [...classes.keys()], subClassOf },
  };
}
