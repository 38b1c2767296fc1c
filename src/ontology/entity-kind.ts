import type { ClassGraph } from './class-graph.ts';
import { BRICK, REC } from './prefixes.ts';

/** The API types an entity can have by its class (docs/brick-mapping.md, "Rule by rule"). */
export type EntityKind = 'Building' | 'Location' | 'Zone' | 'Equipment' | 'Point' | 'System';

/** Every kind, in the order kinds are reported. */
export const ENTITY_KINDS: readonly EntityKind[] = ['Building', 'Location', 'Zone', 'Equipment', 'Point', 'System'];

/** The classes whose closures make up each kind (before Location drops the zones). */
export const KIND_ROOTS: Readonly<Record<EntityKind, readonly string[]>> = {
  Building: [`${BRICK}Building`, `${REC}Building`],
  Location: [`${BRICK}Location`, `${REC}Architecture`],
  Zone: [`${BRICK}Zone`, `${REC}Zone`],
  Equipment: [`${BRICK}Equipment`],
  Point: [`${BRICK}Point`],
  // Brick 1.4 puts loops (Hot_Water_Loop) under Collection beside System, not under it; they serve as systems.
  System: [`${BRICK}System`, `${BRICK}Collection`],
};

/** The root a kind's typeHierarchy ends with; a Building's hierarchy is that of a Location. */
export const HIERARCHY_KIND: Readonly<Record<EntityKind, Exclude<EntityKind, 'Building'>>> = {
  Building: 'Location',
  Location: 'Location',
  Zone: 'Zone',
  Equipment: 'Equipment',
  Point: 'Point',
  System: 'System',
};

/** Computes the class set of every kind from the class graph. */
export function computeKindClasses(graph: ClassGraph): ReadonlyMap<EntityKind, ReadonlySet<string>> {
  const union = (kind: EntityKind): Set<string> => {
    const set = new Set<string>();
    for (const root of KIND_ROOTS[kind]) for (const c of graph.closure(root)) set.add(c);
    return set;
  };
  const building = union('Building');
  const zone = union('Zone');
  // Zones are not locations in the API, but a building is always a location (it can be a parent), even
  // where Brick's replacement links also pull a building class into the zone closure.
  const location = union('Location');
  for (const c of building) location.add(c);
  for (const c of zone) if (!building.has(c)) location.delete(c);
  return new Map<EntityKind, ReadonlySet<string>>([
    ['Building', building],
    ['Location', location],
    ['Zone', zone],
    ['Equipment', union('Equipment')],
    ['Point', union('Point')],
    ['System', union('System')],
  ]);
}
