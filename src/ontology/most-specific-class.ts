import type { ClassGraph } from './class-graph.ts';
import { compareCodeUnits } from './compare-code-units.ts';
import { localName } from './prefixes.ts';

/**
 * The most specific of an entity's asserted classes: one no other asserted class is strictly narrower
 * than. Equivalent classes tie, and ties go to the alphabetically first local name, then IRI (code-unit
 * order, so the answer does not depend on the locale). Classes outside the ontology are candidates too.
 */
export function mostSpecificClass(graph: ClassGraph, typeIris: Iterable<string>): string | undefined {
  const types = [...new Set(typeIris)];
  const candidates = types.filter((t) => !types.some((other) => graph.isStrictlyNarrower(other, t)));
  candidates.sort((a, b) => compareCodeUnits(localName(a), localName(b)) || compareCodeUnits(a, b));
  return candidates[0];
}
