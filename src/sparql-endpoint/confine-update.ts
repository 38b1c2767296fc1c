/**
 * A client's SPARQL 1.1 Update made into steps the service runs on one site's graph, whatever
 * the store: the data of `INSERT DATA` and `DELETE DATA` as a patch, each `DELETE/INSERT … WHERE`
 * as a SELECT of its WHERE (reading the site's graph and the ontology, as a client's query does)
 * and the templates its solutions fill in, `CLEAR` of the site's graph as itself. The graph the
 * client writes is its default graph: the site's. Refused, each with 400 naming it: LOAD, CREATE,
 * ADD, MOVE, COPY, CLEAR or DROP of anything but the site's graph, WITH, USING and GRAPH naming
 * another graph (or any graph, in a template), SERVICE, and functions outside SPARQL's own.
 */
import type { BlankTerm, Pattern, Quads, SelectQuery, Term, Triple, Update, UpdateOperation } from 'sparqljs';
import oxigraph from 'oxigraph';
import { badUserInput } from '../errors/app-error.ts';
import { netPatch, type GraphPatch, type TripleText } from '../rdf/rdf-patch.ts';
import { confineWhere, parseClientSparql } from './confine-query.ts';

/** A step of an update, in order. */
export type UpdateStep =
  | { readonly kind: 'patch'; readonly patch: GraphPatch }
  | {
      readonly kind: 'match';
      /** The WHERE as a SELECT of the variables the templates use (every solution, DISTINCT). */
      readonly where: SelectQuery;
      readonly remove: readonly Triple[];
      readonly add: readonly Triple[];
      /** Tells each solution's blank nodes of the `add` template apart from the other solutions' and steps'. */
      readonly label: string;
    }
  | { readonly kind: 'clear' };

const refuse = (message: string) => badUserInput(message);

const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** A ground template term as N-Triples; blank nodes labelled within `scope`. */
export function termText(term: Term, scope: string): string {
  switch (term.termType) {
    case 'NamedNode':
      return oxigraph.namedNode(term.value).toString();
    case 'BlankNode':
      return `_:${scope}${term.value.replace(/[^A-Za-z0-9]/g, '')}`;
    case 'Literal':
      return oxigraph
        .literal(
          term.value,
          term.language
            ? term.language
            : term.datatype.value === `${XSD}string`
              ? undefined
              : oxigraph.namedNode(term.datatype.value),
        )
        .toString();
    default:
      throw refuse(`A ${term.termType} is refused here: a change holds IRIs, blank nodes and literals.`);
  }
}

/** The triples of a template or data block, refusing GRAPH: a change writes the site's graph only. */
function tripleList(quads: readonly Quads[], where: string): Triple[] {
  return quads.flatMap((quad) => {
    if (quad.type === 'graph')
      throw refuse(
        `GRAPH in ${where} is refused: the update changes this site's graph, which is its default graph; write the triples without GRAPH.`,
      );
    return quad.triples;
  });
}

/** The variables a list of triples names. */
function variablesOf(triples: readonly Triple[]): string[] {
  const names = new Set<string>();
  for (const t of triples)
    for (const term of [t.subject, t.predicate, t.object] as Term[])
      if (term.termType === 'Variable') names.add(term.value);
  return [...names];
}

function dataStep(triples: readonly Triple[], op: 'A' | 'D', scope: string): UpdateStep {
  return {
    kind: 'patch',
    patch: netPatch(
      triples.map((t) => {
        if ('type' in t.predicate) throw refuse('A property path is refused in data: write one triple per statement.');
        return [
          op,
          [t.subject, t.predicate, t.object].map((term) => termText(term as Term, scope)).join(' ') as TripleText,
        ] as const;
      }),
    ),
  };
}

/**
 * The update's steps; `graphs` are what its WHERE clauses may read (the site's graph first, then
 * the ontology). Throws 400 for a text that is not an update, or for what it refuses.
 */
export function confineUpdate(text: string, graphs: readonly string[]): UpdateStep[] {
  const parsed = parseClientSparql(text, 'update');
  if (parsed.type !== 'update')
    throw refuse(
      'The body is a SPARQL query, not an update: PATCH takes INSERT DATA, DELETE DATA, DELETE/INSERT … WHERE or CLEAR.',
    );
  const [site] = graphs;
  return (parsed as Update).updates.map((operation, i) => step(operation, `u${i}x`, site!, graphs, parsed.prefixes));
}

function step(
  operation: UpdateOperation,
  scope: string,
  site: string,
  graphs: readonly string[],
  prefixes: Record<string, string>,
): UpdateStep {
  if ('type' in operation) {
    const name = operation.type.toUpperCase();
    if (operation.type === 'clear' || operation.type === 'drop') {
      const target = operation.graph;
      if (target.default || target.name?.value === site) return { kind: 'clear' };
      const what = target.all ? 'ALL' : target.named ? 'NAMED' : `GRAPH <${target.name?.value}>`;
      throw refuse(`${name} ${what} is refused: an update may clear only this site's graph (${name} DEFAULT).`);
    }
    throw refuse(`${name} is refused: an update here changes this site's graph with INSERT and DELETE, nothing else.`);
  }
  const target = operation.graph && ('termType' in operation.graph ? operation.graph : operation.graph.name);
  if (target && target.value !== site)
    throw refuse(`WITH <${target.value}> is refused: the update changes this site's graph only.`);
  switch (operation.updateType) {
    case 'insert':
      return dataStep(tripleList(operation.insert, 'INSERT DATA'), 'A', scope);
    case 'delete':
      return dataStep(tripleList(operation.delete, 'DELETE DATA'), 'D', scope);
    case 'deletewhere': {
      const pattern = tripleList(operation.delete, 'DELETE WHERE');
      return match(pattern, [], [{ type: 'bgp', triples: pattern }], scope, graphs, prefixes);
    }
    case 'insertdelete': {
      if (operation.using && (operation.using.default.length > 0 || operation.using.named.length > 0))
        throw refuse('USING is refused: the WHERE reads this site’s graph and the ontology, always.');
      return match(
        tripleList(operation.delete, 'a DELETE template'),
        tripleList(operation.insert, 'an INSERT template'),
        operation.where,
        scope,
        graphs,
        prefixes,
      );
    }
  }
}

function match(
  remove: readonly Triple[],
  add: readonly Triple[],
  where: readonly Pattern[],
  scope: string,
  graphs: readonly string[],
  prefixes: Record<string, string>,
): UpdateStep {
  for (const t of [...remove, ...add])
    if ('type' in t.predicate)
      throw refuse('A property path is refused in a template: write one triple per statement.');
  const names = variablesOf([...remove, ...add]);
  const named = graphs.map((g) => ({ termType: 'NamedNode', value: g }) as never);
  const select = {
    type: 'query',
    queryType: 'SELECT',
    prefixes,
    distinct: names.length > 0,
    variables:
      names.length > 0
        ? names.map((n) => ({ termType: 'Variable', value: n }))
        : [{ termType: 'Wildcard', value: '*' }],
    from: { default: named, named },
    where: confineWhere(where, graphs),
    ...(names.length === 0 ? { limit: 1 } : {}),
  } as unknown as SelectQuery;
  return { kind: 'match', where: select, remove, add, label: scope };
}

/** A blank node of the `add` template, as the solution `n` of a step labels it. */
export const templateBlank = (term: BlankTerm, label: string, n: number): string =>
  `_:${label}s${n}x${term.value.replace(/[^A-Za-z0-9]/g, '')}`;
