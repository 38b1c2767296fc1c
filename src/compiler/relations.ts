/**
 * Every relation field of the API and how the graph answers it (MAPPING.md, "Relationships").
 * A pattern binds `?e` for a bound `?parent`; fields that return one entity rank their
 * alternatives with `?rank` (lowest wins).
 */
import { sparql, variable, type Sparql } from '../rdf/sparql.ts';
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
  readonly anchor: Sparql;
  readonly scope?: string;
  /** The site's classes without a kind mark, which the patterns' kind tests list. */
  readonly unmarked?: UnmarkedClasses;
}

export interface PatternRelation {
  readonly kinds: readonly EntityKind[];
  readonly single: boolean;
  /**
   * The pattern, or alternatives each with a `?rank`. Alternatives are returned apart, not as a
   * UNION, because a UNION branch is evaluated on its own: the builder repeats the parent anchor
   * in each (ARCHITECTURE: anchored shapes win).
   */
  readonly pattern: (parent: Sparql, e: Sparql, context: PatternContext) => Sparql | readonly Sparql[];
}

export interface TraversalRelation {
  readonly kinds: readonly ['Equipment'];
  readonly single: false;
  readonly direction: 'upstream' | 'downstream';
  /** Binds `?start` to the nodes the traversal starts from (the parent, and a zone's locations). */
  readonly start: (parent: Sparql, start: Sparql, paths: RelationPaths) => Sparql;
}

export type Relation = PatternRelation | TraversalRelation;

const vars = (scope = 'rel') => ({ w: variable(`${scope}_w`) });

/** The start of a path from a location to what is in it: with `recursive`, through every location under it first. */
const under = (recursive: boolean, { part }: RelationPaths): Sparql => (recursive ? sparql`${part}*/` : sparql``);

/**
 * Paths from a location (or with `recursive`, from anything under it) to its equipment, points,
 * zones and systems. Written as single property paths so a root filter can also walk them
 * backwards from a bound entity (`?e ^(path) ?location`).
 */
export const locationPaths = {
  equipment: (recursive: boolean, paths: RelationPaths) => sparql`${under(recursive, paths)}^${paths.located}`,
  // Its own points, points located in it, and points of equipment located in it.
  points: (recursive: boolean, paths: RelationPaths) =>
    sparql`${under(recursive, paths)}(${paths.point}|^${paths.located}|(^${paths.located}/${paths.point}))`,
  zones: (recursive: boolean, paths: RelationPaths) => sparql`${under(recursive, paths)}${paths.partEither}`,
  systems: (recursive: boolean, paths: RelationPaths) => sparql`${under(recursive, paths)}^${paths.located}/^${paths.part}`,
};

/** Points of a zone and of the equipment that feeds it directly. */
export const zonePoints = ({ point, feeds }: RelationPaths) => sparql`(${point}|(^${feeds}/${point}))`;

const path =
  (build: (recursive: boolean, paths: RelationPaths) => Sparql) =>
  (parent: Sparql, e: Sparql, { args, paths }: PatternContext) =>
    sparql`${parent} ${build(args.recursive, paths)} ${e} .`;

/**
 * `whole` has the location `child` as a part through a zone (Room isPartOf HVAC_Zone isPartOf
 * Floor: MAPPING.md, "Location parent"), unless `child` is part of a location directly: a room
 * that also names its floor hangs there, not under every location its zone is part of, so that
 * `parent` and `locations` agree. One zone deep, the real-model pattern.
 */
const throughZone = (whole: Sparql, child: Sparql, { paths: { part }, anchor, scope = 'rel', unmarked = {} }: PatternContext): Sparql => {
  const [z, zk, q, qk] = ['z', 'zk', 'q', 'qk'].map((name) => variable(`${scope}_${name}`)) as [Sparql, Sparql, Sparql, Sparql];
  const viaZone = sparql`${whole} ${part} ${z} . ${kindTest(z, 'Zone', zk, unmarked.Zone)} ${z} ${part} ${child} .`;
  // The MINUS repeats the anchor and the way in: evaluated on its own, it otherwise read every
  // location whole of the site (60 floors' children: 249 ms at 2,000 floors, against 57 ms
  // before zones). Nested EXISTS were faster on Oxigraph, but Comunica lost their bindings.
  return sparql`${viaZone} MINUS { ${anchor} ${viaZone} ${q} ${part} ${child} . ${kindTest(q, 'Location', qk, unmarked.Location)} }`;
};

/** Child locations: its parts, and the locations of its zones (`throughZone`); with `recursive`, everything under it. */
const locationsOf = (parent: Sparql, e: Sparql, context: PatternContext) =>
  context.args.recursive ? sparql`${parent} ${context.paths.part}+ ${e} .` : [sparql`${parent} ${context.paths.part} ${e} .`, throughZone(parent, e, context)];

/** `v` is typed with no class of the kind (the ontology graph's marks, and the site's classes without one). */
// MINUS, not FILTER NOT EXISTS: the same answer on a bound `v`, measured 2× faster (bench/shapes-1M.md).
const notOfKind = (v: Sparql, kind: EntityKind, unmarked?: readonly string[]) => sparql`MINUS { ${kindTest(v, kind, variable('kind_c'), unmarked)} }`;

