/**
 * Every relation field of the API and how the graph answers it (docs/brick-mapping.md, "Rule by rule").
 * A pattern binds `?e` for a bound `?parent`; fields that return one entity rank their
 * alternatives with `?rank` (lowest wins).
 */
import {
  bind,
  integer,
  inverse,
  minus,
  oneOrMore,
  sequence,
  triple,
  variable,
  zeroOrMore,
  zeroOrOne,
  alternative,
  type Path,
  type Pattern,
  type VariableTerm,
} from '../rdf/sparql-algebra.ts';
import { kindTest, type RelationPaths } from './sparql-patterns.ts';
import type { EntityKind, RelationArgs, RelationName, UnmarkedClasses } from './plan.ts';

/**
 * What a pattern is written with: the field's arguments, the relationship paths of the site
 * (`relationPaths`), `anchor`, the pattern that binds the parent (repeated inside a part the
 * store evaluates on its own, such as a MINUS), and `scope`, which names the pattern's own
 * variables so two patterns in one query never share one.
 */
export interface PatternContext {
  readonly args: RelationArgs;
  readonly paths: RelationPaths;
  readonly anchor: readonly Pattern[];
  readonly scope?: string;
  /** The site's classes without a kind mark, which the patterns' kind tests list. */
  readonly unmarked?: UnmarkedClasses;
}

/**
 * Alternatives each with a `?rank`, returned apart, not as a UNION, because a UNION branch is
 * evaluated on its own: the builder repeats the parent anchor in each (ARCHITECTURE: anchored shapes win).
 */
export interface Alternatives {
  readonly alternatives: ReadonlyArray<readonly Pattern[]>;
}

export interface PatternRelation {
  readonly kinds: readonly EntityKind[];
  readonly single: boolean;
  /** The pattern, or its alternatives. */
  readonly pattern: (
    parent: VariableTerm,
    e: VariableTerm,
    context: PatternContext,
  ) => readonly Pattern[] | Alternatives;
}

export interface TraversalRelation {
  readonly kinds: readonly ['Equipment'];
  readonly single: false;
  readonly direction: 'upstream' | 'downstream';
  /** Binds `?start` to the nodes the traversal starts from (the parent, and a zone's locations). */
  readonly start: (parent: VariableTerm, start: VariableTerm, paths: RelationPaths) => Pattern[];
}

export type Relation = PatternRelation | TraversalRelation;

/** True when a pattern comes as alternatives. */
export const isAlternatives = (pattern: readonly Pattern[] | Alternatives): pattern is Alternatives =>
  'alternatives' in pattern;

const RANK = variable('rank');
/** Binds `?rank`: lower ranks win among a single field's alternatives. */
const rank = (n: number) => bind(integer(n), RANK);

/** The start of a path from a location to what is in it: with `recursive`, through every location under it first. */
const under = (recursive: boolean, { part }: RelationPaths, rest: readonly Path[]): Path =>
  sequence(recursive ? [zeroOrMore(part), ...rest] : rest);

/**
 * Paths from a location (or with `recursive`, from anything under it) to its equipment, points,
 * zones and systems. Written as single property paths so a root filter can also walk them
 * backwards from a bound entity (`?e ^(path) ?location`).
 */
export const locationPaths = {
  equipment: (recursive: boolean, paths: RelationPaths) => under(recursive, paths, [inverse(paths.located)]),
  // Its own points, points located in it, and points of equipment located in it.
  points: (recursive: boolean, paths: RelationPaths) =>
    under(recursive, paths, [
      alternative([paths.point, inverse(paths.located), sequence([inverse(paths.located), paths.point])]),
    ]),
  zones: (recursive: boolean, paths: RelationPaths) => under(recursive, paths, [paths.partEither]),
  systems: (recursive: boolean, paths: RelationPaths) =>
    under(recursive, paths, [inverse(paths.located), inverse(paths.part)]),
};

/** Points of a zone and of the equipment that feeds it directly. */
export const zonePoints = ({ point, feeds }: RelationPaths): Path =>
  alternative([point, sequence([inverse(feeds), point])]);

const path =
  (build: (recursive: boolean, paths: RelationPaths) => Path) =>
  (parent: VariableTerm, e: VariableTerm, { args, paths }: PatternContext) => [
    triple(parent, build(args.recursive, paths), e),
  ];

