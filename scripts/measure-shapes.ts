/**
 * Measures competing SPARQL shapes for the same questions on a generated portfolio site, in a raw
 * in-process Oxigraph store, so the compiler's choice of shape rests on numbers (Oxigraph's time for one
 * question differs by orders of magnitude between shapes; docs/benchmarks.md, "What the measurements
 * led to").
 *
 *   npm run measure:shapes -- --triples 1M          # generates bench/data/portfolio-1M.ttl if missing
 *   npm run measure:shapes -- --triples 100k --runs 9
 *   npm run measure:shapes -- --file some.ttl --out /tmp/shapes.md
 *
 * Setup as the service has it: the site in the named graph `urn:bkg:site:bench`, the project's
 * ontology (ontology/brick-hierarchy.ttl) in `urn:bkg:ontology` plus the kind marks the service adds
 * (written by src/ontology/ontology-graph.ts itself, through a small adapter), class closures from
 * src/ontology/ontology.ts. "Emitted" shapes are built with the compiler's own functions
 * (`rootQuery`, `relationQuery`, `traversalQuery`) from hand-made plans, so they are exactly what the
 * service sends. Every shape is run once to warm up, then `--runs` times (default 7); the table gives
 * the median. Results are asked for as `application/sparql-results+json` text, as the service does.
 * Every shape's answer is compared with the first shape of its question; a difference is flagged.
 *
 * Output: one Markdown table (question | shape | median ms | rows) on stdout and in
 * `bench/shapes-<size>.md` (with the exact queries, long IRI lists elided, below the table).
 */
