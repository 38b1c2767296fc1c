/**
 * The counts a model reading is made of (src/ontology/model-reading.ts), asked of the store in a few
 * aggregate queries over the site's graph: nothing of the graph is copied out.
 */
import { READ_LINKS, readModel, type ModelFacts, type ModelReading } from '../ontology/model-reading.ts';
import type { RequestWork } from '../limits/request-work.ts';
import type { EntityKind } from '../ontology/ontology.ts';
import { aggregate, filter, graph as graphPattern, namedNode, op, select, triple, values, variable, type SelectQuery, type VariableTerm } from '../rdf/sparql-algebra.ts';
import { BRICK, RDF, RDFS, SKOS } from '../rdf/vocabulary.ts';
import { readPredicates, readUntyped } from '../compiler/site-profile.ts';
import type { SiteKnowledge } from '../query/site-knowledge.ts';
import type { GraphStore, SparqlRow } from '../store/graph-store.ts';

/** Untyped entities named in a reading. */
const EXAMPLES = 10;
/** How long a load report waits for the site profile being read after a change (it reads the same lists). */
const PROFILE_WAIT_MS = 120_000;

// Read anyway, never a relationship between entities: labels.
const NOT_LINKS = new Set([`${RDFS}label`, `${SKOS}prefLabel`, `${BRICK}label`]);

const number = (row: SparqlRow | undefined, name: string) => Number(row?.[name]?.value ?? 0);

const TYPE = namedNode(`${RDF}type`);
const [S, P, O, T, N, X] = ['s', 'p', 'o', 't', 'n', 'x'].map((name) => variable(name)) as [VariableTerm, VariableTerm, VariableTerm, VariableTerm, VariableTerm, VariableTerm];

/**
 * The site profile's untyped entities and predicates (its lists: a kind with too many untyped
 * entities, or a graph with too many predicates, is left out), read as the profile reads them
 * where there is none (an external store).
 */
async function listed(store: GraphStore, knowledge: SiteKnowledge, graph: string, work: RequestWork | undefined, profileWaitMs: number): Promise<{ untyped: ReadonlyMap<EntityKind, readonly string[]>; predicates: readonly string[] }> {
  const profile = await knowledge.profile(graph, profileWaitMs);
  if (profile) return { untyped: profile.untyped, predicates: [...(profile.predicates ?? [])] };
  const run = (query: SelectQuery) => store.select(query, { site: graph, work });
  return { untyped: await readUntyped(run, graph), predicates: (await readPredicates(run, graph)) ?? [] };
}

/**
 * Reads the counts of a site graph. The untyped entities and the predicates are the site
 * profile's (read after every change anyway; a scan of every triple took 4–20 s at 1M); only the
 * predicates no field reads are then counted, over their own triples, within the request's `work`.
 */
export async function modelFacts(store: GraphStore, knowledge: SiteKnowledge, graph: string, work?: RequestWork, profileWaitMs = PROFILE_WAIT_MS): Promise<ModelFacts> {
  const ask = (query: SelectQuery) => store.select(query, { site: graph, work });
  const inGraph = (...where: Parameters<typeof graphPattern>[1][]) => [graphPattern(namedNode(graph), ...where)];
  const { untyped, predicates } = await listed(store, knowledge, graph, work, profileWaitMs);
  const candidates = predicates.filter((p) => !READ_LINKS.has(p) && !NOT_LINKS.has(p));
  // One after the other: at once they would grow two threads' heaps together.
  const classes = await ask(select({ variables: [T, [aggregate('count', S), N]], where: inGraph(triple(S, TYPE, T), filter(op('isiri', T))), group: [T] }));
  const typed = await ask(select({ variables: [[aggregate('count', S, { distinct: true }), N]], where: inGraph(triple(S, TYPE, T)) }));
  const links =
    candidates.length === 0
      ? []
      : await ask(
          select({
            variables: [P, [aggregate('count', S), N]],
            where: inGraph(values(P, candidates.map(namedNode)), triple(S, P, O), filter(op('!', op('isliteral', O)))),
            group: [P],
          }),
        );
  // The fallback's lists hold entities with no class of any kind, a class outside Brick included: only those with no class at all stay.
  const listedIris = [...new Set([...untyped.values()].flat())];
  const typedOnes = listedIris.length === 0 ? [] : await ask(select({ variables: [X], distinct: true, where: inGraph(values(X, listedIris.map(namedNode)), triple(X, TYPE, T)) }));
  const withClass = new Set(typedOnes.map((row) => row.x!.value));
  const untypedIris = listedIris.filter((x) => !withClass.has(x)).sort();
  return {
    typed: number(typed[0], 'n'),
    classes: new Map(classes.map((row) => [row.t!.value, number(row, 'n')])),
    links: new Map(links.filter((row) => number(row, 'n') > 0).map((row) => [row.p!.value, number(row, 'n')])),
    untyped: { count: untypedIris.length, examples: untypedIris.slice(0, EXAMPLES) },
  };
}

/** What the service made of a site's graph, as the site reads the ontology; its counts within the request's `work`. */
export async function readSiteModel(store: GraphStore, knowledge: SiteKnowledge, graph: string, work?: RequestWork): Promise<ModelReading> {
  const [facts, site] = await Promise.all([modelFacts(store, knowledge, graph, work), knowledge.ontology(graph)]);
  return readModel(facts, site);
}