const selfStart = (parent: Sparql, start: Sparql) => sparql`BIND(${parent} AS ${start})`;

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
    pattern: (p, e, context) => [sparql`${e} ${context.paths.part} ${p} . BIND(1 AS ?rank)`, sparql`${throughZone(e, p, context)} BIND(2 AS ?rank)`],
  },
  'Location.locations': { kinds: ['Location'], single: false, pattern: locationsOf },
  'Location.equipment': { kinds: ['Equipment'], single: false, pattern: path(locationPaths.equipment) },
  'Location.points': { kinds: ['Point'], single: false, pattern: path(locationPaths.points) },
  'Location.zones': { kinds: ['Zone'], single: false, pattern: path(locationPaths.zones) },
  'Equipment.points': { kinds: ['Point'], single: false, pattern: (p, e, { paths: { point } }) => sparql`${p} ${point} ${e} .` },
  // Equipment a model links to other equipment as its point (`:pump brick:isPointOf :ahu`) stays
  // equipment, and the link is kept as a part (MAPPING.md: kinds add up, nothing is dropped).
  'Equipment.parts': {
    kinds: ['Equipment'],
    single: false,
    pattern: (p, e, { paths: { part, point }, scope = 'rel', unmarked = {} }) => [
      sparql`${p} ${part} ${e} .`,
      sparql`${p} ${point} ${e} . ${kindTest(e, 'Equipment', variable(`${scope}_pk`), unmarked.Equipment)}`,
    ],
  },
  'Equipment.partOf': {
    kinds: ['Equipment'],
    single: true,
    pattern: (p, e, { paths: { part, point } }) => [sparql`${e} ${part} ${p} . BIND(1 AS ?rank)`, sparql`${e} ${point} ${p} . BIND(2 AS ?rank)`],
  },
  'Equipment.feeds': { kinds: ['Equipment'], single: false, pattern: (p, e, { paths: { feeds } }) => sparql`${p} ${feeds} ${e} .` },
  'Equipment.fedBy': { kinds: ['Equipment'], single: false, pattern: (p, e, { paths: { feeds } }) => sparql`${e} ${feeds} ${p} .` },
  'Equipment.upstream': { kinds: ['Equipment'], single: false, direction: 'upstream', start: selfStart },
  'Equipment.downstream': { kinds: ['Equipment'], single: false, direction: 'downstream', start: selfStart },
  // Its own location, else that of the equipment it is part of (nearest first is not knowable
  // from a path, so a whole's location ranks after the own one).
  'Equipment.location': {
    kinds: ['Location'],
    single: true,
    pattern: (p, e, { paths: { located, part } }) => [
      sparql`${p} ${located} ${e} . BIND(1 AS ?rank)`,
      sparql`${p} (^${part})+/${located} ${e} . BIND(2 AS ?rank)`,
    ],
  },
  'Equipment.systems': { kinds: ['System'], single: false, pattern: (p, e, { paths: { part } }) => sparql`${e} ${part} ${p} .` },
  'Zone.locations': { kinds: ['Location'], single: false, pattern: (p, e, { paths: { partEither } }) => sparql`${p} ${partEither} ${e} .` },
  'Zone.fedBy': {
    kinds: ['Equipment'],
    single: false,
    pattern: (p, e, { paths: { partEither, feeds } }) => sparql`${p} ${partEither}?/^${feeds} ${e} .`,
  },
  'Zone.upstream': {
    kinds: ['Equipment'],
    single: false,
    direction: 'upstream',
    start: (p, start, { partEither }) => sparql`${p} ${partEither}? ${start} .`,
  },
  'Zone.points': { kinds: ['Point'], single: false, pattern: (p, e, { paths: { point } }) => sparql`${p} ${point} ${e} .` },
  'System.equipment': {
    kinds: ['Equipment'],
    single: false,
    pattern: (p, e, { args, paths: { part } }) => (args.recursive ? sparql`${p} ${part}+ ${e} .` : sparql`${p} ${part} ${e} .`),
  },
  'System.points': {
    kinds: ['Point'],
    single: false,
    pattern: (p, e, { args, paths: { part, point }, scope, unmarked = {} }) => {
      // A point can be a member itself (a loop's sensor): `part` reaches it as it reaches equipment.
      if (args.recursive) return sparql`${p} (${point}|${part}+|(${part}+/${point})) ${e} .`;
      // Without recursive, a sub-system's own points are not the system's. A member point is its
      // own member's `point?` (not a third branch: Virtuoso then lost the fallback kind of untyped points).
      const { w } = vars(scope);
      return [sparql`${p} ${point} ${e} .`, sparql`${p} ${part} ${w} . ${w} ${point}? ${e} . ${notOfKind(w, 'System', unmarked.System)}`];
    },
  },
  'Point.equipment': { kinds: ['Equipment'], single: true, pattern: (p, e, { paths: { point } }) => sparql`${e} ${point} ${p} .` },
  // Its own location link, else the location or zone it is a point of, else its equipment's location.
  'Point.location': {
    kinds: ['Location', 'Zone'],
    single: true,
    pattern: (p, e, { paths: { located, point } }) => [
      sparql`${p} ${located} ${e} . BIND(1 AS ?rank)`,
      sparql`${p} ^${point} ${e} . BIND(2 AS ?rank)`,
      sparql`${p} ^${point}/${located} ${e} . BIND(3 AS ?rank)`,
    ],
  },
};

/** True for upstream/downstream, which follow `feeds` chains. */
export function isTraversal(relation: Relation): relation is TraversalRelation {
  return 'direction' in relation;
}
