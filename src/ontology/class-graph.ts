import type { IriPair, OntologyHierarchy } from './hierarchy-extractor.ts';

/**
 * The class hierarchy as adjacency lists, with the closure of ontology/README.md ("Class matching and
 * Brick's replacement links"): a class matches itself, its subclasses and classes equivalent to any of
 * those, to a fixpoint. A deprecated class means its
 * final replacement, forward only: `brick:isReplacedBy` is followed to the class that is not replaced,
 * whose hierarchy the deprecated class then has. A deprecated class's own superclasses are never
 * climbed (Brick 1.4.4's deprecated Supply_Hot_Water_Temperature_Setpoint is a subclass of
 * Supply_Water_Temperature_Sensor, which would make setpoints sensors), and nothing steps back from a
 * replacement to the superclasses of an old name. Which replacement links take part is the caller's
 * choice (see replacement-links.ts).
 */
export class ClassGraph {
  readonly classes: ReadonlySet<string>;
  private readonly superclasses = new Map<string, string[]>();
  private readonly equivalents = new Map<string, string[]>();
  /** A deprecated class → the class it is replaced by (one step). */
  private readonly replacedBy = new Map<string, string>();
  // Everything closure() steps to from a class: subclasses, equivalents both ways, and the classes
  // a class replaces. Never superclasses, so a closure only widens through an equivalence.
  private readonly matchSteps = new Map<string, string[]>();
  private readonly closures = new Map<string, ReadonlySet<string>>();

  constructor(hierarchy: OntologyHierarchy, replacements: readonly IriPair[] = hierarchy.isReplacedBy) {
    this.classes = hierarchy.classes;
    // Several replacements of one class: the first by IRI (the pairs come sorted), so the answer is stable.
    for (const [deprecated, replacement] of replacements)
      if (!this.replacedBy.has(deprecated) && deprecated !== replacement) this.replacedBy.set(deprecated, replacement);
    for (const [sub, sup] of hierarchy.subClassOf) {
      if (this.replacedBy.has(sub)) continue;
      const target = this.canonical(sup);
      if (target === sub) continue;
      append(this.superclasses, sub, target);
      append(this.matchSteps, target, sub);
    }
    for (const [a, b] of hierarchy.equivalentClass) {
      const pair: IriPair = [this.canonical(a), this.canonical(b)];
      if (pair[0] !== pair[1]) linkBothWays(pair, this.equivalents, this.matchSteps);
    }
    for (const deprecated of this.replacedBy.keys()) {
      const final = this.canonical(deprecated);
      if (final === deprecated) continue;
      append(this.superclasses, deprecated, final);
      append(this.matchSteps, final, deprecated);
    }
  }

  /** Whether the ontology declares or references the class. */
  has(classIri: string): boolean {
    return this.classes.has(classIri);
  }

  /** Whether the class is replaced by another (a followed `brick:isReplacedBy`). */
  isDeprecated(classIri: string): boolean {
    return this.replacedBy.has(classIri);
  }

  /** The class a class means: itself, or for a deprecated class the end of its replacement chain. */
  canonical(classIri: string): string {
    let current = classIri;
    const seen = new Set<string>([current]);
    for (
      let next = this.replacedBy.get(current);
      next !== undefined && !seen.has(next);
      next = this.replacedBy.get(current)
    ) {
      seen.add(next);
      current = next;
    }
    return current;
  }

  /** Direct superclasses (rdfs:subClassOf objects, each read as the class it means); a deprecated class's is its final replacement. */
  superclassesOf(classIri: string): readonly string[] {
    return this.superclasses.get(classIri) ?? [];
  }

  /** Classes linked to this one by owl:equivalentClass, either way. */
  equivalentsOf(classIri: string): readonly string[] {
    return this.equivalents.get(classIri) ?? [];
  }

  /** Every class an instance of `classIri` query matches: the class itself included, memoized. A deprecated class matches as its replacement. */
  closure(classIri: string): ReadonlySet<string> {
    let result = this.closures.get(classIri);
    if (result === undefined) {
      const start = this.canonical(classIri);
      const seen = new Set<string>([start, classIri]);
      const queue = [start];
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
