/**
 * Competing SPARQL shapes for some queries of the suite: the same answer asked another way
 * (bench/shapes-*.md measures many more on the raw store). Each replaces one of the service's
 * queries, so the whole query's time with that shape in place can be set beside the planner's.
 * Shapes anchored on an IRI use it directly where the service resolves an id, which shows what
 * resolving ids costs.
 */
import { readEntityRows } from '../../src/query/entity-records.ts';
import type { Attribute, EntityKind } from '../../src/compiler/plan.ts';
import { locationPaths } from '../../src/compiler/relations.ts';
import { kindsOf } from '../../src/query/shape-entity.ts';
import type { SiteProfile } from '../../src/compiler/site-profile.ts';
import { pathsOf, selectEntities } from '../../src/compiler/sparql-builder.ts';
import { classGenerator, nameFilter } from '../../src/compiler/sparql-patterns.ts';
import type { Ontology } from '../../src/ontology/ontology.ts';
import { iri, join, shapePatterns, sparql, type Sparql } from '../lib/shape-text.ts';
import { variable, type SelectQuery } from '../../src/rdf/sparql-algebra.ts';
import { BRICK, ONTOLOGY_GRAPH, siteGraph } from '../../src/rdf/vocabulary.ts';
import type { SparqlRow } from '../../src/store/graph-store.ts';
import { traversalAnswer } from '../lib/traversal-answer.ts';
import { portfolioIri } from './anchors.ts';
import { BENCH_SITE } from './gateway.ts';

export interface CompetingShape {
  readonly label: string;
  /** Index of the service's SPARQL query (in the order sent) this shape replaces. */
  readonly replaces: number;
  readonly query: SelectQuery;
  /** Answers a narrower question than the API's, which agrees on this data: shown, never the fastest. */
  readonly narrower?: boolean;
  /** The answer as comparable items, from this shape's rows. */
  readonly answer: (rows: readonly SparqlRow[]) => string[];
  /** The same items from the rows of the service's query it replaces. */
  readonly emittedAnswer: (rows: readonly SparqlRow[]) => string[];
}

const O = iri(ONTOLOGY_GRAPH);
const e = variable('e');

/** IRIs of the entities of `kind` the service would keep from an entity query's rows. */
const entitiesOf = (ontology: Ontology, kind: EntityKind) => (rows: readonly SparqlRow[]) =>
  [...readEntityRows(rows).records.values()].filter((r) => kindsOf(r, ontology).has(kind)).map((r) => r.iri);

