/**
 * Every relation field of the API and how the graph answers it (MAPPING.md, "Relationships").
 * A pattern binds `?e` for a bound `?parent`; fields that return one entity rank their
 * alternatives with `?rank` (lowest wins).
 */
import { iri, sparql, variable, type Sparql } from '../rdf/sparql.ts';
import { BKG, ONTOLOGY_GRAPH } from '../rdf/vocabulary.ts';
import { FEEDS, LOCATED, PART, PART_EITHER, POINT } from './sparql-patterns.ts';
import type { EntityKind, RelationArgs, RelationName } from './plan.ts';

export interface PatternRelation {
  readonly kinds: readonly EntityKind[];
  readonly single: boolean;
  /**
   * The pattern, or alternatives each with a `?rank`. `scope` names the pattern's own variables,
   * so two patterns in one query never share one. Alternatives are returned apart, not as a
   * UNION, because a UNION branch is evaluated on its own: the builder repeats the parent anchor
   * in each (ARCHITECTURE: anchored shapes win).
   */
  readonly pattern: (parent: Sparql, e: Sparql, args: RelationArgs, scope?: string) => Sparql | readonly Sparql[];
}

export interface TraversalRelation {
  readonly kinds: readonly ['Equipment'];
  readonly single: false;
  readonly direction: 'upstream' | 'downstream';
  /** Binds `?start` to the nodes the traversal starts from (the parent, and a zone's locations). */
  readonly start: (parent: Sparql, start: Sparql) => Sparql;
}

export type Relation = PatternRelation | TraversalRelation;

const vars = (scope = 'rel') => ({ x: variable(`${scope}_x`), w: variable(`${scope}_w`) });

/** The parent itself, or with `recursive` the parent and every location under it, bound to `x`. */
const within = (parent: Sparql, args: RelationArgs, x: Sparql): Sparql =>
  args.recursive ? sparql`${parent} ${PART}* ${x} .` : sparql`BIND(${parent} AS ${x})`;

const locationsOf = (parent: Sparql, e: Sparql, args: RelationArgs) =>
  args.recursive ? sparql`${parent} ${PART}+ ${e} .` : sparql`${parent} ${PART} ${e} .`;

const equipmentIn = (parent: Sparql, e: Sparql, args: RelationArgs, scope?: string) => {
  const { x } = vars(scope);
  return sparql`${within(parent, args, x)} ${e} ${LOCATED} ${x} .`;
};

// Points of a location: its own, those located in it, and those of equipment located in it.
const pointsIn = (parent: Sparql, e: Sparql, args: RelationArgs, scope?: string) => {
  const { x } = vars(scope);
  return sparql`${within(parent, args, x)} ${x} (${POINT}|^${LOCATED}|(^${LOCATED}/${POINT})) ${e} .`;
};

const zonesOf = (parent: Sparql, e: Sparql, args: RelationArgs, scope?: string) => {
  const { x } = vars(scope);
  return sparql`${within(parent, args, x)} ${x} ${PART_EITHER} ${e} .`;
};

const systemsOf = (parent: Sparql, e: Sparql, args: RelationArgs, scope?: string) => {
  const { x, w } = vars(scope);
  return sparql`${within(parent, args, x)} ${w} ${LOCATED} ${x} . ${e} ${PART} ${w} .`;
};

/** `v` is typed with no class of the kind (the ontology graph marks each class's kind). */
const notOfKind = (v: Sparql, kind: EntityKind) =>
  sparql`FILTER NOT EXISTS { ${v} a ?kind_c . GRAPH ${iri(ONTOLOGY_GRAPH)} { ?kind_c bkg:kind ${iri(BKG + kind)} } }`;

const selfStart = (parent: Sparql, start: Sparql) => sparql`BIND(${parent} AS ${start})`;

