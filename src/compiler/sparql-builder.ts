/**
 * Plan → SPARQL text. One query per plan node: the root query, and for each relation field one
 * query for all its parents at once (`VALUES ?parent`). Every query has the same two parts: the
 * pattern that picks the candidate entities, anchored so the store starts from known IRIs or a
 * class list, then the facts to build them with, probed on each bound candidate.
 */
import { Sparql, iri, join, literal, prologue, sparql, trusted, variable } from '../rdf/sparql.ts';
import { ONTOLOGY_GRAPH } from '../rdf/vocabulary.ts';
import type { Attribute, Constraint, EntityKind, EntityRef, RelationArgs, RelationName, RootPlan } from './plan.ts';
import { isTraversal, locationPaths, relations, ZONE_POINTS, type TraversalRelation } from './relations.ts';
import {
  FED_BY,
  FEEDS,
  LOCATED,
  PART,
  POINT,
  classGenerator,
  classTest,
  idTest,
  isDirectIri,
  nameFilter,
  propertyPattern,
  propertyTest,
  tagOf,
} from './sparql-patterns.ts';

const e = trusted('?e');
const parent = trusted('?parent');

/**
 * The facts fetched for every candidate: its types and labels, plus what the selection needs.
 * OPTIONALs on the bound `?e` are probes the store runs per candidate; a UNION of the same
 * branches would be evaluated over the whole graph first (measured: 10× slower on 1.5k triples).
 * Multi-valued facts multiply rows, which `readEntityRows` folds back together.
 */
function factPatterns(attributes: ReadonlySet<Attribute>): Sparql[] {
  const facts: Sparql[] = [
    trusted('OPTIONAL { ?e a ?t }'),
    trusted('OPTIONAL { ?e rdfs:label ?l0 }'),
    trusted('OPTIONAL { ?e skos:prefLabel ?l1 }'),
    trusted('OPTIONAL { ?e brick:label ?l2 }'),
  ];
  if (attributes.has('ifc')) facts.push(trusted('OPTIONAL { ?e ref:hasExternalReference ?ifc_r . ?ifc_r ref:ifcGlobalID ?ifc }'));
  if (attributes.has('timeseries')) {
    facts.push(
      // One path, not a UNION inside the OPTIONAL: measured 8 ms against 5 s (bench/shapes-100k.md).
      trusted('OPTIONAL { ?e ((ref:hasExternalReference|ref:hasTimeseriesReference)/ref:hasTimeseriesId)|(brick:timeseries/brick:hasTimeseriesId) ?ts }'),
    );
  }
  if (attributes.has('unit')) facts.push(trusted('OPTIONAL { ?e (brick:hasUnit|brick:hasUnits) ?u }'));
  if (attributes.has('literals')) {
    facts.push(trusted('OPTIONAL { ?e ?litp ?lit FILTER(isLiteral(?lit) && (STRENDS(STR(?litp), "writable") || STRENDS(STR(?litp), "valueType"))) }'));
  }
  if (attributes.has('owner')) facts.push(sparql`OPTIONAL { ?own ${POINT} ?e OPTIONAL { ?own a ?ownt } }`);
  if (attributes.has('output')) facts.push(trusted('OPTIONAL { ?e brick:hasOutputSubstance ?out }'));
  return facts;
}

const FACT_VARIABLES = trusted('?t ?l0 ?l1 ?l2 ?ifc ?ts ?u ?litp ?lit ?own ?ownt ?out');

// One flat group, not a DISTINCT subquery of candidates joined to the facts: Oxigraph cannot
// push the candidates into a subquery's join (measured 5× slower); repeated rows are folded later.
// The tag's BIND comes after the OPTIONALs: Virtuoso drops every row of a group where it precedes them.
function selectEntities(graph: string, candidates: Sparql, projection: Sparql, attributes: ReadonlySet<Attribute>): Sparql {
  return sparql`${prologue}
SELECT ${projection} ${FACT_VARIABLES} WHERE {
  GRAPH ${iri(graph)} {
    ${candidates}
    ${factPatterns(attributes)}
    ${tagOf(e)}
  }
}`;
}

/** A pattern, or its alternatives as a UNION that repeats `anchor` in every branch. */
function anchored(anchor: Sparql, pattern: Sparql | readonly Sparql[]): Sparql {
  if (pattern instanceof Sparql) return sparql`${anchor} ${pattern}`;
  return join(
    pattern.map((branch) => sparql`{ ${anchor} ${branch} }`),
    ' UNION ',
  );
}

const parentValues = (parents: readonly string[]) => sparql`VALUES ?parent { ${parents.map(iri)} }`;

/** One query for a relation field over all its parents (not for traversals). */
export function relationQuery(
  graph: string,
  relation: RelationName,
  args: RelationArgs,
  parents: readonly string[],
  attributes: ReadonlySet<Attribute>,
): Sparql {
  const spec = relations[relation];
  if (isTraversal(spec)) return traversalQuery(graph, spec, parents, attributes);
  const checks: Sparql[] = [];
  if (args.name) checks.push(nameFilter(e, args.name, trusted('?name')));
  if (args.classes) checks.push(sparql`FILTER EXISTS { ${classTest(e, args.classes.closure, trusted('?k'))} }`);
  const candidates = sparql`${anchored(parentValues(parents), spec.pattern(parent, e, args))}
      ${checks}`;
  return selectEntities(graph, candidates, trusted('?parent ?e ?rank ?tag'), attributes);
}

