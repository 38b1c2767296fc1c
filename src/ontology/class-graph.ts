import type { IriPair, OntologyHierarchy } from './hierarchy-extractor.ts';

/**
 * The class hierarchy as adjacency lists, with the closure MAPPING.md defines: a class matches itself, its
 * subclasses, and classes equivalent to (or replacing, or replaced by) any of those, to a fixpoint.
 * Which brick:isReplacedBy links take part is the caller's choice (see replacement-links.ts).
 */
export class ClassGraph {
  readonly classes: ReadonlySet<string>;
  private readonly superclasses = new Map<string, string[]>();
  private readonly equivalents = new Map<string, string[]>();
  // Everything closure() steps to from a class: subclasses, equivalents and replacements, both ways for
  // the last two. Never superclasses, so a closure only widens through an equivalence or a replacement.
  private readonly matchSteps = new Map<string, string[]>();
  private readonly closures = new Map<string, ReadonlySet<string>>();

  constructor(hierarchy: OntologyHierarchy, replacements: readonly IriPair[] = hierarchy.isReplacedBy) {
    this.classes = hierarchy.classes;
    for (const [sub, sup] of hierarchy.subClassOf) {
      append(this.superclasses, sub, sup);
      append(this.matchSteps, sup, sub);
    }
    for (const pair of hierarchy.equivalentClass) linkBothWays(pair, this.equivalents, this.matchSteps);
    for (const pair of replacements) linkBothWays(pair, this.matchSteps);
  }

  /** Whether the ontology declares or references the class. */
  has(classIri: string): boolean {
    return this.classes.has(classIri);
  }

  /** Direct superclasses (rdfs:subClassOf objects), sorted by IRI. */
  superclassesOf(classIri: string): readonly string[] {
    return this.superclasses.get(classIri) ?? [];
  }

  /** Classes linked to this one by owl:equivalentClass, either way. */
  equivalentsOf(classIri: string): readonly string[] {
    return this.equivalents.get(classIri) ?? [];
  }

  /** Every class an instance of `classIri` query matches: the class itself included, memoized. */
  closure(classIri: string): ReadonlySet<string> {
    let result = this.closures.get(classIri);
    if (result === undefined) {
      const seen = new Set<string>([classIri]);
      const queue = [classIri];
      // Breadth-first over the match steps reaches the fixpoint: subclasses of equivalents, equivalents
      // of subclasses, and so on.
      for (let i = 0; i < queue.length; i++) {
        for (const next of this.matchSteps.get(queue[i]!) ?? []) {
          if (!seen.has(next)) {
            seen.add(next);
            queue.push(next);
          }
        }
      }
      result = seen;
      this.closures.set(classIri, result);
    }
    return result;
  }

  /** True when `a` is strictly narrower than `b`: a is in b's closure but not the other way round. */
  isStrictlyNarrower(a: string, b: string): boolean {
    return a !== b && this.closure(b).has(a) && !this.closure(a).has(b);
  }
}

function append(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else if (!list.includes(value)) list.push(value);
}

function linkBothWays([a, b]: IriPair, ...maps: Map<string, string[]>[]): void {
  for (const map of maps) {
    append(map, a, b);
    append(map, b, a);
  }
}
