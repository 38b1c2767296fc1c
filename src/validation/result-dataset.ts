import type * as RDF from '@rdfjs/types';
import N3 from 'n3';
import defaultEnvironment from 'rdf-validate-shacl/src/defaultEnv.js';

const key = (term: RDF.Term) => `${term.termType}:${term.value}`;

/**
 * A small dataset indexed by subject only. rdf-validate-shacl builds a dataset for every result it
 * creates, nested conformance checks (sh:or, sh:node, qualified shapes) included, and reads them by
 * subject; a fully indexed store per result made most of its time on Brick models.
 */
export class ResultDataset implements RDF.DatasetCore {
  private readonly bySubject = new Map<string, RDF.Quad[]>();
  size = 0;

  add(quad: RDF.Quad): this {
    if (this.has(quad)) return this;
    const k = key(quad.subject);
    const list = this.bySubject.get(k);
    if (list) list.push(quad);
    else this.bySubject.set(k, [quad]);
    this.size++;
    return this;
  }

  delete(quad: RDF.Quad): this {
    const list = this.bySubject.get(key(quad.subject));
    const i = list?.findIndex((q) => q.equals(quad)) ?? -1;
    if (i >= 0) {
      list!.splice(i, 1);
      this.size--;
    }
    return this;
  }

  has(quad: RDF.Quad): boolean {
    return this.bySubject.get(key(quad.subject))?.some((q) => q.equals(quad)) ?? false;
  }

  match(
    subject?: RDF.Term | null,
    predicate?: RDF.Term | null,
    object?: RDF.Term | null,
    graph?: RDF.Term | null,
  ): RDF.DatasetCore {
    const out = new ResultDataset();
    const candidates = subject ? (this.bySubject.get(key(subject)) ?? []) : [...this.bySubject.values()].flat();
    for (const q of candidates) {
      if (
        (!predicate || q.predicate.equals(predicate)) &&
        (!object || q.object.equals(object)) &&
        (!graph || q.graph.equals(graph))
      )
        out.add(q);
    }
    return out;
  }

  *[Symbol.iterator](): Iterator<RDF.Quad> {
    for (const list of this.bySubject.values()) yield* list;
  }
}

/**
 * The RDF/JS environment rdf-validate-shacl runs in: its own default, with N3 stores for the graphs
 * it copies (the shapes) and ResultDatasets for its results.
 */
export const validatorEnvironment = Object.assign(defaultEnvironment.clone(), {
  dataset: (quads?: Iterable<RDF.Quad>): RDF.DatasetCore => (quads ? new N3.Store([...quads]) : new ResultDataset()),
});