/**
 * A traversal fetches, for every parent, the `feeds` edges reachable from its start nodes, the
 * start nodes, and the facts of every node on the way; the breadth-first walk with `maxDepth`,
 * `medium` and `is` then runs on that small subgraph (`traverse.ts`). Cycles cost nothing.
 */
export function traversalQuery(
  graph: string,
  spec: TraversalRelation,
  parents: readonly string[],
  attributes: ReadonlySet<Attribute>,
): Sparql {
  const start = trusted('?start');
  const reach = spec.direction === 'downstream' ? FEEDS : FED_BY;
  const edge =
    spec.direction === 'downstream'
      ? sparql`${start} ${reach}* ?x . ?x ${FEEDS} ?y .`
      : sparql`${start} ${reach}* ?y . ?x ${FEEDS} ?y .`;
  const withOutput = new Set([...attributes, 'output' as const]);
  return sparql`${prologue}
SELECT ?parent ?start ?x ?y ?e ?tag ${FACT_VARIABLES} WHERE {
  GRAPH ${iri(graph)} {
    { SELECT DISTINCT ?parent ?start WHERE { ${parentValues(parents)} ${spec.start(parent, start)} } }
    UNION
    { SELECT DISTINCT ?parent ?x ?y WHERE { ${parentValues(parents)} ${spec.start(parent, start)} ${edge} } }
    UNION
    {
      ${parentValues(parents)} ${spec.start(parent, start)} ${start} ${reach}* ?e .
      ${factPatterns(withOutput)}
      ${tagOf(e)}
    }
  }
}`;
}

/** The `properties` of all parents in one query. */
export function propertiesQuery(graph: string, parents: readonly string[]): Sparql {
  return sparql`${prologue}
SELECT ?parent ?p ?v ?u WHERE {
  GRAPH ${iri(graph)} {
    ${parentValues(parents)}
    ${propertyPattern(parent, trusted('?p'), trusted('?v'), trusted('?u'))}
  }
}`;
}

/** Tests a bound `v` against a reference: the IRI, or an instance of `classes` with that id or name. */
function refTest(v: Sparql, ref: EntityRef, classes: readonly string[], scope: string): Sparql | undefined {
  if ('id' in ref && isDirectIri(ref.id)) return sparql`FILTER(${v} = ${iri(ref.id)})`;
  const test = 'id' in ref ? idTest(v, ref.id) : nameFilter(v, ref.name, variable(`${scope}_name`));
  return test && sparql`${classTest(v, classes, variable(`${scope}_k`))} ${test}`;
}

/** Binds `v` to the entities a reference names: the IRI directly, else instances of `classes` first. */
function refGenerator(v: Sparql, ref: EntityRef, classes: readonly string[], scope: string): Sparql | undefined {
  if ('id' in ref && isDirectIri(ref.id)) return sparql`VALUES ${v} { ${iri(ref.id)} }`;
  const test = 'id' in ref ? idTest(v, ref.id) : nameFilter(v, ref.name, variable(`${scope}_name`));
  return test && sparql`${classGenerator(v, classes, variable(`${scope}_k`))} ${test}`;
}

/** Kinds with a fallback for entities typed with no class of any kind (MAPPING.md). */
function fallbackGenerator(kind: EntityKind): Sparql | undefined {
  // OPTIONAL + !BOUND rather than FILTER NOT EXISTS: Oxigraph runs the latter per row without
  // its indexes (measured 226 ms against 34 s on 100k triples, bench/shapes-100k.md).
  const untyped = sparql`OPTIONAL { ?e a ?fk . GRAPH ${iri(ONTOLOGY_GRAPH)} { ?fk bkg:kind ?fkk } } FILTER(!BOUND(?fkk))`;
  switch (kind) {
    case 'Equipment':
      return sparql`?e ${POINT} ?fb . ${untyped}`;
    case 'Point':
      return sparql`?fb ${POINT} ?e . ${untyped}`;
    case 'Location':
      return sparql`?fb ${LOCATED} ?e . ${untyped}`;
    default:
      return undefined;
  }
}

/**
 * A root constraint in its two forms: `generate` binds `?e` from nothing (anchored on an IRI, a
 * class list or another entity), `check` tests an `?e` that is already bound, walking outward from
 * it. The planner generates from the most selective constraint and checks the others, so no
 * check ever searches the whole site per candidate. `undefined`: the constraint matches nothing.
 */
interface CompiledConstraint {
  readonly generate?: Sparql;
  readonly check?: Sparql;
}

