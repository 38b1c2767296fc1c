import type { ClassGraph } from './class-graph.ts';
import { localName } from './prefixes.ts';

/**
 * A class's local name, then the local names of its ancestors inside `kindClasses`, breadth-first and
 * nearest first, ending with `rootName`; without duplicates (brick:Room and rec:Room are both "Room").
 * Ancestors are read through owl:equivalentClass as well, so an alias such as brick:AHU gets the
 * hierarchy of brick:Air_Handling_Unit. Reaching a root ends that branch: its canonical name comes last.
 */
export function typeHierarchy(
  graph: ClassGraph,
  classIri: string,
  kindClasses: ReadonlySet<string>,
  roots: readonly string[],
  rootName: string,
): string[] {
  const names = [localName(classIri)];
  const visited = new Set<string>([classIri]);
  const queue = parentsOf(graph, classIri);
  for (let i = 0; i < queue.length; i++) {
    const c = queue[i]!;
    if (visited.has(c)) continue;
    visited.add(c);
    // Outside the kind means another tree (sosa:FeatureOfInterest) or above the root: not this hierarchy.
    if (roots.includes(c) || !kindClasses.has(c)) continue;
    const name = localName(c);
    if (!names.includes(name)) names.push(name);
    queue.push(...parentsOf(graph, c));
  }
  if (!names.includes(rootName)) names.push(rootName);
  return names;
}

function parentsOf(graph: ClassGraph, classIri: string): string[] {
  const parents = [...graph.superclassesOf(classIri)];
  for (const equivalent of graph.equivalentsOf(classIri)) parents.push(...graph.superclassesOf(equivalent));
  return parents;
}
