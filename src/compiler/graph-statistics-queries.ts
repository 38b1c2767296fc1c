/**
 * The aggregate queries that count what a site's graph holds (src/query/graph-statistics.ts runs
 * them): entities per class, typed entities, triples per linking predicate, and which of a list of
 * entities have a class. Nothing of the graph is copied out.
 */
import {
  aggregate,
  bind,
  filter,
  graph,
  namedNode,
  op,
  select,
  triple,
  union,
  values,
  variable,
  zeroOrMore,
  type Patterns,
  type SelectQuery,
  type VariableTerm,
} from '../rdf/sparql-algebra.ts';
import { RDF, RDFS } from '../rdf/vocabulary.ts';

const TYPE = namedNode(`${RDF}type`);
const SUBCLASS_OF = namedNode(`${RDFS}subClassOf`);
const [S, P, O, T, N, X] = ['s', 'p', 'o', 't', 'n', 'x'].map((name) => variable(name)) as [
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
];

const inGraph = (site: string, ...where: Patterns[]) => [graph(namedNode(site), ...where)];

/** Entities per asserted class: columns `t` (the class) and `n`. */
export function classCountsQuery(site: string): SelectQuery {
  return select({
    variables: [T, [aggregate('count', S), N]],
    where: inGraph(site, triple(S, TYPE, T), filter(op('isiri', T))),
    group: [T],
  });
}

/** Entities with at least one class: column `n`. */
export function typedCountQuery(site: string): SelectQuery {
  return select({
    variables: [[aggregate('count', S, { distinct: true }), N]],
    where: inGraph(site, triple(S, TYPE, T)),
  });
}

/** Triples per predicate of `predicates` whose object is an IRI or a blank node: columns `p` and `n`. */
export function linkCountsQuery(site: string, predicates: readonly string[]): SelectQuery {
  return select({
    variables: [P, [aggregate('count', S), N]],
    where: inGraph(site, values(P, predicates.map(namedNode)), triple(S, P, O), filter(op('!', op('isliteral', O)))),
    group: [P],
  });
}

/** Which of `entities` have a class: column `x`. */
export function typedAmongQuery(site: string, entities: readonly string[]): SelectQuery {
  return select({
    variables: [X],
    distinct: true,
    where: inGraph(site, values(X, entities.map(namedNode)), triple(X, TYPE, T)),
  });
}

/**
 * The classes of `entities` (those that have one) with their superclasses the graph itself states
 * (a model's own classes under Brick's): columns `x` and `t`. Bounded by the entities, it reads
 * nothing of the rest of the graph.
 */
export function entityClassesQuery(site: string, entities: readonly string[]): SelectQuery {
  const C = variable('c');
  return select({
    variables: [X, T],
    distinct: true,
    where: inGraph(
      site,
      values(X, entities.map(namedNode)),
      triple(X, TYPE, C),
      triple(C, zeroOrMore(SUBCLASS_OF), T),
      filter(op('isiri', T)),
    ),
  });
}

/**
 * The triples of `entities`, and of the blank nodes they point to (a Brick value, a timeseries
 * reference): columns `s`, `p`, `o`.
 */
export function entityTriplesQuery(site: string, entities: readonly string[]): SelectQuery {
  const B = variable('b');
  const subjects = () => values(X, entities.map(namedNode));
  return select({
    variables: [S, P, O],
    where: inGraph(
      site,
      union([
        [subjects(), triple(X, P, O), bind(X, S)],
        [subjects(), triple(X, B, S), filter(op('isblank', S)), triple(S, P, O)],
      ]),
    ),
  });
}
