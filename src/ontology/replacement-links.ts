import { ClassGraph } from './class-graph.ts';
import { computeKindClasses, ENTITY_KINDS, type EntityKind } from './entity-kind.ts';
import type { IriPair, OntologyHierarchy } from './hierarchy-extractor.ts';

/** Why a brick:isReplacedBy link is left out of class matching. */
export type IgnoredReplacementReason = 'crosses-kinds';

/** A replacement link class matching does not follow, and why. */
export interface IgnoredReplacement {
  readonly link: IriPair;
  readonly reason: IgnoredReplacementReason;
}

/**
 * Splits Brick's class replacement links into those class matching follows (forward: a deprecated
 * class means its final replacement, see class-graph.ts) and those it ignores, judged against the
 * hierarchy without replacements: the two ends belong to different kinds (brick:Stage_Riser,
 * furniture, → rec:Room; brick:Enclosed_Office, a room, → rec:Workspace, a zone; brick:Fire_Zone →
 * rec:ServiceEntrance). Followed, they would make every enclosed office of a Brick 1.3 model a Zone.
 * A class whose link is ignored keeps its own superclasses. Links with an end outside every kind
 * (rec:Furniture, brick:Trace_Heat_Sensor) are followed.
 */
export function partitionReplacements(hierarchy: OntologyHierarchy): {
  followed: IriPair[];
  ignored: IgnoredReplacement[];
} {
  const base = new ClassGraph(hierarchy, []);
  const kinds = computeKindClasses(base);
  const kindsOf = (c: string): EntityKind[] => ENTITY_KINDS.filter((kind) => kinds.get(kind)!.has(c));
  const followed: IriPair[] = [];
  const ignored: IgnoredReplacement[] = [];
  for (const link of hierarchy.isReplacedBy) {
    const [deprecated, replacement] = link;
    const from = kindsOf(deprecated);
    const to = kindsOf(replacement);
    const crossesKinds = from.length > 0 && to.length > 0 && !from.some((k) => to.includes(k));
    if (crossesKinds) ignored.push({ link, reason: 'crosses-kinds' });
    else followed.push(link);
  }
  return { followed, ignored };
}