export const relations: Record<RelationName, Relation> = {
  'Building.locations': { kinds: ['Location'], single: false, pattern: locationsOf },
  'Building.equipment': { kinds: ['Equipment'], single: false, pattern: equipmentIn },
  'Building.points': { kinds: ['Point'], single: false, pattern: pointsIn },
  'Building.zones': { kinds: ['Zone'], single: false, pattern: zonesOf },
  'Building.systems': { kinds: ['System'], single: false, pattern: systemsOf },
  'Location.parent': { kinds: ['Location'], single: true, pattern: (p, e) => sparql`${e} ${PART} ${p} .` },
  'Location.locations': { kinds: ['Location'], single: false, pattern: locationsOf },
  'Location.equipment': { kinds: ['Equipment'], single: false, pattern: equipmentIn },
  'Location.points': { kinds: ['Point'], single: false, pattern: pointsIn },
  'Location.zones': { kinds: ['Zone'], single: false, pattern: zonesOf },
  'Equipment.points': { kinds: ['Point'], single: false, pattern: (p, e) => sparql`${p} ${POINT} ${e} .` },
  'Equipment.parts': { kinds: ['Equipment'], single: false, pattern: (p, e) => sparql`${p} ${PART} ${e} .` },
  'Equipment.partOf': { kinds: ['Equipment'], single: true, pattern: (p, e) => sparql`${e} ${PART} ${p} .` },
  'Equipment.feeds': { kinds: ['Equipment'], single: false, pattern: (p, e) => sparql`${p} ${FEEDS} ${e} .` },
  'Equipment.fedBy': { kinds: ['Equipment'], single: false, pattern: (p, e) => sparql`${e} ${FEEDS} ${p} .` },
  'Equipment.upstream': { kinds: ['Equipment'], single: false, direction: 'upstream', start: selfStart },
  'Equipment.downstream': { kinds: ['Equipment'], single: false, direction: 'downstream', start: selfStart },
  // Its own location, else that of the equipment it is part of (nearest first is not knowable
  // from a path, so a whole's location ranks after the own one).
  'Equipment.location': {
    kinds: ['Location'],
    single: true,
    pattern: (p, e) => [sparql`${p} ${LOCATED} ${e} . BIND(1 AS ?rank)`, sparql`${p} (^${PART})+/${LOCATED} ${e} . BIND(2 AS ?rank)`],
  },
  'Equipment.systems': { kinds: ['System'], single: false, pattern: (p, e) => sparql`${e} ${PART} ${p} .` },
  'Zone.locations': { kinds: ['Location'], single: false, pattern: (p, e) => sparql`${p} ${PART_EITHER} ${e} .` },
  'Zone.fedBy': {
    kinds: ['Equipment'],
    single: false,
    pattern: (p, e) => sparql`${p} ${PART_EITHER}?/^${FEEDS} ${e} .`,
  },
  'Zone.upstream': {
    kinds: ['Equipment'],
    single: false,
    direction: 'upstream',
    start: (p, start) => sparql`${p} ${PART_EITHER}? ${start} .`,
  },
  'Zone.points': { kinds: ['Point'], single: false, pattern: (p, e) => sparql`${p} ${POINT} ${e} .` },
  'System.equipment': {
    kinds: ['Equipment'],
    single: false,
    pattern: (p, e, args) => (args.recursive ? sparql`${p} ${PART}+ ${e} .` : sparql`${p} ${PART} ${e} .`),
  },
  'System.points': {
    kinds: ['Point'],
    single: false,
    pattern: (p, e, args, scope) => {
      if (args.recursive) return sparql`${p} (${POINT}|(${PART}+/${POINT})) ${e} .`;
      // Without recursive, a sub-system's own points are not the system's.
      const { w } = vars(scope);
      return [sparql`${p} ${POINT} ${e} .`, sparql`${p} ${PART} ${w} . ${w} ${POINT} ${e} . ${notOfKind(w, 'System')}`];
    },
  },
  'Point.equipment': { kinds: ['Equipment'], single: true, pattern: (p, e) => sparql`${e} ${POINT} ${p} .` },
  // Its own location link, else the location or zone it is a point of, else its equipment's location.
  'Point.location': {
    kinds: ['Location', 'Zone'],
    single: true,
    pattern: (p, e) => [
      sparql`${p} ${LOCATED} ${e} . BIND(1 AS ?rank)`,
      sparql`${p} ^${POINT} ${e} . BIND(2 AS ?rank)`,
      sparql`${p} ^${POINT}/${LOCATED} ${e} . BIND(3 AS ?rank)`,
    ],
  },
};

/** True for upstream/downstream, which follow `feeds` chains. */
export function isTraversal(relation: Relation): relation is TraversalRelation {
  return 'direction' in relation;
}