/**
 * `whole` has the location `child` as a part through a zone (Room isPartOf HVAC_Zone isPartOf
 * Floor: docs/brick-mapping.md, "Location trees through zones"), unless `child` is part of a location directly: a room
 * that also names its floor hangs there, not under every location its zone is part of, so that
 * `parent` and `locations` agree. One zone deep, the real-model pattern.
 */
const throughZone = (
  whole: VariableTerm,
  child: VariableTerm,
  { paths: { part }, anchor, scope = 'rel', unmarked = {} }: PatternContext,
): Pattern[] => {
  const [z, zk, q, qk] = ['z', 'zk', 'q', 'qk'].map((name) => variable(scope, name)) as [
    VariableTerm,
    VariableTerm,
    VariableTerm,
    VariableTerm,
  ];
  const viaZone = [triple(whole, part, z), ...kindTest(z, 'Zone', zk, unmarked.Zone), triple(z, part, child)];
  // The MINUS repeats the anchor and the way in: evaluated on its own, it otherwise read every
  // location whole of the site (60 floors' children: 249 ms at 2,000 floors, against 57 ms
  // before zones). Nested EXISTS were faster on Oxigraph, but Comunica lost their bindings.
  return [...viaZone, minus(anchor, viaZone, triple(q, part, child), kindTest(q, 'Location', qk, unmarked.Location))];
};

/** Child locations: its parts, and the locations of its zones (`throughZone`); with `recursive`, everything under it. */
const locationsOf = (parent: VariableTerm, e: VariableTerm, context: PatternContext): Pattern[] | Alternatives =>
  context.args.recursive
    ? [triple(parent, oneOrMore(context.paths.part), e)]
    : { alternatives: [[triple(parent, context.paths.part, e)], throughZone(parent, e, context)] };

/** `v` is typed with no class of the kind (the ontology graph's marks, and the site's classes without one). */
// MINUS, not FILTER NOT EXISTS: the same answer on a bound `v`, measured 2× faster (bench/shapes-1M.md).
const notOfKind = (v: VariableTerm, kind: EntityKind, unmarked?: readonly string[]) =>
  minus(kindTest(v, kind, variable('kind_c'), unmarked));

const selfStart = (parent: VariableTerm, start: VariableTerm) => [bind(parent, start)];

