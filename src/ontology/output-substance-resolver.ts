import type { ClassGraph } from './class-graph.ts';
import type { OutputSubstanceDefault } from './output-substance-defaults.ts';
import { BRICK } from './prefixes.ts';

interface ResolvedDefault {
  readonly order: number;
  readonly classIri: string;
  readonly substanceIri: string | undefined;
}

/** Applies the output-substance defaults table to classes, through the class closure. */
export class OutputSubstanceResolver {
  // For every class some entry covers, the most specific entry covering it; computed once.
  private readonly byClass = new Map<string, ResolvedDefault>();

  constructor(
    private readonly graph: ClassGraph,
    substances: ReadonlySet<string>,
    table: readonly OutputSubstanceDefault[],
  ) {
    table.forEach((entry, order) => {
      const classIri = BRICK + entry.equipmentClass;
      const substanceIri = entry.substance === null ? undefined : BRICK + entry.substance;
      // An ontology given by BKG_ONTOLOGY may be older than the table: skip what it does not know.
      if (!graph.has(classIri) || (substanceIri !== undefined && !substances.has(substanceIri))) return;
      const resolved: ResolvedDefault = { order, classIri, substanceIri };
      for (const c of graph.closure(classIri)) {
        const current = this.byClass.get(c);
        if (current === undefined || this.moreSpecific(resolved, current) === resolved) this.byClass.set(c, resolved);
      }
    });
  }

  /** The default output substance for an entity with these asserted classes, if the table gives one. */
  defaultFor(typeIris: Iterable<string>): string | undefined {
    let best: ResolvedDefault | undefined;
    for (const type of typeIris) {
      const candidate = this.byClass.get(type);
      if (candidate !== undefined) best = best === undefined ? candidate : this.moreSpecific(candidate, best);
    }
    return best?.substanceIri;
  }

  private moreSpecific(a: ResolvedDefault, b: ResolvedDefault): ResolvedDefault {
    if (this.graph.isStrictlyNarrower(a.classIri, b.classIri)) return a;
    if (this.graph.isStrictlyNarrower(b.classIri, a.classIri)) return b;
    return a.order <= b.order ? a : b;
  }
}