import { applyPatch } from '../src/store/apply-patch.ts';
import type { GraphPatch } from '../src/rdf/rdf-patch.ts';
import type { ChangeResult } from '../src/store/graph-store.ts';
import { readFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { basename, dirname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

import oxigraph from 'oxigraph';

import { readEntityRows, type EntityRecord } from '../src/query/entity-records.ts';
import type { Attribute, Constraint, RelationArgs, RootPlan, Selection } from '../src/compiler/plan.ts';
import { isTraversal, locationPaths, relations } from '../src/compiler/relations.ts';
import { kindsOf } from '../src/query/shape-entity.ts';
import { relationQuery, rootQuery, traversalQuery } from '../src/compiler/sparql-builder.ts';
import { ALL_PATHS, classGenerator, classTest, nameFilter, tagOf } from '../src/compiler/sparql-patterns.ts';
import { Ontology, type EntityKind } from '../src/ontology/ontology.ts';
import { loadOntologyGraph } from '../src/ontology/ontology-graph.ts';
import { iri, join, prologue, sparql, trusted, type Piece, type Sparql } from './lib/shape-text.ts';
import { exists, filter, variable, type SelectQuery, type VariableTerm } from '../src/rdf/sparql-algebra.ts';
import { serialize, serializeFragment } from '../src/rdf/sparql-serializer.ts';
import { BRICK, ONTOLOGY_GRAPH } from '../src/rdf/vocabulary.ts';
import type { GraphStore, LoadResult, RdfFormat, SparqlRow } from '../src/store/graph-store.ts';
import { parseSelectResults } from '../src/store/sparql-results.ts';
import {
  PORTFOLIO_NAMESPACE,
  REPO_ROOT,
  defaultPortfolioPath,
  formatStats,
  writePortfolioFile,
} from './generate-portfolio.ts';
import { formatCount, groupDigits, parseCount } from './lib/counts.ts';
import { traversalAnswer } from './lib/traversal-answer.ts';

export const BENCH_GRAPH = 'urn:bkg:site:bench';
const ONTOLOGY_PATH = resolve(REPO_ROOT, 'ontology', 'brick-hierarchy.ttl');
const JSON_RESULTS = 'application/sparql-results+json';
/** SPARQL text on one line, a statement's closing dot against its object, to find one piece of a query in another. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').replace(/ \./g, '.');
/** The relationship paths in full: these shapes were measured with no site profile. */
const { feeds: FEEDS, point: POINT } = ALL_PATHS;

// ---------------------------------------------------------------------------------------------------
// A raw in-process store, and the GraphStore view loadOntologyGraph writes through

/** What GraphStore's load methods take (kept as the interface says, whichever version it is). */
type RdfInput = Parameters<GraphStore['replaceGraph']>[1];

class RawStore implements GraphStore {
  readonly name = 'oxigraph-raw';
  constructor(readonly store: oxigraph.Store) {}

  /** Runs a SELECT and returns the serialized results (what the timings measure). */
  queryText(query: string): string {
    return this.store.query(query, { results_format: JSON_RESULTS }) as string;
  }
  async select(query: SelectQuery): Promise<SparqlRow[]> {
    return this.selectText(serialize(query));
  }
  /** A SELECT written as text (a shape measured here). */
  async selectText(query: string): Promise<SparqlRow[]> {
    return parseSelectResults(this.queryText(query));
  }
  /** Not measured here: the ontology loader only writes and selects. */
  clientQuery(): never {
    throw new Error('The raw store answers no client queries');
  }
  async replaceGraph(graph: string, data: RdfInput, format: RdfFormat): Promise<LoadResult> {
    await this.dropGraph(graph);
    return this.mergeGraph(graph, data, format);
  }
  async mergeGraph(graph: string, data: RdfInput, format: RdfFormat): Promise<LoadResult> {
    // Text, bytes, or (in newer versions of the interface) a file to read.
    const input: unknown = data;
    const content =
      typeof input === 'string' || input instanceof Uint8Array ? input : readFileSync((input as { path: string }).path);
    this.store.load(content, { format, to_graph_name: oxigraph.namedNode(graph), base_iri: graph });
    return { triples: await this.countTriples(graph) };
  }
  async changeGraph(graph: string, patch: GraphPatch, clear?: boolean): Promise<ChangeResult> {
    const { patch: made } = applyPatch(this.store, graph, patch, clear);
    return { triples: await this.countTriples(graph), patch: made };
  }
  async dropGraph(graph: string): Promise<void> {
    this.store.update(`DROP SILENT GRAPH <${graph}>`);
  }
  async exportGraph(graph: string, format: 'text/turtle' | 'application/n-triples'): Promise<string> {
    return this.store.dump({ format, from_graph_name: oxigraph.namedNode(graph) });
  }
  async countTriples(graph: string): Promise<number> {
    const rows = await this.selectText(`SELECT (COUNT(*) AS ?n) WHERE { GRAPH <${graph}> { ?s ?p ?o } }`);
    return Number(rows[0]?.n?.value ?? 0);
  }
  async ping(): Promise<void> {}
  async close(): Promise<void> {}
}

// ---------------------------------------------------------------------------------------------------
// Questions and shapes

interface Shape {
  /** Markdown for the table's shape column. */
  readonly label: string;
  /** The shape the compiler emits today. */
  readonly emitted?: boolean;
  /** A reference point answering a different question (not compared, not a candidate). */
  readonly baseline?: boolean;
  /** Fetches the entities' facts too (a whole service query); competes only with other full shapes. */
  readonly full?: boolean;
  /**
   * Answers a narrower question than the service asks (e.g. ignores names from skos:prefLabel), which
   * happens to give the same answer on this data: shown for reference, never "the fastest".
   */
  readonly narrower?: boolean;
  /** One query, or several run one after another (the N+1 shape). */
  readonly queries: readonly string[];
  /** The answer as comparable items, from all rows of all queries. */
  readonly answer: (rows: readonly SparqlRow[]) => string[];
}

interface Question {
  readonly title: string;
  readonly shapes: readonly Shape[];
}

interface Measured {
  readonly shape: Shape;
  readonly medianMs: number;
  readonly timesMs: readonly number[];
  readonly rows: number;
  /** Whether the answer equals the question's first shape's. */
  readonly same: boolean;
  readonly answerSize: number;
}

const G = iri(BENCH_GRAPH);
const O = iri(ONTOLOGY_GRAPH);

/** `SELECT <projection> WHERE { GRAPH <site> { body } }` with the compiler's prologue. */
const select = (projection: string, body: Sparql): string =>
  sparql`${prologue}
SELECT ${trusted(projection)} WHERE {
  GRAPH ${G} {
    ${body}
  }
}`.text;

const values = (v: string, iris: readonly string[]): Sparql => sparql`VALUES ${trusted(v)} { ${iris.map(iri)} }`;
const inList = (iris: readonly string[]): Sparql => join(iris.map(iri), ', ');

const column =
  (...names: string[]) =>
  (rows: readonly SparqlRow[]): string[] =>
    rows.map((r) => names.map((n) => r[n]?.value ?? '').join(' '));

/** Entity records, folded as the service folds them, as comparable items (facts and parent links). */
function recordItems(rows: readonly SparqlRow[]): string[] {
  const { records, links } = readEntityRows(rows);
  const items: string[] = [];
  const sorted = (xs: Iterable<string>) => [...xs].sort();
  for (const r of records.values()) {
    items.push(
      JSON.stringify([
        r.iri,
        r.tag,
        sorted(r.types),
        r.labels.map(sorted),
        sorted(r.ifcIds),
        sorted(r.timeseriesIds),
        sorted(r.units),
      ]),
    );
  }
  for (const [parent, children] of links)
    for (const [child, rank] of children) items.push(`${parent} -> ${child} ${rank}`);
  return items;
}

/** The entities of an emitted root/relation query the service would keep (kind checked in JavaScript). */
function keptEntities(ontology: Ontology, kind: EntityKind, withParent: boolean) {
  return (rows: readonly SparqlRow[]): string[] => {
    const { records, links } = readEntityRows(rows);
    const keep = (r: EntityRecord | undefined) => r !== undefined && kindsOf(r, ontology).has(kind);
    if (!withParent) return [...records.values()].filter(keep).map((r) => r.iri);
    const items: string[] = [];
    for (const [parent, children] of links)
      for (const child of children.keys()) if (keep(records.get(child))) items.push(`${parent} ${child}`);
    return items;
  };
}

// The compiler's fact patterns (sparql-builder.ts `factPatterns`, not exported), mirrored to build
// the alternative fact shapes. `checkMirrors` fails the run if the builder no longer emits them.
const FACTS: ReadonlyArray<{ attribute?: Attribute; pattern: string }> = [
  { pattern: '?e rdf:type ?t.' },
  { attribute: 'labels', pattern: '?e rdfs:label ?l0.' },
  { attribute: 'labels', pattern: '?e skos:prefLabel ?l1.' },
  { attribute: 'labels', pattern: '?e brick:label ?l2.' },
  { attribute: 'ifc', pattern: '?e ref:hasExternalReference ?ifc_r. ?ifc_r ref:ifcGlobalID ?ifc.' },
  {
    attribute: 'timeseries',
    pattern:
      '?e (((ref:hasExternalReference|ref:hasTimeseriesReference)/ref:hasTimeseriesId)|(brick:timeseries/brick:hasTimeseriesId)|brick:hasTimeseriesId) ?ts.',
  },
  { attribute: 'unit', pattern: '?e (brick:hasUnit|brick:hasUnits) ?u.' },
];
const FACT_VARIABLES = '?t ?l0 ?l1 ?l2 ?ifc ?ts ?u ?litp ?lit ?own ?ownt ?out';

function facts(attributes: ReadonlySet<Attribute>): string[] {
  return FACTS.filter((f) => f.attribute === undefined || attributes.has(f.attribute)).map((f) => f.pattern);
}

function checkMirrors(emitted: string, attributes: ReadonlySet<Attribute>): void {
  const text = oneLine(emitted);
  for (const f of facts(attributes)) {
    if (!text.includes(`OPTIONAL { ${f} }`))
      throw new Error(`sparql-builder.ts no longer emits the fact pattern "${f}": update FACTS`);
  }
  if (!text.includes(FACT_VARIABLES))
    throw new Error('sparql-builder.ts changed its fact variables: update FACT_VARIABLES');
}

/** The same candidates with their facts in three shapes: flat (emitted), subquery + UNION, subquery + OPTIONALs. */
function factShapes(emitted: string, candidates: Piece, keys: string, attributes: ReadonlySet<Attribute>): Shape[] {
  checkMirrors(emitted, attributes);
  const e = variable('e');
  const sub = sparql`{ SELECT DISTINCT ${trusted(keys)} WHERE { ${candidates} } }
    ${tagOf(e, ALL_PATHS)}`;
  const unionFacts = trusted(
    facts(attributes)
      .map((f) => `{ ${f} }`)
      .join('\n    UNION '),
  );
  const optionalFacts = trusted(
    facts(attributes)
      .map((f) => `OPTIONAL { ${f} }`)
      .join('\n    '),
  );
  return [
    {
      label: 'one flat group: candidates, then `OPTIONAL` facts on the bound `?e`',
      emitted: true,
      full: true,
      queries: [emitted],
      answer: recordItems,
    },
    {
      label: '`DISTINCT` candidate subquery joined to a `UNION` of fact branches',
      full: true,
      queries: [select(`${keys} ?tag ${FACT_VARIABLES}`, sparql`${sub}\n    ${unionFacts}`)],
      answer: recordItems,
    },
    {
      label: '`DISTINCT` candidate subquery, then the `OPTIONAL` facts',
      full: true,
      queries: [select(`${keys} ?tag ${FACT_VARIABLES}`, sparql`${sub}\n    ${optionalFacts}`)],
      answer: recordItems,
    },
  ];
}

/** A whole entity query as `selectEntities` in sparql-builder.ts writes it, around other candidates. */
function fullQuery(candidates: Sparql, keys: string, attributes: ReadonlySet<Attribute>): string {
  const optionalFacts = trusted(
    facts(attributes)
      .map((f) => `OPTIONAL { ${f} }`)
      .join(' '),
  );
  return select(
    `${keys} ${FACT_VARIABLES}`,
    sparql`${candidates}
    ${tagOf(variable('e'), ALL_PATHS)}
    ${optionalFacts}`,
  );
}

/** The (entity, timeseries id) pairs of rows, whichever variable carries the id. */
function timeseriesPairs(rows: readonly SparqlRow[]): string[] {
  const pairs: string[] = [];
  for (const r of rows)
    for (const v of ['ts', 'ts2', 'ts3']) if (r[v] && r.e) pairs.push(`${r.e.value} ${r[v]!.value}`);
  return pairs;
}

interface Anchors {
  buildings: number;
  building: string;
  vav: string;
  equipment500: string[];
}

async function findAnchors(store: RawStore): Promise<Anchors> {
  const pfProp = '<https://example.org/buildings/props#pointCount>';
  const equipment = (await store.selectText(select('?e', trusted(`?e ${pfProp} ?n .`)) + '\nORDER BY ?e')).map(
    (r) => r.e!.value,
  );
  if (equipment.length < 500)
    throw new Error(`The site has ${equipment.length} equipment; the questions need at least 500 (use a bigger size)`);
  const equipment500 = Array.from({ length: 500 }, (_, i) => equipment[Math.floor((i * equipment.length) / 500)]!);
  const buildingRows = await store.selectText(
    select('?b', trusted('?b <https://example.org/buildings/props#yearBuilt> ?y .')),
  );
  const buildings = buildingRows.length;
  const middle = `B${String(Math.ceil(buildings / 2)).padStart(2, '0')}`;
  const building = `${PORTFOLIO_NAMESPACE}${middle}-Building`;
  // VAV-2-01 of the middle building: VAV nn=01 always has reheat, so its upstream reaches both plants.
  const vav = `${PORTFOLIO_NAMESPACE}${middle}-VAV-2-01`;
  const found = await store.selectText(select('?v', sparql`VALUES ?v { ${iri(vav)} ${iri(building)} } ?v a ?c .`));
  if (found.length < 2) throw new Error(`Expected ${vav} and ${building} in the site`);
  return { buildings, building, vav, equipment500 };
}

const selection = (kind: EntityKind, attributes: Attribute[] = []): Selection => ({
  kind,
  attributes: new Set(attributes),
  fields: [],
});

function rootPlan(
  kind: EntityKind,
  constraints: Constraint[],
  ontology: Ontology,
  attributes: Attribute[] = [],
): RootPlan {
  return {
    key: 'bench',
    query: 'equipment',
    siteId: 'bench',
    graph: BENCH_GRAPH,
    kind,
    answer: 'list',
    constraints: [{ type: 'kind', kind, classes: [...ontology.kindClasses(kind)].sort() }, ...constraints],
    selection: selection(kind, attributes),
  };
}

function classFilterOf(ontology: Ontology, local: string) {
  const classIri = BRICK + local;
  if (!ontology.isKnownClass(classIri)) throw new Error(`Unknown class ${local}`);
  return { iri: classIri, closure: [...ontology.closure(classIri)].sort() };
}

function buildQuestions(ontology: Ontology, a: Anchors): Question[] {
  const e = variable('e');
  const hvac = classFilterOf(ontology, 'HVAC_Equipment');
  const temperature = classFilterOf(ontology, 'Temperature_Sensor');
  const ahu = classFilterOf(ontology, 'AHU');
  const equipmentClasses = [...ontology.kindClasses('Equipment')].sort();
  const vav = iri(a.vav);
  const parents = values('?parent', a.equipment500);
  const must = <T>(x: T | undefined): T => {
    if (x === undefined) throw new Error('the builder returned no query');
    return x;
  };
  const questions: Question[] = [];

  // --- Class filter, unanchored --------------------------------------------------------------------
  {
    const emittedFull = must(rootQuery(rootPlan('Equipment', [{ type: 'class', classes: hvac }], ontology), new Set()));
    questions.push({
      title: `all HVAC_Equipment (unanchored class filter; closure of ${hvac.closure.length} classes)`,
      shapes: [
        {
          label: '`?e a ?t . GRAPH <urn:bkg:ontology> { ?t rdfs:subClassOf* brick:HVAC_Equipment }`',
          queries: [select('?e', sparql`?e a ?t . GRAPH ${O} { ?t rdfs:subClassOf* ${iri(hvac.iri)} }`)],
          answer: column('e'),
        },
        {
          label: 'closure as `VALUES ?t { ... }` placed first',
          emitted: true,
          queries: [select('?e', sparql`${values('?t', hvac.closure)} ?e a ?t .`)],
          answer: column('e'),
        },
        {
          label: 'closure as `?e a ?t FILTER(?t IN (...))`',
          queries: [select('?e', sparql`?e a ?t FILTER(?t IN (${inList(hvac.closure)}))`)],
          answer: column('e'),
        },
        {
          label: 'full emitted query `equipment(is: "HVAC_Equipment")` (types, labels)',
          emitted: true,
          full: true,
          queries: [serialize(emittedFull)],
          answer: keptEntities(ontology, 'Equipment', false),
        },
      ],
    });
  }

  // --- Class filter anchored on a location ---------------------------------------------------------
  {
    const plan = rootPlan(
      'Equipment',
      [
        {
          type: 'inLocation',
          location: { id: a.building },
          locationClasses: [...ontology.kindClasses('Location')].sort(),
        },
        { type: 'class', classes: hvac },
      ],
      ontology,
    );
    const emittedFull = must(rootQuery(plan, new Set()));
    // The generator `inLocation` compiles to (sparql-builder.ts `viaAnchor`, relations.ts `locationPaths`).
    const inBuildingAs = (v: VariableTerm) =>
      sparql`VALUES ${v} { ${iri(a.building)} } ${v} ${locationPaths.equipment(true, ALL_PATHS)} ?e .`;
    const inBuilding = inBuildingAs(variable('a'));
    if (!oneLine(serialize(emittedFull)).includes(oneLine(inBuildingAs(variable('c1_a')).text))) {
      throw new Error('sparql-builder.ts changed how it generates inLocation: update the location question');
    }
    questions.push({
      title: `HVAC_Equipment in one building (${a.building.slice(PORTFOLIO_NAMESPACE.length)}, class filter anchored by location)`,
      shapes: [
        {
          label: 'location first, then `FILTER EXISTS { ?e a ?k FILTER(?k IN (...)) }`',
          emitted: true,
          queries: [select('?e', sparql`${inBuilding} FILTER EXISTS { ${classTest(e, hvac.closure, variable('k'))} }`)],
          answer: column('e'),
        },
        {
          label: 'location only, no class test (baseline, a larger answer)',
          queries: [select('?e', inBuilding)],
          answer: () => ['(baseline: not compared)'],
          baseline: true,
        },
        {
          label: 'location, then `FILTER EXISTS { VALUES ?k { ... } ?e a ?k }`',
          queries: [select('?e', sparql`${inBuilding} FILTER EXISTS { ${values('?k', hvac.closure)} ?e a ?k }`)],
          answer: column('e'),
        },
        {
          label:
            'location, then `?e a ?k . GRAPH <ontology> { ?k rdfs:subClassOf* brick:HVAC_Equipment }` in the same group',
          queries: [select('?e', sparql`${inBuilding} ?e a ?k . GRAPH ${O} { ?k rdfs:subClassOf* ${iri(hvac.iri)} }`)],
          answer: column('e'),
        },
        {
          label: '`VALUES ?k { ... }` first, then `?e a ?k` and the location path',
          queries: [select('?e', sparql`${values('?k', hvac.closure)} ?e a ?k . ${inBuilding}`)],
          answer: column('e'),
        },
        {
          label: 'full emitted query `equipment(locationId: ..., is: "HVAC_Equipment")`',
          emitted: true,
          full: true,
          queries: [serialize(emittedFull)],
          answer: keptEntities(ontology, 'Equipment', false),
        },
      ],
    });
  }

  // --- Class filter anchored on parents ------------------------------------------------------------
  {
    const args: RelationArgs = { recursive: false, classes: temperature };
    const emittedFull = relationQuery(BENCH_GRAPH, 'Equipment.points', args, a.equipment500, new Set<Attribute>());
    const base = sparql`${parents} ?parent ${POINT} ?e .`;
    if (
      !oneLine(serialize(emittedFull)).includes(
        oneLine(serializeFragment(filter(exists(classTest(e, temperature.closure, variable('k')))))),
      )
    ) {
      throw new Error('sparql-builder.ts changed its relation class check: update the anchored class question');
    }
    questions.push({
      title: `points of 500 equipment that are Temperature_Sensor (anchored class filter; closure of ${temperature.closure.length} classes)`,
      shapes: [
        {
          label: '`FILTER EXISTS { ?e a ?k FILTER(?k IN (...)) }`',
          emitted: true,
          queries: [
            select('?parent ?e', sparql`${base} FILTER EXISTS { ${classTest(e, temperature.closure, variable('k'))} }`),
          ],
          answer: column('parent', 'e'),
        },
        {
          label: '`FILTER EXISTS { VALUES ?k { ... } ?e a ?k }`',
          queries: [
            select('?parent ?e', sparql`${base} FILTER EXISTS { ${values('?k', temperature.closure)} ?e a ?k }`),
          ],
          answer: column('parent', 'e'),
        },
        {
          label: '`FILTER EXISTS { ?e a ?k . GRAPH <ontology> { ?k rdfs:subClassOf* brick:Temperature_Sensor } }`',
          queries: [
            select(
              '?parent ?e',
              sparql`${base} FILTER EXISTS { ?e a ?k . GRAPH ${O} { ?k rdfs:subClassOf* ${iri(temperature.iri)} } }`,
            ),
          ],
          answer: column('parent', 'e'),
        },
        {
          label: '`?e a ?k . GRAPH <ontology> { ?k rdfs:subClassOf* ... }` joined (no EXISTS)',
          queries: [
            select('?parent ?e', sparql`${base} ?e a ?k . GRAPH ${O} { ?k rdfs:subClassOf* ${iri(temperature.iri)} }`),
          ],
          answer: column('parent', 'e'),
        },
        {
          label: 'full emitted query `points(is: "Temperature_Sensor")` (types, labels)',
          emitted: true,
          full: true,
          queries: [serialize(emittedFull)],
          answer: keptEntities(ontology, 'Point', true),
        },
      ],
    });
  }

  // --- Chains --------------------------------------------------------------------------------------
  const upstream = relations['Equipment.upstream'];
  if (!isTraversal(upstream)) throw new Error('Equipment.upstream is not a traversal');
  const emittedTraversal = traversalQuery(BENCH_GRAPH, upstream, [a.vav], new Set<Attribute>());
  const isEquipment = sparql`?e a ?k . GRAPH ${O} { ?k rdfs:subClassOf* brick:Equipment }`;
  const vavName = a.vav.slice(PORTFOLIO_NAMESPACE.length);
  questions.push({
    title: `upstream of one VAV (${vavName}, with reheat: both plants)`,
    shapes: [
      {
        label: '`?e (brick:feeds|rec:feeds|^brick:isFedBy|^rec:isFedBy)+ <vav>` alone',
        queries: [select('?e', sparql`?e ${FEEDS}+ ${vav} .`)],
        answer: column('e'),
      },
      {
        label: '`?e (brick:feeds|^brick:isFedBy)+ <vav>` alone',
        queries: [select('?e', sparql`?e (brick:feeds|^brick:isFedBy)+ ${vav} .`)],
        answer: column('e'),
      },
      {
        label: 'the path and a class test (`subClassOf* brick:Equipment` in the ontology graph) in one group',
        queries: [select('DISTINCT ?e', sparql`?e ${FEEDS}+ ${vav} . ${isEquipment}`)],
        answer: column('e'),
      },
      {
        label: 'the path and a class test (`VALUES ?k` over the Equipment classes) in one group',
        queries: [select('DISTINCT ?e', sparql`${values('?k', equipmentClasses)} ?e ${FEEDS}+ ${vav} . ?e a ?k .`)],
        answer: column('e'),
      },
      {
        label: 'the path in a `DISTINCT` subquery, then the class test',
        queries: [select('DISTINCT ?e', sparql`{ SELECT DISTINCT ?e WHERE { ?e ${FEEDS}+ ${vav} . } } ${isEquipment}`)],
        answer: column('e'),
      },
      {
        label: 'emitted `upstream`: start, edges reachable by `*`, facts of every node (BFS in JS)',
        emitted: true,
        queries: [serialize(emittedTraversal)],
        answer: traversalAnswer(ontology, 'upstream'),
      },
    ],
  });

  const ahuTest = (k: string) => sparql`?e a ${trusted(k)} FILTER(${trusted(k)} IN (${inList(ahu.closure)}))`;
  questions.push({
    title: `upstream AHUs of one VAV (${vavName}; \`upstream(is: "AHU")\`)`,
    shapes: [
      {
        label: 'the path and `?e a ?k FILTER(?k IN (...))` in one group',
        queries: [select('DISTINCT ?e', sparql`?e ${FEEDS}+ ${vav} . ${ahuTest('?k')}`)],
        answer: column('e'),
      },
      {
        label: '`VALUES ?k { ... }` first, then the path and `?e a ?k` in one group',
        queries: [select('DISTINCT ?e', sparql`${values('?k', ahu.closure)} ?e ${FEEDS}+ ${vav} . ?e a ?k .`)],
        answer: column('e'),
      },
      {
        label: 'the path and `?e a ?k . GRAPH <ontology> { ?k rdfs:subClassOf* brick:AHU }` in one group',
        queries: [
          select(
            'DISTINCT ?e',
            sparql`?e ${FEEDS}+ ${vav} . ?e a ?k . GRAPH ${O} { ?k rdfs:subClassOf* ${iri(ahu.iri)} }`,
          ),
        ],
        answer: column('e'),
      },
      {
        label: 'the path in a `DISTINCT` subquery, then `FILTER(?k IN (...))`',
        queries: [
          select('DISTINCT ?e', sparql`{ SELECT DISTINCT ?e WHERE { ?e ${FEEDS}+ ${vav} . } } ${ahuTest('?k')}`),
        ],
        answer: column('e'),
      },
      {
        label: 'emitted `upstream(is: "AHU")`: the same query as above, class tested in JS',
        emitted: true,
        queries: [serialize(emittedTraversal)],
        answer: traversalAnswer(ontology, 'upstream', ahu.closure),
      },
    ],
  });

  // --- Relation batching ---------------------------------------------------------------------------
  // unit, not timeseriesId: the emitted timeseriesId fact is measured on its own below (it is pathological).
  const pointAttributes = new Set<Attribute>(['labels', 'unit']);
  const batched = serialize(
    relationQuery(BENCH_GRAPH, 'Equipment.points', { recursive: false }, a.equipment500, pointAttributes),
  );
  questions.push({
    title: 'points of 500 equipment, with unit (relation batching)',
    shapes: [
      {
        label: 'one query, `VALUES ?parent { 500 IRIs }`',
        emitted: true,
        full: true,
        queries: [batched],
        answer: keptEntities(ontology, 'Point', true),
      },
      {
        label: '500 single queries, one parent each (the N+1 shape, in-process)',
        full: true,
        queries: a.equipment500.map((p) =>
          serialize(relationQuery(BENCH_GRAPH, 'Equipment.points', { recursive: false }, [p], pointAttributes)),
        ),
        answer: keptEntities(ontology, 'Point', true),
      },
    ],
  });

  // --- Facts ---------------------------------------------------------------------------------------
  questions.push({
    title: 'facts (types, labels, unit) of the points of 500 equipment',
    shapes: factShapes(batched, sparql`${parents} ?parent ${POINT} ?e .`, '?parent ?e', pointAttributes),
  });
  {
    const attributes = new Set<Attribute>(['labels', 'ifc']);
    const plan = rootPlan('Equipment', [{ type: 'class', classes: hvac }], ontology, ['labels', 'ifc']);
    const emitted = serialize(must(rootQuery(plan, attributes)));
    questions.push({
      title: 'facts (types, labels, ifcId) of all HVAC_Equipment',
      shapes: factShapes(emitted, classGenerator(e, hvac.closure, variable('c1_k')), '?e', attributes),
    });
  }

  // --- The timeseriesId fact ----------------------------------------------------------------------
  {
    const tsAttributes = new Set<Attribute>(['timeseries']);
    const forms: ReadonlyArray<{ label: string; text: string; slow?: boolean }> = [
      {
        label:
          'one path: `OPTIONAL { ?e ((ref:hasExternalReference|ref:hasTimeseriesReference)/ref:hasTimeseriesId)|(brick:timeseries/brick:hasTimeseriesId) ?ts }`',
        text: 'OPTIONAL { ?e ((ref:hasExternalReference|ref:hasTimeseriesReference)/ref:hasTimeseriesId)|(brick:timeseries/brick:hasTimeseriesId) ?ts }',
      },
      {
        label:
          'a `UNION` inside the `OPTIONAL`: `OPTIONAL { { ?e (ref:hasExternalReference|ref:hasTimeseriesReference) ?ts_r . ?ts_r ref:hasTimeseriesId ?ts } UNION { ?e brick:timeseries ?ts_r . ... } }`',
        text: 'OPTIONAL { { ?e (ref:hasExternalReference|ref:hasTimeseriesReference) ?ts_r . ?ts_r ref:hasTimeseriesId ?ts } UNION { ?e brick:timeseries ?ts_r . ?ts_r brick:hasTimeseriesId ?ts } }',
        slow: true,
      },
      {
        label: 'three `OPTIONAL`s, one fixed predicate each (`?ts`, `?ts2`, `?ts3`)',
        text:
          'OPTIONAL { ?e ref:hasExternalReference ?ts_r . ?ts_r ref:hasTimeseriesId ?ts } ' +
          'OPTIONAL { ?e ref:hasTimeseriesReference ?ts_r2 . ?ts_r2 ref:hasTimeseriesId ?ts2 } ' +
          'OPTIONAL { ?e brick:timeseries ?ts_r3 . ?ts_r3 brick:hasTimeseriesId ?ts3 }',
      },
    ];
    const alternatives = (text: string, withSlow: boolean): Shape[] => {
      const current = forms.find((f) => text.includes(f.text));
      if (!current)
        throw new Error('sparql-builder.ts emits a timeseries fact this script does not know: add it to `forms`');
      const variant = (label: string, replacement: string, extra: Partial<Shape> = {}): Shape => ({
        label,
        full: true,
        queries: [text.replace(current.text, replacement).replace(FACT_VARIABLES, `${FACT_VARIABLES} ?ts2 ?ts3`)],
        answer: timeseriesPairs,
        ...extra,
      });
      return [
        ...forms
          .filter((f) => f === current || withSlow || !f.slow)
          .map((f) => variant(f.label, f.text, f === current ? { emitted: true } : {})),
        variant('no timeseries fact (baseline)', '', { baseline: true }),
      ];
    };
    const five = [0, 100, 200, 300, 400].map((i) => a.equipment500[i]!);
    questions.push({
      title: 'timeseriesId of the points of 5 equipment',
      shapes: alternatives(
        serialize(relationQuery(BENCH_GRAPH, 'Equipment.points', { recursive: false }, five, tsAttributes)),
        true,
      ),
    });
    questions.push({
      title: 'timeseriesId of the points of 500 equipment (without the `UNION` form: too slow at this size)',
      shapes: alternatives(
        serialize(relationQuery(BENCH_GRAPH, 'Equipment.points', { recursive: false }, a.equipment500, tsAttributes)),
        false,
      ),
    });
  }

  // --- The kind generator's fallback ---------------------------------------------------------------
  // sparql-builder.ts `fallbackGenerator`: entities typed with no class of any kind. Each form tests
  // a bound `?e`; the one the builder emits is found in its query text.
  const untypedForms: ReadonlyArray<{ label: string; text: string }> = [
    {
      label: '`OPTIONAL { ?e a ?fk . GRAPH <urn:bkg:ontology> { ?fk bkg:kind ?fkk } } FILTER(!BOUND(?fkk))`',
      text: `OPTIONAL { ?e a ?fk . GRAPH ${O.text} { ?fk bkg:kind ?fkk } } FILTER(!BOUND(?fkk))`,
    },
    {
      label: '`FILTER NOT EXISTS { ?e a ?fk . GRAPH <urn:bkg:ontology> { ?fk bkg:kind ?fkk } }`',
      text: `FILTER NOT EXISTS { ?e a ?fk . GRAPH ${O.text} { ?fk bkg:kind ?fkk } }`,
    },
    {
      label: '`MINUS { ?e a ?fk . GRAPH <urn:bkg:ontology> { ?fk bkg:kind ?fkk } }`',
      text: `MINUS { ?e a ?fk . GRAPH ${O.text} { ?fk bkg:kind ?fkk } }`,
    },
  ];
  const emittedUntyped = (text: string) => {
    const form = untypedForms.find((f) => text.includes(f.text));
    if (!form)
      throw new Error(
        'sparql-builder.ts emits an untyped fallback this script does not know: add it to `untypedForms`',
      );
    return form;
  };
  {
    const emittedAll = serialize(must(rootQuery(rootPlan('Equipment', [], ontology), new Set())));
    const current = emittedUntyped(emittedAll);
    const withPoints = sparql`?e ${POINT} ?fb .`;
    const allKindClasses = [
      ...new Set(
        (['Building', 'Location', 'Zone', 'Equipment', 'Point', 'System'] as const).flatMap((k) => [
          ...ontology.kindClasses(k),
        ]),
      ),
    ].sort();
    questions.push({
      title: `untyped equipment: things with points typed with no class of any kind (the fallback branch of every Equipment kind generator; ${allKindClasses.length} kind classes)`,
      shapes: [
        ...untypedForms.map((f) => ({
          label: `\`?e POINT ?fb .\` then ${f.label}`,
          ...(f === current ? { emitted: true } : {}),
          queries: [select('DISTINCT ?e', sparql`${withPoints} ${trusted(f.text)}`)],
          answer: column('e'),
        })),
        {
          label: '`?e POINT ?fb .` then `MINUS { VALUES ?fk { every kind class } ?e a ?fk }`',
          queries: [select('DISTINCT ?e', sparql`${withPoints} MINUS { ${values('?fk', allKindClasses)} ?e a ?fk }`)],
          answer: column('e'),
        },
        {
          label: '`?e POINT ?fb .` then `FILTER NOT EXISTS { ?e a ?fk FILTER(?fk IN (every kind class)) }`',
          queries: [
            select(
              'DISTINCT ?e',
              sparql`${withPoints} FILTER NOT EXISTS { ?e a ?fk FILTER(?fk IN (${inList(allKindClasses)})) }`,
            ),
          ],
          answer: column('e'),
        },
      ],
    });
  }

  // --- System.points: members that are not sub-systems ----------------------------------------------
  {
    const code = a.building.slice(PORTFOLIO_NAMESPACE.length).replace(/-Building$/, '');
    const systems = ['AIR-SYS-1', 'CHW-SYS', 'HVAC-SYS'].map((local) => `${PORTFOLIO_NAMESPACE}${code}-${local}`);
    const emitted = serialize(relationQuery(BENCH_GRAPH, 'System.points', { recursive: false }, systems, new Set()));
    // relations.ts `notOfKind(w, 'System')`, and the same test as OPTIONAL/!BOUND and as MINUS.
    const forms = [
      {
        label: '`FILTER NOT EXISTS { ?rel_w a ?kind_c . GRAPH <urn:bkg:ontology> { ?kind_c bkg:kind bkg:System } }`',
        text: `FILTER NOT EXISTS { ?rel_w a ?kind_c . GRAPH ${O.text} { ?kind_c bkg:kind bkg:System } }`,
      },
      {
        label:
          '`OPTIONAL { ?rel_w a ?kind_c . GRAPH <urn:bkg:ontology> { ?kind_c bkg:kind bkg:System } } FILTER(!BOUND(?kind_c))`',
        text: `OPTIONAL { ?rel_w a ?kind_c . GRAPH ${O.text} { ?kind_c bkg:kind bkg:System } } FILTER(!BOUND(?kind_c))`,
      },
      {
        label: '`MINUS { ?rel_w a ?kind_c . GRAPH <urn:bkg:ontology> { ?kind_c bkg:kind bkg:System } }`',
        text: `MINUS { ?rel_w a ?kind_c . GRAPH ${O.text} { ?kind_c bkg:kind bkg:System } }`,
      },
    ];
    const current = forms.find((f) => emitted.includes(f.text));
    if (!current)
      throw new Error('relations.ts emits a System.points member test this script does not know: add it to `forms`');
    questions.push({
      title: `points of 3 systems (${code} AIR-SYS-1, CHW-SYS, HVAC-SYS; \`System.points\` without recursive: members that are no sub-system)`,
      shapes: forms.map((f) => ({
        label: `full relation query, members tested with ${f.label}`,
        full: true,
        ...(f === current ? { emitted: true } : {}),
        queries: [emitted.replace(current.text, f.text)],
        answer: keptEntities(ontology, 'Point', true),
      })),
    });
  }

  // --- Names ---------------------------------------------------------------------------------------
  const needle = 'vav-2-0';
  const name = { value: needle, match: 'CONTAINS' as const };
  const labelUnion = trusted('{ ?e rdfs:label ?g } UNION { ?e skos:prefLabel ?g } UNION { ?e brick:label ?g }');
  questions.push({
    title: `name CONTAINS "${needle}" over all entities`,
    shapes: [
      {
        label:
          'the name as the service defines it (`nameFilter`: rdfs:label, else skos:prefLabel, else brick:label, else the id) on every typed entity',
        queries: [
          select('?e', sparql`{ SELECT DISTINCT ?e WHERE { ?e a ?any } } ${nameFilter(e, name, variable('name'))}`),
        ],
        answer: column('e'),
      },
      {
        label: '`?e rdfs:label ?l FILTER(CONTAINS(LCASE(?l), "vav-2-0"))` (rdfs:label only)',
        narrower: true,
        queries: [select('DISTINCT ?e', sparql`?e rdfs:label ?l FILTER(CONTAINS(LCASE(?l), "${trusted(needle)}"))`)],
        answer: column('e'),
      },
      {
        label:
          'any label CONTAINS as a prefilter (`UNION` of the three), then `nameFilter` (misses entities named by their id)',
        narrower: true,
        queries: [
          select(
            'DISTINCT ?e',
            sparql`${labelUnion} FILTER(CONTAINS(LCASE(STR(?g)), "${trusted(needle)}")) ${nameFilter(e, name, variable('name'))}`,
          ),
        ],
        answer: column('e'),
      },
    ],
  });
  {
    const plan = rootPlan('Equipment', [{ type: 'name', name }], ontology);
    const emittedFull = serialize(must(rootQuery(plan, new Set())));
    const currentUntyped = emittedUntyped(emittedFull);
    const minus = untypedForms.find((f) => f.text.startsWith('MINUS'))!;
    const kindTest = sparql`FILTER EXISTS { ${values('?k', equipmentClasses)} ?e a ?k }`;
    questions.push({
      title: `equipment whose name CONTAINS "${needle}" (\`equipment(name: ...)\`)`,
      shapes: [
        {
          label:
            'full emitted query: kind generator (`VALUES` over every Equipment class, plus the untyped fallback), then `nameFilter`',
          emitted: true,
          full: true,
          queries: [emittedFull],
          answer: keptEntities(ontology, 'Equipment', false),
        },
        ...(currentUntyped === minus
          ? []
          : [
              {
                label: 'the same query with the fallback written as `MINUS` (nothing else changed)',
                full: true,
                queries: [emittedFull.replace(currentUntyped.text, minus.text)],
                answer: keptEntities(ontology, 'Equipment', false),
              },
            ]),
        {
          label:
            'label prefilter first (`UNION` of the three labels, `CONTAINS`), then `nameFilter`, then the kind as `FILTER EXISTS { VALUES ?k ... }`, same facts (no untyped fallback)',
          full: true,
          narrower: true,
          queries: [
            fullQuery(
              sparql`{ SELECT DISTINCT ?e WHERE { ${labelUnion} FILTER(CONTAINS(LCASE(STR(?g)), "${trusted(needle)}")) } } ${nameFilter(e, name, variable('name'))} ${kindTest}`,
              '?e ?tag',
              new Set(),
            ),
          ],
          answer: keptEntities(ontology, 'Equipment', false),
        },
        {
          label:
            '`?e rdfs:label ?l FILTER(CONTAINS(...))` first, then `nameFilter` and the kind as `FILTER EXISTS { ?e a ?k FILTER(?k IN (...)) }`, same facts (no untyped fallback; misses names from skos:prefLabel, brick:label or the id)',
          full: true,
          narrower: true,
          queries: [
            fullQuery(
              sparql`?e rdfs:label ?g FILTER(CONTAINS(LCASE(STR(?g)), "${trusted(needle)}")) ${nameFilter(e, name, variable('name'))} FILTER EXISTS { ${classTest(e, equipmentClasses, variable('k'))} }`,
              '?e ?tag',
              new Set(),
            ),
          ],
          answer: keptEntities(ontology, 'Equipment', false),
        },
      ],
    });
  }
  return questions;
}

// ---------------------------------------------------------------------------------------------------
// Running

function median(xs: readonly number[]): number {
  const s = [...xs].sort((p, q) => p - q);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Runs every shape of a question once to warm up (the run whose answer is checked), then `runs`
 * rounds over the shapes in turn, so that load from other processes spreads over all shapes alike.
 * A shape whose warm-up takes longer than `budgetMs` is not repeated: its one time is reported, marked.
 */
function runQuestion(
  store: RawStore,
  question: Question,
  runs: number,
  budgetMs: number,
  log: (message: string) => void,
): Measured[] {
  const warm = question.shapes.map((shape) => {
    const started = performance.now();
    const texts = shape.queries.map((q) => store.queryText(q));
    const warmMs = performance.now() - started;
    const rows: SparqlRow[] = [];
    for (const text of texts) for (const row of parseSelectResults(text)) rows.push(row);
    log(`  warm-up ${ms(warmMs).padStart(8)} ms  ${shape.label}`);
    return { shape, warmMs, rows: rows.length, answer: new Set(shape.answer(rows)) };
  });
  const times: number[][] = warm.map(() => []);
  for (let r = 0; r < runs; r++) {
    warm.forEach((w, i) => {
      if (w.warmMs > budgetMs) return;
      const started = performance.now();
      for (const q of w.shape.queries) store.queryText(q);
      times[i]!.push(performance.now() - started);
    });
  }
  const reference = warm.find((w) => !w.shape.baseline)?.answer;
  return warm.map((w, i) => {
    const same =
      w.shape.baseline === true ||
      reference === undefined ||
      (reference.size === w.answer.size && [...reference].every((x) => w.answer.has(x)));
    const timesMs = times[i]!;
    return {
      shape: w.shape,
      medianMs: timesMs.length > 0 ? median(timesMs) : w.warmMs,
      timesMs,
      rows: w.rows,
      same,
      answerSize: w.answer.size,
    };
  });
}

const ms = (x: number): string => (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0));

/** A query for the appendix: prologue dropped, long IRI lists elided. */
function elide(query: string): string {
  const shorten = (items: string[], open: string, close: string, sep: string) =>
    items.length <= 4
      ? `${open}${items.join(sep)}${close}`
      : `${open}${items.slice(0, 2).join(sep)}${sep}… (${items.length} IRIs)${close}`;
  return query
    .split('\n')
    .filter((line) => !line.startsWith('PREFIX '))
    .join('\n')
    .replace(
      /VALUES (\?\w+) \{ ([^}]*) \}/g,
      (_, v: string, body: string) => `VALUES ${v} ${shorten(body.trim().split(/\s+/), '{ ', ' }', ' ')}`,
    )
    .replace(/ IN \(([^()]*)\)/g, (_, body: string) => ` IN ${shorten(body.split(', '), '(', ')', ', ')}`);
}

export interface MeasureReport {
  markdown: string;
  results: Array<{ question: Question; measured: Measured[] }>;
}

function render(
  results: Array<{ question: Question; measured: Measured[] }>,
  meta: {
    sizeLabel: string;
    file: string;
    triples: number;
    ontologyTriples: number;
    loadMs: number;
    rssMiB: number;
    runs: number;
    budgetMs: number;
    loadStart: string;
    loadEnd: string;
  },
): string {
  const lines: string[] = [];
  lines.push(`# Oxigraph query shapes on a ${meta.sizeLabel}-triple portfolio site`);
  lines.push('');
  lines.push(
    `Generated by \`npm run measure:shapes\` (scripts/measure-shapes.ts) on ${new Date().toISOString().slice(0, 10)}: ` +
      `${basename(meta.file)}, ${groupDigits(meta.triples)} triples in \`${BENCH_GRAPH}\`, ontology graph ${groupDigits(meta.ontologyTriples)} triples ` +
      `(brick-hierarchy.ttl + kind marks); load ${(meta.loadMs / 1000).toFixed(1)} s, RSS ${meta.rssMiB} MiB after load. ` +
      `Raw in-process \`oxigraph\` ${oxigraphVersion()}, Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}. ` +
      `Median of ${meta.runs} runs after one warm-up, results serialized as SPARQL JSON. ` +
      `**(emitted)** marks what src/compiler sends today; shapes named "full" (and the fact shapes) fetch the entities' facts as the service does, ` +
      `the others only the candidates; "rows" is the number of result rows (all queries of the shape); ` +
      `≠ marks an answer that differs from the question's first shape, *(narrower)* a shape that answers a narrower question than the service's own ` +
      `and only happens to agree on this data (neither competes for fastest); ` +
      `† marks a shape run once because its warm-up exceeded ${groupDigits(meta.budgetMs / 1000)} s. ` +
      `Load average (1 min) at start ${meta.loadStart}, at end ${meta.loadEnd} on this shared machine: absolute times are noisy, compare within a question.`,
  );
  lines.push('');
  lines.push('| question | shape | median ms | rows |');
  lines.push('|---|---|---:|---:|');
  for (const { question, measured } of results) {
    measured.forEach((m, i) => {
      const label = `${m.shape.label}${m.shape.emitted ? ' **(emitted)**' : ''}${m.shape.narrower ? ' *(narrower)*' : ''}`;
      const reference = measured.find((x) => !x.shape.baseline)!;
      const rows = `${groupDigits(m.rows)}${m.same ? '' : ` ≠ (answer ${groupDigits(m.answerSize)} vs ${groupDigits(reference.answerSize)})`}`;
      const time = m.timesMs.length === 0 ? `${ms(m.medianMs)} †` : ms(m.medianMs);
      lines.push(`| ${i === 0 ? question.title : ''} | ${label.replace(/\|/g, '\\|')} | ${time} | ${rows} |`);
    });
  }
  lines.push('');
  lines.push('## Emitted shape against the fastest alternative');
  lines.push('');
  for (const { question, measured } of results) {
    const emitted = measured.filter((m) => m.shape.emitted);
    // Only shapes with the same answer compete.
    for (const m of emitted) {
      const peers = measured.filter(
        (x) => !x.shape.baseline && !x.shape.narrower && x.same && !!x.shape.full === !!m.shape.full,
      );
      const best = [...peers].sort((p, q) => p.medianMs - q.medianMs)[0]!;
      const ratio = m.medianMs / best.medianMs;
      const verdict =
        peers.length === 1
          ? 'no alternative of the same kind (full or candidates only) here'
          : m === best
            ? 'fastest'
            : `${ratio.toFixed(1)}× the fastest (${best.shape.label}, ${ms(best.medianMs)} ms)`;
      lines.push(
        `- ${question.title} — ${m.shape.label}: ${ms(m.medianMs)} ms, ${verdict}${ratio > 1.3 ? ' **> 1.3×**' : ''}`,
      );
    }
  }
  lines.push('');
  lines.push('## Queries');
  lines.push('');
  lines.push(
    'Prologue (`PREFIX brick: rec: ref: rdf: rdfs: owl: skos: bkg:`) left out; long IRI lists elided; N+1 shows its first query.',
  );
  for (const { question, measured } of results) {
    lines.push('');
    lines.push(`### ${question.title}`);
    for (const m of measured) {
      lines.push('');
      lines.push(
        `${m.shape.label}${m.shape.emitted ? ' **(emitted)**' : ''}${m.shape.queries.length > 1 ? ` (${m.shape.queries.length} queries)` : ''}:`,
      );
      lines.push('```sparql');
      lines.push(elide(m.shape.queries[0]!).trim());
      lines.push('```');
    }
  }
  return `${lines.join('\n')}\n`;
}

function oxigraphVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(resolve(REPO_ROOT, 'node_modules', 'oxigraph', 'package.json'), 'utf8')) as {
      version: string;
    };
    return pkg.version;
  } catch {
    return '?';
  }
}

