import type { Ontology } from '../ontology/ontology.ts';
import { IFC_BRICK_CLASSES, type IfcBrickClass } from './ifc-brick-classes.ts';

/**
 * Whether an entity's class (its `type`, a local name) is one a table entry means: one of the
 * entry's Brick classes or anything the ontology puts under or beside it (subclasses, equivalents,
 * replacements: brick:Floor matches rec:Level and rec:RoofLevel). Computed once per ontology.
 */
export function classMatcher(ontology: Ontology): (entry: IfcBrickClass, entityType: string) => boolean {
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
  return IFC_BRICK_CLASSES.flatMap((entry) => entry.brick.filter((name) => ontology.resolveClass(name) === undefined).map((name) => `${entry.ifc}: ${name}`));
}
