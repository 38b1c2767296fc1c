import type { OntologyHierarchy } from './hierarchy-extractor.ts';

/** brick:Substance individuals and their skos:broader links, for matching an edge's substance to a medium. */
export class SubstanceHierarchy {
  readonly substances: ReadonlySet<string>;
  private readonly broader = new Map<string, string[]>();
  private readonly ancestors = new Map<string, ReadonlySet<string>>();

  constructor(hierarchy: OntologyHierarchy) {
    this.substances = hierarchy.substances;
    for (const [narrower, broader] of hierarchy.broader) {
      const list = this.broader.get(narrower);
      if (list === undefined) this.broader.set(narrower, [broader]);
      else list.push(broader);
    }
  }

  /** The substance and everything broader than it (skos:broader, transitively), memoized. */
  selfAndBroader(substanceIri: string): ReadonlySet<string> {
    let result = this.ancestors.get(substanceIri);
    if (result === undefined) {
      const seen = new Set<string>([substanceIri]);
      const queue = [substanceIri];
      for (let i = 0; i < queue.length; i++) {
        for (const next of this.broader.get(queue[i]!) ?? []) {
          if (!seen.has(next)) {
            seen.add(next);
            queue.push(next);
          }
        }
      }
      result = seen;
      this.ancestors.set(substanceIri, result);
    }
    return result;
  }

  /**
   * Whether an edge carrying `substanceIri` matches the medium `mediumIri`: the same, narrower (Hot_Water
   * for WATER) or broader (plain Water for HOT_WATER, since the data did not say which water it is).
   */
  matches(substanceIri: string, mediumIri: string): boolean {
    return this.selfAndBroader(substanceIri).has(mediumIri) || this.selfAndBroader(mediumIri).has(substanceIri);
  }
}
