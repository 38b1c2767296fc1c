import { compareCodeUnits } from './compare-code-units.ts';
import { BRICK, compactIri, localName } from './prefixes.ts';

/** A known class as users write it: Brick classes by local name, others prefixed (`rec:Room`). */
export function displayClassName(classIri: string): string {
  return classIri.startsWith(BRICK) && !/[#/]/.test(classIri.slice(BRICK.length))
    ? classIri.slice(BRICK.length)
    : compactIri(classIri);
}

/**
 * Up to `max` known class names closest to a misspelt one, closest first, for "did you mean" hints.
 * Compares local names case-insensitively by edit distance, within a third of the name's length.
 */
export function suggestClassNames(name: string, classIris: Iterable<string>, max = 3): string[] {
  // The local part of whatever was written: `Temprature_Sensor`, `rec:Rom`, `bick:AHU` or a full IRI.
  const cut = Math.max(name.lastIndexOf('#'), name.lastIndexOf('/'), name.lastIndexOf(':'));
  const wanted = name.slice(cut + 1).toLowerCase();
  if (wanted === '' || max <= 0) return [];
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  const scored: { display: string; distance: number }[] = [];
  for (const iri of classIris) {
    const candidate = localName(iri).toLowerCase();
    // The length difference bounds the distance from below: skip before the quadratic work.
    if (Math.abs(candidate.length - wanted.length) > limit) continue;
    const distance = editDistance(wanted, candidate);
    if (distance <= limit) scored.push({ display: displayClassName(iri), distance });
  }
  scored.sort(
    (a, b) => a.distance - b.distance || a.display.length - b.display.length || compareCodeUnits(a.display, b.display),
  );
  return [...new Set(scored.map((s) => s.display))].slice(0, max);
}

/** Levenshtein distance counting a swap of adjacent characters as one edit (optimal string alignment). */
export function editDistance(a: string, b: string): number {
  let previous2: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        value = Math.min(value, previous2[j - 2]! + 1);
      }
      current.push(value);
    }
    previous2 = previous;
    previous = current;
  }
  return previous[b.length]!;
}
