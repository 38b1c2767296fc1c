import N3 from 'n3';
import { compareCodeUnits } from '../ontology/compare-code-units.ts';
import { compactIri } from '../ontology/prefixes.ts';
import { BRICK, localName, RDF, RDFS, SKOS } from '../rdf/vocabulary.ts';

/** Label predicates in order of preference (docs/brick-mapping.md, "Names"). */
const LABELS = [`${RDFS}label`, `${SKOS}prefLabel`, `${BRICK}label`];
/** How far up a chain of blank nodes the holder of one is looked for (Brick nests two deep at most). */
const MAX_HOLDER_DEPTH = 8;

/** The entity that holds a blank node, and the properties from it down to the node. */
export interface Holder {
  readonly entity: string;
  readonly path: readonly string[];
}

/** A focus node as a finding names it for people, and, for a blank node, where it hangs. */
export interface FocusName {
  readonly label: string;
  readonly heldBy?: Holder;
}

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
    name = null;
    for (const predicate of LABELS) {
      const values = this.model
        .getObjects(term(id), predicate, null)
        .map((t) => t.value)
        .sort();
      if (values.length > 0) {
        name = values[0]!;
        break;
      }
    }
    this.cache.set(id, name);
    return name;
  }

  /**
   * The focus node named for people, never empty: its name; else, for a blank node (an IFC or
   * timeseries reference, a quantity), the named entity that holds it and the path down to it
   * (`CH-1 › ref:hasExternalReference (a ref:IFCReference)`); else the IRI's local name, as the
   * API's `name` falls back to the id (docs/brick-mapping.md, "Validation findings name their focus node").
   */
  focus(id: string): FocusName {
    const own = this.label(id);
    if (own !== null) return { label: own };
    if (!id.startsWith('_:')) return { label: localName(id) };
    const types = this.model
      .getObjects(term(id), `${RDF}type`, null)
      .map((t) => compactIri(t.value))
      .sort();
    const kind = types.length > 0 ? ` (a ${types.join(', ')})` : '';
    const holder = this.holder(id);
    if (!holder) return { label: `a blank node${kind} that no entity holds` };
    const from =
      this.label(holder.entity) ?? (holder.entity.startsWith('_:') ? 'a blank node' : localName(holder.entity));
    return { label: `${from} › ${holder.path.map(compactIri).join(' › ')}${kind}`, heldBy: holder };
  }

  /** The nearest named or IRI node above a blank node (the lexically first where several hold it). */
  private holder(id: string): Holder | undefined {
    const path: string[] = [];
    const seen = new Set([id]);
    let node = id;
    for (let depth = 0; depth < MAX_HOLDER_DEPTH; depth++) {
      const links = this.model
        .getQuads(null, null, term(node), null)
        .map((q) => ({ subject: this.id(q.subject), predicate: q.predicate.value }))
        .filter((link) => !seen.has(link.subject))
        .sort((a, b) => compareCodeUnits(a.subject, b.subject) || compareCodeUnits(a.predicate, b.predicate));
      const link = links[0];
      if (!link) return path.length > 0 ? { entity: node, path } : undefined;
      path.unshift(link.predicate);
      node = link.subject;
      seen.add(node);
      if (!node.startsWith('_:') || this.label(node) !== null) return { entity: node, path };
    }
    return { entity: node, path };
  }
}

function term(id: string): N3.Quad_Subject {
  return id.startsWith('_:') ? N3.DataFactory.blankNode(id.slice(2)) : N3.DataFactory.namedNode(id);
}
