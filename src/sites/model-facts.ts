/**
 * The counts a model reading is made of (src/ontology/model-reading.ts), asked of the store in four
 * aggregate queries over the site's graph: nothing of the graph is copied out.
 */
import { siteOntology } from '../compiler/site-ontology.ts';
import { readModel, type ModelFacts, type ModelReading } from '../ontology/model-reading.ts';
import type { Ontology } from '../ontology/ontology.ts';
import { integer, iri, join, prologue, sparql, type Sparql } from '../rdf/sparql.ts';
import { BRICK, REC } from '../rdf/vocabulary.ts';
import type { GraphStore, SparqlRow } from '../store/graph-store.ts';

/** Untyped entities named in a reading. */
const EXAMPLES = 10;
/** Untyped entities counted at most: a DISTINCT holds what it has seen, so the count is cut to bound it. */
export const UNTYPED_COUNTED = 10_000;

// An IRI linked to by one of these is an entity even when nothing describes it (a point named only by hasPoint).
const ENTITY_LINKS = [
  ...['hasPart', 'isPartOf', 'hasPoint', 'isPointOf', 'feeds', 'isFedBy', 'hasLocation', 'isLocationOf'].map((p) => BRICK + p),
  ...['hasPart', 'isPartOf', 'hasPoint', 'isPointOf', 'feeds', 'isFedBy', 'locatedIn', 'isLocationOf'].map((p) => REC + p),
];

const number = (row: SparqlRow | undefined, name: string) => Number(row?.[name]?.value ?? 0);

/**
 * Entities without a class: IRIs that describe something or are linked to as an entity, and are
 * neither typed nor declared as classes. Tested per triple before they are made distinct, so only
 * the few untyped ones are ever held (a DISTINCT of every subject first held the whole site's IRIs).
 */
function untypedPattern(graph: string): Sparql {
  return sparql`GRAPH ${iri(graph)} {
    { ?x ?p ?o } UNION { VALUES ?rel { ${join(ENTITY_LINKS.map(iri), ' ')} } ?s ?rel ?x }
    FILTER(isIRI(?x))
    OPTIONAL { ?x a ?t } FILTER(!BOUND(?t))
    OPTIONAL { ?x rdfs:subClassOf ?c } FILTER(!BOUND(?c))
  }`;
}

/** Reads the counts of a site graph. */
export async function modelFacts(store: GraphStore, graph: string): Promise<ModelFacts> {
  const g = iri(graph);
  const ask = (query: Sparql) => store.select(query.text, { site: graph });
  // One after the other: each scans the graph, and at once they would grow two threads' heaps together.
  const queries = [
    sparql`${prologue}\nSELECT ?t (COUNT(?s) AS ?n) WHERE { GRAPH ${g} { ?s a ?t FILTER(isIRI(?t)) } } GROUP BY ?t`,
    // Each entity once, by its least class, without a DISTINCT holding every entity of the site.
    sparql`${prologue}\nSELECT (COUNT(*) AS ?n) WHERE { GRAPH ${g} { ?s a ?t FILTER NOT EXISTS { ?s a ?other FILTER(STR(?other) < STR(?t)) } } }`,
    sparql`${prologue}\nSELECT ?p (COUNT(*) AS ?n) WHERE { GRAPH ${g} { ?s ?p ?o FILTER(!isLiteral(?o)) } } GROUP BY ?p`,
    // No ORDER BY: it would hold every untyped entity before the first is answered.
    sparql`${prologue}\nSELECT DISTINCT ?x WHERE { ${untypedPattern(graph)} } LIMIT ${integer(UNTYPED_COUNTED)}`,
  ];
  const answers: SparqlRow[][] = [];
  for (const query of queries) answers.push(await ask(query));
  const [classes, typed, links, untyped] = answers as [SparqlRow[], SparqlRow[], SparqlRow[], SparqlRow[]];
  return {
    typed: number(typed[0], 'n'),
    classes: new Map(classes.map((row) => [row.t!.value, number(row, 'n')])),
    links: new Map(links.map((row) => [row.p!.value, number(row, 'n')])),
    untyped: { count: untyped.length, examples: untyped.map((row) => row.x!.value).sort().slice(0, EXAMPLES) },
  };
}

/** What the service made of a site's graph, as the site reads the ontology. */
export async function readSiteModel(store: GraphStore, ontology: Ontology, graph: string): Promise<ModelReading> {
  const [facts, site] = await Promise.all([modelFacts(store, graph), siteOntology(store, ontology, graph)]);
  return readModel(facts, site);
}
