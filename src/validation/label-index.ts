import N3 from 'n3';
import { BRICK, RDFS, SKOS } from '../rdf/vocabulary.ts';

/** Label predicates in order of preference (MAPPING.md, `name`). */
const LABELS = [`${RDFS}label`, `${SKOS}prefLabel`, `${BRICK}label`];

/** Names of the model's entities for the report, by the id findings use (an IRI, or `_:label`). */
export class LabelIndex {
  private readonly cache = new Map<string, string | null>();

  constructor(private readonly model: N3.Store) {}

  /** The id of a term in findings: its IRI, or `_:label` for a blank node. */
  id(term: N3.Term): string {
    return term.termType === 'BlankNode' ? `_:${term.value}` : term.value;
  }

  /** The entity's name: its lexically first label of the most preferred predicate it has. */
  label(id: string): string | null {
    let name = this.cache.get(id);
    if (name !== undefined) return name;
    const subject = id.startsWith('_:') ? N3.DataFactory.blankNode(id.slice(2)) : N3.DataFactory.namedNode(id);
    name = null;
    for (const predicate of LABELS) {
      const values = this.model.getObjects(subject, predicate, null).map((t) => t.value).sort();
      if (values.length > 0) {
        name = values[0]!;
        break;
      }
    }
    this.cache.set(id, name);
    return name;
  }
}
