/** The queries that read a site's profile (`site-profile.ts`), each one scan of the site's graph at most. */
import type { EntityKind } from '../ontology/ontology.ts';
import {
  bind,
  filter,
  graph,
  literal,
  namedNode,
  op,
  select,
  triple,
  variable,
  type Patterns,
  type SelectQuery,
  type VariableTerm,
} from '../rdf/sparql-algebra.ts';
import { RDF, REF } from '../rdf/vocabulary.ts';
import { PROFILE_LIMITS } from './site-profile.ts';
import { fallbackGenerator } from './sparql-builder.ts';

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';

const [E, P, S, O, T, NS, R, ID] = ['e', 'p', 's', 'o', 't', 'ns', 'r', 'id'].map((name) =>
  variable(name),
) as VariableTerm[] as [
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
];

/** `SELECT DISTINCT ?v WHERE { GRAPH <graph> { … } } LIMIT limit + 1`: one past the limit tells that there are too many. */
const distinctIn = (v: VariableTerm, site: string, limit: number, ...where: Patterns[]) =>
  select({ variables: [v], distinct: true, where: [graph(namedNode(site), ...where)], limit: limit + 1 });

/** The entities the kind's fallback places there (column `e`), one more than the limit at most. */
export function untypedQuery(site: string, kind: EntityKind): SelectQuery {
  return distinctIn(E, site, PROFILE_LIMITS.untyped, fallbackGenerator(kind)!);
}

/** The predicates of a graph (column `p`), one more than the limit at most. */
export function predicatesQuery(site: string): SelectQuery {
  return distinctIn(P, site, PROFILE_LIMITS.predicates, triple(S, P, O));
}

/** The namespaces of the graph's typed subjects (column `ns`), one more than the limit at most. */
export function namespacesQuery(site: string): SelectQuery {
  // `+`, not `*` (the same namespaces): Virtuoso refuses a REPLACE whose pattern can match the empty string.
  // IRIs only: Virtuoso's STR() of a blank node is `nodeID://…`, which would make ids of `nodeID://` IRIs it refuses.
  return select({
    variables: [NS],
    distinct: true,
    where: [
      graph(namedNode(site), triple(S, namedNode(`${RDF}type`), T), filter(op('isiri', S))),
      bind(op('replace', op('str', S), literal('[^#/]+$'), literal('')), NS),
    ],
    limit: PROFILE_LIMITS.namespaces + 1,
  });
}

/** One IFC GlobalId of the graph that is not a plain string literal, if there is one. */
export function otherIfcIdQuery(site: string): SelectQuery {
  // LANG too: Virtuoso gives a language-tagged literal the datatype xsd:string.
  const notPlain = op(
    '||',
    op('||', op('!', op('isliteral', ID)), op('!=', op('datatype', ID), namedNode(XSD_STRING))),
    op('!=', op('lang', ID), literal('')),
  );
  return select({
    variables: [ID],
    where: [graph(namedNode(site), triple(R, namedNode(`${REF}ifcGlobalID`), ID), filter(notPlain))],
    limit: 1,
  });
}