/** The competing shapes of a suite query (none for most), fetching the facts as the service does with the site's profile. */
export function competingShapes(
  ontology: Ontology,
  queryId: string,
  profile: SiteProfile | undefined,
): CompetingShape[] {
  const graph = siteGraph(BENCH_SITE);
  const closure = (local: string) => ontology.sortedClosure(BRICK + local).map(iri);
  const kindClasses = (kind: EntityKind) => ontology.sortedKindClasses(kind);
  const paths = pathsOf(profile);
  const entityQuery = (candidates: Sparql, attributes: Attribute[] = []) =>
    selectEntities(graph, shapePatterns(candidates), [variable('e'), variable('tag')], new Set(attributes), profile);
  const shape = (
    label: string,
    kind: EntityKind,
    candidates: Sparql,
    extra: Partial<CompetingShape> = {},
  ): CompetingShape => ({
    label,
    replaces: 0,
    query: entityQuery(candidates),
    answer: entitiesOf(ontology, kind),
    emittedAnswer: entitiesOf(ontology, kind),
    ...extra,
  });

  // rdfs:subClassOf* leaves out the equivalent and replaced class names the ontology's closure
  // adds (src/ontology/class-graph.ts): it answers a narrower question, whatever this site holds.
  const subclassesOnly = { narrower: true } as const;
  switch (queryId) {
    case 'hvac-in-building': {
      const inBuilding = sparql`VALUES ?a { ${iri(portfolioIri('B01-Building'))} } ?a ${locationPaths.equipment(true, paths)} ?e .`;
      return [
        shape(
          'building IRI, then `?e a ?k . GRAPH <ontology> { ?k rdfs:subClassOf* brick:HVAC_Equipment }`',
          'Equipment',
          sparql`${inBuilding} ?e a ?k . GRAPH ${O} { ?k rdfs:subClassOf* brick:HVAC_Equipment }`,
          subclassesOnly,
        ),
        shape(
          'building IRI, then `FILTER EXISTS { VALUES ?k { closure } ?e a ?k }`',
          'Equipment',
          sparql`${inBuilding} FILTER EXISTS { VALUES ?k { ${closure('HVAC_Equipment')} } ?e a ?k }`,
        ),
        shape(
          'closure first (`VALUES ?k`), then the path to the building IRI',
          'Equipment',
          sparql`VALUES ?k { ${closure('HVAC_Equipment')} } ?e a ?k . ${inBuilding}`,
        ),
      ];
    }
    case 'chillers':
      return [
        shape(
          '`?e a ?t . GRAPH <ontology> { ?t rdfs:subClassOf* brick:Chiller }`',
          'Equipment',
          sparql`?e a ?t . GRAPH ${O} { ?t rdfs:subClassOf* brick:Chiller }`,
          subclassesOnly,
        ),
        shape(
          '`?e a ?t FILTER(?t IN (closure))`',
          'Equipment',
          sparql`?e a ?t FILTER(?t IN (${join(closure('Chiller'), ', ')}))`,
        ),
      ];
    case 'upstream':
      return [
        shape(
          'one property path `?e (feeds|^isFedBy)+ <vav>` with the facts (no hop counts)',
          'Equipment',
          sparql`VALUES ?v { ${iri(portfolioIri('B01-VAV-2-01'))} } ?e ${paths.feeds}+ ?v .`,
          {
            replaces: 1,
            emittedAnswer: traversalAnswer(ontology, 'upstream'),
          },
        ),
      ];
    case 'name-contains': {
      const name = nameFilter(e, { value: 'VAV-2-0', match: 'CONTAINS' }, variable('n'));
      const untypedScan = sparql`?e ${paths.point} ?fb . OPTIONAL { ?e a ?fk . GRAPH ${O} { ?fk bkg:kind ?fkk } } FILTER(!BOUND(?fkk))`;
      const typed = classGenerator(e, kindClasses('Equipment'), variable('k'));
      return [
        shape(
          'kind classes, with the untyped fallback as a scan of every hasPoint edge',
          'Equipment',
          sparql`{ ${typed} } UNION { ${untypedScan} } ${name}`,
        ),
        shape(
          'label `CONTAINS` prefilter over every label, then the name and the kind',
          'Equipment',
          sparql`{ SELECT DISTINCT ?e WHERE { { ?e rdfs:label ?g } UNION { ?e skos:prefLabel ?g } UNION { ?e brick:label ?g } FILTER(CONTAINS(LCASE(STR(?g)), "vav-2-0")) } } ${name} FILTER EXISTS { ${typed} }`,
          {
            narrower: true,
          },
        ),
      ];
    }
    case 'points-of-class': {
      const ofAhu = sparql`VALUES ?a { ${iri(portfolioIri('B01-AHU-1'))} } ?a ${paths.point} ?e .`;
      return [
        shape(
          'AHU IRI, then `FILTER EXISTS { VALUES ?k { closure } ?e a ?k }`',
          'Point',
          sparql`${ofAhu} FILTER EXISTS { VALUES ?k { ${closure('Temperature_Sensor')} } ?e a ?k }`,
        ),
        shape(
          'AHU IRI, then `?e a ?k . GRAPH <ontology> { ?k rdfs:subClassOf* brick:Temperature_Sensor }`',
          'Point',
          sparql`${ofAhu} ?e a ?k . GRAPH ${O} { ?k rdfs:subClassOf* brick:Temperature_Sensor }`,
          subclassesOnly,
        ),
      ];
    }
    default:
      return [];
  }
}
