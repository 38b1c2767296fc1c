/**
 * The relationships between entities the service reads, each in both directions (docs/brick-mapping.md,
 * "Rule by rule"), as the predicates that state them: `a p b` for a forward one, `b p a` for a backward
 * one. Brick and REC each have both, and real models use all of them. The compiler writes its paths
 * from these, the load report and the validator count by them.
 */
import { BRICK, REC } from './vocabulary.ts';

/** A relationship's predicates, each way. */
export interface Relationship {
  readonly forward: readonly string[];
  readonly backward: readonly string[];
}

export const RELATIONSHIPS = {
  part: { forward: [`${BRICK}hasPart`, `${REC}hasPart`], backward: [`${BRICK}isPartOf`, `${REC}isPartOf`] },
  point: { forward: [`${BRICK}hasPoint`, `${REC}hasPoint`], backward: [`${BRICK}isPointOf`, `${REC}isPointOf`] },
  feeds: { forward: [`${BRICK}feeds`, `${REC}feeds`], backward: [`${BRICK}isFedBy`, `${REC}isFedBy`] },
  located: {
    forward: [`${BRICK}hasLocation`, `${REC}locatedIn`],
    backward: [`${BRICK}isLocationOf`, `${REC}isLocationOf`],
  },
} as const satisfies Record<string, Relationship>;

/** Every predicate of every relationship, either way. */
export const RELATIONSHIP_PREDICATES: readonly string[] = Object.values(RELATIONSHIPS).flatMap((r) => [
  ...r.forward,
  ...r.backward,
]);
