/**
 * The counts a model reading is made of (src/ontology/model-reading.ts), asked of the store in a few
 * aggregate queries over the site's graph: nothing of the graph is copied out.
 */
import { siteOntology } from '../compiler/site-ontology.ts';
import { readModel, type ModelFacts, type ModelReading } from '../ontology/model-reading.ts';
import type { Ontology } from '../ontology/ontology.ts';
import { integer, iri, join, prologue, sparql, type Sparql } from '../rdf/sparql.ts';
import { BRICK, RDFS, SKOS } from '../rdf/vocabulary.ts';
import { READ_LINKS } from '../ontology/model-reading.ts';
import { siteProfile } from '../compiler/site-profile.ts';
import { fallbackGenerator } from '../compiler/sparql-builder.ts';
import type { EntityKind } from '../ontology/ontology.ts';
import type { GraphStore, SparqlRow } from '../store/graph-store.ts';

/** Untyped entities named in a reading. */
const EXAMPLES = 10;
/** Untyped entities listed per kind at most (as the site profile lists them). */
const UNTYPED_LISTED = 1000;
/** Predicates listed at most. */
const PREDICATES_LISTED = 4096;
/** How long a load report waits for the site profile being read after a change (it reads the same lists). */
const PROFILE_WAIT_MS = 120_000;

const FALLBACK_KINDS: readonly EntityKind[] = ['Location', 'Equipment', 'Point'];

// Read anyway, never a relationship between entities: labels and the values of entity properties.
const NOT_LINKS = new Set([`${RDFS}label`, `${SKOS}prefLabel`, `${BRICK}label`]);

const number = (row: SparqlRow | undefined, name: string) => Number(row?.[name]?.value ?? 0);

/** What the site profile holds of a graph, or the same read here where there is none (an external store). */
async function listed(store: GraphStore, graph: string, ask: (query: Sparql) => Promise<SparqlRow[]>): Promise<{ untyped: string[][]; predicates: string[] }> {
  const profile = await siteProfile(store, graph, PROFILE_WAIT_MS);
  if (profile?.predicates) return { untyped: [...profile.untyped.values()].map((list) => [...list]), predicates: [...profile.predicates] };
  const g = iri(graph);
  const untyped: string[][] = [];
  for (const kind of FALLBACK_KINDS) {
    const rows = await ask(sparql`${prologue}\nSELECT DISTINCT ?e WHERE { GRAPH ${g} { ${fallbackGenerator(kind)!} } } LIMIT ${integer(UNTYPED_LISTED)}`);
    untyped.push(rows.flatMap((row) => (row.e?.type === 'uri' ? [row.e.value] : [])));
  }
  const predicates = await ask(sparql`${prologue}\nSELECT DISTINCT ?p WHERE { GRAPH ${g} { ?s ?p ?o } } LIMIT ${integer(PREDICATES_LISTED)}`);
  return { untyped, predicates: predicates.map((row) => row.p!.value) };
}

/**
 * Reads the counts of a site graph. The untyped entities and the predicates are the site
 * profile's (read after every change anyway; a scan of every triple took 4–20 s at 1M); only the
 * predicates no field reads are then counted, over their own triples.
 */
export async function modelFacts(store: GraphStore, graph: string): Promise<ModelFacts> {
  const g = iri(graph);
  const ask = (query: Sparql) => store.select(query.text, { site: graph });
  const { untyped, predicates } = await listed(store, graph, ask);
  const candidates = predicates.filter((p) => !READ_LINKS.has(p) && !NOT_LINKS.has(p));
  // One after the other: at once they would grow two threads' heaps together.
  const classes = await ask(sparql`${prologue}\nSELECT ?t (COUNT(?s) AS ?n) WHERE { GRAPH ${g} { ?s a ?t FILTER(isIRI(?t)) } } GROUP BY ?t`);
  const typed = await ask(sparql`${prologue}\nSELECT (COUNT(DISTINCT ?s) AS ?n) WHERE { GRAPH ${g} { ?s a ?t } }`);
  const links =
    candidates.length === 0
      ? []
      : await ask(sparql`${prologue}\nSELECT ?p (COUNT(*) AS ?n) WHERE { GRAPH ${g} { VALUES ?p { ${join(candidates.map(iri), ' ')} } ?s ?p ?o FILTER(!isLiteral(?o)) } } GROUP BY ?p`);
  // The fallback's lists hold entities with no class of any kind, a class outside Brick included: only those with no class at all stay.
  const listedIris = [...new Set(untyped.flat())];
  const typedOnes = listedIris.length === 0 ? [] : await ask(sparql`${prologue}\nSELECT DISTINCT ?x WHERE { GRAPH ${g} { VALUES ?x { ${join(listedIris.map(iri), ' ')} } ?x a ?t } }`);
  const withClass = new Set(typedOnes.map((row) => row.x!.value));
  const untypedIris = listedIris.filter((x) => !withClass.has(x)).sort();
  return {
    typed: number(typed[0], 'n'),
    classes: new Map(classes.map((row) => [row.t!.value, number(row, 'n')])),
    links: new Map(links.filter((row) => number(row, 'n') > 0).map((row) => [row.p!.value, number(row, 'n')])),
    untyped: { count: untypedIris.length, examples: untypedIris.slice(0, EXAMPLES) },
  };
}

/** What the service made of a site's graph, as the site reads the ontology. */
export async function readSiteModel(store: GraphStore, ontology: Ontology, graph: string): Promise<ModelReading> {
  const [facts, site] = await Promise.all([modelFacts(store, graph), siteOntology(store, ontology, graph)]);
  return readModel(facts, site);
}