/** The table alone (question | shape | median ms | rows), for the terminal. */
function tableOnly(markdown: string): string {
  const start = markdown.indexOf('| question |');
  const end = markdown.indexOf('\n\n', start);
  return markdown.slice(start, end);
}

async function main(argv: string[]): Promise<number> {
  const { values: opts } = parseArgs({
    args: argv,
    options: {
      triples: { type: 'string' },
      file: { type: 'string' },
      runs: { type: 'string' },
      out: { type: 'string' },
      regenerate: { type: 'boolean' },
      only: { type: 'string' },
      'budget-ms': { type: 'string' },
    },
    strict: true,
  });
  const log = (msg: string): void => console.error(`[measure-shapes] ${msg}`);
  const runs = opts.runs === undefined ? 7 : parseCount(opts.runs);
  const budgetMs = opts['budget-ms'] === undefined ? 30_000 : parseCount(opts['budget-ms']);
  if (runs < 7) log(`note: ${runs} runs (the committed tables use at least 7)`);

  let file: string;
  let sizeLabel: string;
  if (opts.file) {
    file = resolve(opts.file);
    sizeLabel = basename(file, '.ttl').replace(/^portfolio-/, '');
  } else {
    const target = parseCount(opts.triples ?? '1M');
    sizeLabel = formatCount(target);
    file = defaultPortfolioPath(sizeLabel);
    if (opts.regenerate || !existsSync(file)) {
      log(`generating ${file}`);
      const result = writePortfolioFile(file, { targetTriples: target }, log);
      log(formatStats(result.stats));
    } else {
      log(`reusing ${file} (--regenerate to write it again)`);
    }
  }

  const loadStart = loadavg()[0]!.toFixed(1);
  const ontology = await Ontology.load(ONTOLOGY_PATH);
  const store = new RawStore(new oxigraph.Store());
  const ontologyTriples = await loadOntologyGraph(store, ontology, ONTOLOGY_PATH);
  log(`ontology graph: ${groupDigits(ontologyTriples)} triples`);
  const started = performance.now();
  const { triples } = await store.replaceGraph(BENCH_GRAPH, readFileSync(file), 'text/turtle');
  const loadMs = performance.now() - started;
  const rssMiB = Math.round(process.memoryUsage().rss / 2 ** 20);
  log(
    `loaded ${groupDigits(triples)} triples in ${(loadMs / 1000).toFixed(1)} s (${groupDigits(triples / (loadMs / 1000))} triples/s), RSS ${rssMiB} MiB`,
  );

  const anchors = await findAnchors(store);
  log(`${anchors.buildings} buildings; anchors: ${anchors.building}, ${anchors.vav}, 500 equipment`);
  const questions = buildQuestions(ontology, anchors).filter((q) => !opts.only || q.title.includes(opts.only));
  const results: Array<{ question: Question; measured: Measured[] }> = [];
  for (const question of questions) {
    log(question.title);
    const measured = runQuestion(store, question, runs, budgetMs, log);
    for (const m of measured) {
      const once = m.timesMs.length === 0 ? ' (single run)' : '';
      log(
        `  ${ms(m.medianMs).padStart(8)} ms${once}  ${String(m.rows).padStart(7)} rows${m.same ? '' : '  ANSWER DIFFERS'}  ${m.shape.label}`,
      );
    }
    results.push({ question, measured });
  }

  const markdown = render(results, {
    sizeLabel,
    file,
    triples,
    ontologyTriples,
    loadMs,
    rssMiB,
    runs,
    budgetMs,
    loadStart,
    loadEnd: loadavg()[0]!.toFixed(1),
  });
  const out = opts.out ? resolve(opts.out) : resolve(REPO_ROOT, 'bench', `shapes-${sizeLabel}.md`);
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, markdown);
  console.log(tableOnly(markdown));
  log(`wrote ${out}`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      console.error(error);
      process.exitCode = 1;
    },
  );
}
