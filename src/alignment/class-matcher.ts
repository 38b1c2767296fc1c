import type { Ontology } from '../ontology/ontology.ts';
import { IFC_BRICK_CLASSES, type IfcBrickClass } from './ifc-brick-classes.ts';

/**
 * Whether an entity's class (its `type`, a local name) is one a table entry means: one of the
 * entry's Brick classes or anything the ontology puts under or beside it (subclasses, equivalents,
 * replacements: brick:Floor matches rec:Level and rec:RoofLevel). Computed once per ontology.
 */
export function classMatcher(ontology: Ontology): ClassMatch {
  let match = matchers.get(ontology);
  if (!match) matchers.set(ontology, (match = buildMatcher(ontology)));
  return match;
}

/** Whether an entity's class is one a table entry means. */
export type ClassMatch = (entry: IfcBrickClass, entityType: string) => boolean;

/** One matcher per ontology (a site's reading of it lives as long as its graph is unchanged). */
const matchers = new WeakMap<Ontology, ClassMatch>();

function buildMatcher(ontology: Ontology): ClassMatch {
  const names = new Map<IfcBrickClass, Set<string>>();
  for (const entry of IFC_BRICK_CLASSES) {
    const set = new Set<string>();
    for (const brick of entry.brick) {
      const iri = ontology.resolveClass(brick);
      if (iri === undefined) continue;
      for (const member of ontology.closure(iri)) set.add(ontology.localName(member));
    }
    names.set(entry, set);
  }
  return (entry, entityType) => names.get(entry)?.has(entityType) ?? false;
}

/** The table's Brick class names the ontology does not know (a test keeps this empty). */
export function unknownTableClasses(ontology: Ontology): string[] {
  return IFC_BRICK_CLASSES.flatMap((entry) =>
    entry.brick.filter((name) => ontology.resolveClass(name) === undefined).map((name) => `${entry.ifc}: ${name}`),
  );
}