/** A relation to another entity: `?anchor path ?e`, generated from the anchor or checked from `?e`. */
function viaAnchor(ref: EntityRef, classes: readonly string[], path: Sparql, scope: string): CompiledConstraint | undefined {
  const anchor = variable(`${scope}_a`);
  const generator = refGenerator(anchor, ref, classes, scope);
  const test = refTest(anchor, ref, classes, scope);
  if (!generator || !test) return undefined;
  return { generate: sparql`${generator} ${anchor} ${path} ?e .`, check: sparql`FILTER EXISTS { ?e ^(${path}) ${anchor} . ${test} }` };
}

function compileConstraint(c: Constraint, kind: EntityKind | undefined, scope: string): CompiledConstraint | undefined {
  const k = variable(`${scope}_k`);
  switch (c.type) {
    case 'id': {
      const test = idTest(e, c.id);
      if (isDirectIri(c.id)) return { generate: sparql`VALUES ?e { ${iri(c.id)} }`, check: sparql`FILTER(?e = ${iri(c.id)})` };
      return test && { check: test };
    }
    case 'ifcId': {
      const [ref, id] = [variable(`${scope}_r`), variable(`${scope}_g`)];
      const pattern = sparql`${ref} ref:ifcGlobalID ${id} FILTER(STR(${id}) = ${literal(c.ifcId)})`;
      return { generate: sparql`${pattern} ?e ref:hasExternalReference ${ref} .`, check: sparql`FILTER EXISTS { ?e ref:hasExternalReference ${ref} . ${pattern} }` };
    }
    case 'class':
      return { generate: classGenerator(e, c.classes.closure, k), check: sparql`FILTER EXISTS { ${classTest(e, c.classes.closure, k)} }` };
    case 'kind': {
      const typed = classGenerator(e, c.classes, k);
      const fallback = fallbackGenerator(c.kind);
      // Two independent generators, each anchored on its own. As a check the kind adds nothing:
      // every result's kind is checked in JavaScript.
      return { generate: fallback ? sparql`{ ${typed} } UNION { ${fallback} }` : typed };
    }
    case 'name':
      return { check: nameFilter(e, c.name, variable(`${scope}_name`)) };
    case 'property':
      return { check: propertyTest(e, c.name, c.value) };
    case 'inLocation': {
      const paths = kind === 'Point' ? locationPaths.points : kind === 'Zone' ? locationPaths.zones : locationPaths.equipment;
      return viaAnchor(c.location, c.locationClasses, paths(true), scope);
    }
    case 'ofEquipment':
      return viaAnchor(c.equipment, c.equipmentClasses, POINT, scope);
    case 'equipmentClass': {
      const owner = variable(`${scope}_a`);
      return {
        generate: sparql`${classGenerator(owner, c.classes.closure, k)} ${owner} ${POINT} ?e .`,
        check: sparql`FILTER EXISTS { ?e ^${POINT} ${owner} . ${classTest(owner, c.classes.closure, k)} }`,
      };
    }
    case 'ofZone':
      return viaAnchor(c.zone, c.zoneClasses, ZONE_POINTS, scope);
    case 'inSystem': {
      if (kind !== 'Point') return viaAnchor(c.system, c.systemClasses, PART, scope);
      // A system's own points and its members' (not a sub-system's), as System.points says.
      const anchor = variable(`${scope}_a`);
      const generator = refGenerator(anchor, c.system, c.systemClasses, scope);
      const test = refTest(anchor, c.system, c.systemClasses, scope);
      if (!generator || !test) return undefined;
      const branches = relations['System.points'];
      if (isTraversal(branches)) return undefined;
      const pattern = branches.pattern(anchor, e, { recursive: false }, scope);
      return {
        generate: anchored(generator, pattern),
        check: sparql`FILTER EXISTS { ${anchored(trusted(''), pattern)} ${test} }`,
      };
    }
  }
}

// Lower generates first: direct IRIs, then anchors found by id, then class lists, then scans.
const priority: Record<Constraint['type'], number> = {
  id: 0,
  ifcId: 1,
  ofEquipment: 2,
  ofZone: 2,
  inSystem: 2,
  inLocation: 3,
  class: 4,
  equipmentClass: 5,
  kind: 6,
  name: 9,
  property: 9,
};

const generatorRank = (c: Constraint): number => {
  if (c.type === 'id' && !isDirectIri(c.id)) return 9;
  if (c.type === 'inLocation' && 'name' in c.location) return 5;
  return priority[c.type];
};

/** The root query of a plan; `undefined` when a constraint can match nothing (an impossible id). */
export function rootQuery(plan: RootPlan, attributes: ReadonlySet<Attribute>): Sparql | undefined {
  const compiled = plan.constraints.map((c, index) => ({ c, compiled: compileConstraint(c, plan.kind, `c${index}`) }));
  if (compiled.some((entry) => entry.compiled === undefined)) return undefined;
  const generator = compiled
    .filter((entry) => entry.compiled!.generate)
    .sort((a, b) => generatorRank(a.c) - generatorRank(b.c))[0];
  if (!generator) throw new Error('A root plan needs a constraint that binds ?e');
  const checks = compiled.filter((entry) => entry !== generator).flatMap((entry) => (entry.compiled!.check ? [entry.compiled!.check] : []));
  return selectEntities(plan.graph, join([generator.compiled!.generate!, ...checks], '\n'), trusted('?e ?tag'), attributes);
}