export const relations: Record<RelationName, Relation> = {
  'Building.locations': { kinds: ['Location'], single: false, pattern: locationsOf },
  'Building.equipment': { kinds: ['Equipment'], single: false, pattern: path(locationPaths.equipment) },
  'Building.points': { kinds: ['Point'], single: false, pattern: path(locationPaths.points) },
  'Building.zones': { kinds: ['Zone'], single: false, pattern: path(locationPaths.zones) },
  'Building.systems': { kinds: ['System'], single: false, pattern: path(locationPaths.systems) },
  // The whole it names itself, else the location its zone is part of.
  'Location.parent': {
    kinds: ['Location'],
    single: true,
    pattern: (p, e, context) => ({
      alternatives: [
        [triple(e, context.paths.part, p), rank(1)],
        [...throughZone(e, p, context), rank(2)],
      ],
    }),
  },
  'Location.locations': { kinds: ['Location'], single: false, pattern: locationsOf },
  'Location.equipment': { kinds: ['Equipment'], single: false, pattern: path(locationPaths.equipment) },
  'Location.points': { kinds: ['Point'], single: false, pattern: path(locationPaths.points) },
  'Location.zones': { kinds: ['Zone'], single: false, pattern: path(locationPaths.zones) },
  'Equipment.points': {
    kinds: ['Point'],
    single: false,
    pattern: (p, e, { paths: { point } }) => [triple(p, point, e)],
  },
  // Equipment a model links to other equipment as its point (`:pump brick:isPointOf :ahu`) stays
  // equipment, and the link is kept as a part (docs/brick-mapping.md, "Kinds add up": nothing is dropped).
  'Equipment.parts': {
    kinds: ['Equipment'],
    single: false,
    pattern: (p, e, { paths: { part, point }, scope = 'rel', unmarked = {} }) => ({
      alternatives: [
        [triple(p, part, e)],
        [triple(p, point, e), ...kindTest(e, 'Equipment', variable(scope, 'pk'), unmarked.Equipment)],
      ],
    }),
  },
  'Equipment.partOf': {
    kinds: ['Equipment'],
    single: true,
    pattern: (p, e, { paths: { part, point } }) => ({
      alternatives: [
        [triple(e, part, p), rank(1)],
        [triple(e, point, p), rank(2)],
      ],
    }),
  },
  'Equipment.feeds': {
    kinds: ['Equipment'],
    single: false,
    pattern: (p, e, { paths: { feeds } }) => [triple(p, feeds, e)],
  },
  'Equipment.fedBy': {
    kinds: ['Equipment'],
    single: false,
    pattern: (p, e, { paths: { feeds } }) => [triple(e, feeds, p)],
  },
  'Equipment.upstream': { kinds: ['Equipment'], single: false, direction: 'upstream', start: selfStart },
  'Equipment.downstream': { kinds: ['Equipment'], single: false, direction: 'downstream', start: selfStart },
  // Its own location, else that of the equipment it is part of (nearest first is not knowable
  // from a path, so a whole's location ranks after the own one).
  'Equipment.location': {
    kinds: ['Location'],
    single: true,
    pattern: (p, e, { paths: { located, part } }) => ({
      alternatives: [
        [triple(p, located, e), rank(1)],
        [triple(p, sequence([oneOrMore(inverse(part)), located]), e), rank(2)],
      ],
    }),
  },
  'Equipment.systems': {
    kinds: ['System'],
    single: false,
    pattern: (p, e, { paths: { part } }) => [triple(e, part, p)],
  },
  'Zone.locations': {
    kinds: ['Location'],
    single: false,
    pattern: (p, e, { paths: { partEither } }) => [triple(p, partEither, e)],
  },
  'Zone.fedBy': {
    kinds: ['Equipment'],
    single: false,
    pattern: (p, e, { paths: { partEither, feeds } }) => [
      triple(p, sequence([zeroOrOne(partEither), inverse(feeds)]), e),
    ],
  },
  'Zone.upstream': {
    kinds: ['Equipment'],
    single: false,
    direction: 'upstream',
    start: (p, start, { partEither }) => [triple(p, zeroOrOne(partEither), start)],
  },
  'Zone.points': { kinds: ['Point'], single: false, pattern: (p, e, { paths: { point } }) => [triple(p, point, e)] },
  'System.equipment': {
    kinds: ['Equipment'],
    single: false,
    pattern: (p, e, { args, paths: { part } }) => [triple(p, args.recursive ? oneOrMore(part) : part, e)],
  },
  'System.points': {
    kinds: ['Point'],
    single: false,
    pattern: (p, e, { args, paths: { part, point }, scope, unmarked = {} }) => {
      // A point can be a member itself (a loop's sensor): `part` reaches it as it reaches equipment.
      if (args.recursive)
        return [triple(p, alternative([point, oneOrMore(part), sequence([oneOrMore(part), point])]), e)];
      // Without recursive, a sub-system's own points are not the system's. A member point is its
      // own member's `point?` (not a third branch: Virtuoso then lost the fallback kind of untyped points).
      const w = variable(scope ?? 'rel', 'w');
      return {
        alternatives: [
          [triple(p, point, e)],
          [triple(p, part, w), triple(w, zeroOrOne(point), e), notOfKind(w, 'System', unmarked.System)],
        ],
      };
    },
  },
  'Point.equipment': {
    kinds: ['Equipment'],
    single: true,
    pattern: (p, e, { paths: { point } }) => [triple(e, point, p)],
  },
  // Its own location link, else the location or zone it is a point of, else its equipment's location.
  'Point.location': {
    kinds: ['Location', 'Zone'],
    single: true,
    pattern: (p, e, { paths: { located, point } }) => ({
      alternatives: [
        [triple(p, located, e), rank(1)],
        [triple(p, inverse(point), e), rank(2)],
        [triple(p, sequence([inverse(point), located]), e), rank(3)],
      ],
    }),
  },
};

/** True for upstream/downstream, which follow `feeds` chains. */
export function isTraversal(relation: Relation): relation is TraversalRelation {
  return 'direction' in relation;
}
