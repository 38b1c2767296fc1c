/**
 * Plan → SPARQL text. One query per plan node: the root query, and for each relation field one
 * query for all its parents at once (`VALUES ?parent`). Every query has the same two parts: the
 * pattern that picks the candidate entities, anchored so the store starts from known IRIs or a
 * class list, then the facts to build them with, probed on each bound candidate.
 */
import { Sparql, iri, join, literal, prologue, sparql, trusted, variable } from '../rdf/sparql.ts';
import { ONTOLOGY_GRAPH } from '../rdf/vocabulary.ts';
import type { Attribute, Constraint, EntityKind, EntityRef, RelationArgs, RelationName, RootPlan } from './plan.ts';
import { isTraversal, relations, type TraversalRelation } from './relations.ts';
import {
  FED_BY,
  FEEDS,
  LOCATED,
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
      trusted('OPTIONAL { { ?e (ref:hasExternalReference|ref:hasTimeseriesReference) ?ts_r . ?ts_r ref:hasTimeseriesId ?ts } UNION { ?e brick:timeseries ?ts_r . ?ts_r brick:hasTimeseriesId ?ts } }'),
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
function selectEntities(graph: string, candidates: Sparql, projection: Sparql, attributes: ReadonlySet<Attribute>): Sparql {
  return sparql`${prologue}
SELECT ${projection} ${FACT_VARIABLES} WHERE {
  GRAPH ${iri(graph)} {
    ${candidates}
    ${tagOf(e)}
    ${factPatterns(attributes)}
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
      ${tagOf(e)}
      ${factPatterns(withOutput)}
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

/** Binds `v` to the entity a reference names, among instances of `classes`. */
function locate(v: Sparql, ref: EntityRef, classes: readonly string[], scope: string): Sparql | undefined {
  if ('id' in ref) {
    if (isDirectIri(ref.id)) return sparql`VALUES ${v} { ${iri(ref.id)} }`;
    const test = idTest(v, ref.id);
    if (!test) return undefined;
    return sparql`${classGenerator(v, classes, variable(`${scope}_k`))} ${test}`;
  }
  return sparql`${classGenerator(v, classes, variable(`${scope}_k`))} ${nameFilter(v, ref.name, variable(`${scope}_name`))}`;
}

const noMatch = trusted('FILTER(false)');

/** Kinds with a fallback for entities typed with no class of any kind (MAPPING.md). */
function fallbackGenerator(kind: EntityKind): Sparql | undefined {
  const untyped = sparql`FILTER NOT EXISTS { ?e a ?fk . GRAPH ${iri(ONTOLOGY_GRAPH)} { ?fk bkg:kind ?fkk } }`;
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
 * A root constraint as a pattern that binds `?e`. The planner puts the most selective one first
 * as the generator and checks the others on the bound `?e` with FILTER EXISTS.
 */
function constraintPattern(c: Constraint, kind: EntityKind | undefined, i: number): Sparql | undefined {
  const scope = `c${i}`;
  const anchor = variable(`${scope}_a`);
  switch (c.type) {
    case 'id':
      return isDirectIri(c.id) ? sparql`VALUES ?e { ${iri(c.id)} }` : idTest(e, c.id);
    case 'ifcId': {
      const [ref, id] = [variable(`${scope}_r`), variable(`${scope}_g`)];
      return sparql`${ref} ref:ifcGlobalID ${id} FILTER(STR(${id}) = ${literal(c.ifcId)}) ?e ref:hasExternalReference ${ref} .`;
    }
    case 'class':
      return classGenerator(e, c.classes.closure, variable(`${scope}_k`));
    case 'kind': {
      const typed = classGenerator(e, c.classes, variable(`${scope}_k`));
      const fallback = fallbackGenerator(c.kind);
      // Two independent generators: each branch is anchored on its own.
      return fallback ? sparql`{ ${typed} } UNION { ${fallback} }` : typed;
    }
    case 'name':
      return nameFilter(e, c.name, variable(`${scope}_name`));
    case 'property':
      return propertyTest(e, c.name, c.value);
    case 'inLocation': {
      const found = locate(anchor, c.location, c.locationClasses, scope);
      if (!found) return undefined;
      const relation = kind === 'Point' ? 'Location.points' : kind === 'Zone' ? 'Location.zones' : 'Location.equipment';
      const spec = relations[relation];
      if (isTraversal(spec)) return undefined;
      return anchored(found, spec.pattern(anchor, e, { recursive: true }, scope));
    }
    case 'ofEquipment': {
      const found = locate(anchor, c.equipment, c.equipmentClasses, scope);
      return found && sparql`${found} ${anchor} ${POINT} ?e .`;
    }
    case 'equipmentClass':
      return sparql`${classGenerator(anchor, c.classes.closure, variable(`${scope}_k`))} ${anchor} ${POINT} ?e .`;
    case 'ofZone': {
      const found = locate(anchor, c.zone, c.zoneClasses, scope);
      return found && sparql`${found} ${anchor} (${POINT}|(^${FEEDS}/${POINT})) ?e .`;
    }
    case 'inSystem': {
      const found = locate(anchor, c.system, c.systemClasses, scope);
      const spec = relations[kind === 'Point' ? 'System.points' : 'System.equipment'];
      if (!found || isTraversal(spec)) return undefined;
      return anchored(found, spec.pattern(anchor, e, { recursive: false }, scope));
    }
  }
}

// Lower runs first: direct IRIs, then anchors found by id, then class lists, then scans.
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
  if (c.type === 'id') return isDirectIri(c.id) ? 0 : 8;
  if (c.type === 'inLocation' && 'name' in c.location) return 5;
  return priority[c.type];
};

/** The root query of a plan; `undefined` when a constraint can match nothing (an impossible id). */
export function rootQuery(plan: RootPlan, attributes: ReadonlySet<Attribute>): Sparql | undefined {
  const [generator] = plan.constraints.map((c, index) => ({ c, index })).sort((a, b) => generatorRank(a.c) - generatorRank(b.c));
  if (!generator || generatorRank(generator.c) >= 8) throw new Error('A root plan needs a constraint that binds ?e');
  const parts: Sparql[] = [];
  for (const [index, c] of plan.constraints.entries()) {
    if (index === generator.index) {
      const pattern = constraintPattern(c, plan.kind, index);
      if (!pattern) return undefined;
      parts.unshift(pattern);
    } else if (c.type === 'kind') {
      // Checked on the results in JavaScript; as a SPARQL check here it would only repeat that.
    } else if (c.type === 'class') {
      parts.push(sparql`FILTER EXISTS { ${classTest(e, c.classes.closure, variable(`c${index}_k`))} }`);
    } else {
      const pattern = constraintPattern(c, plan.kind, index);
      if (!pattern) return undefined;
      // Names, ids and properties are filters already; the rest bind ?e and become existence checks.
      parts.push(c.type === 'name' || c.type === 'property' || c.type === 'id' ? pattern : sparql`FILTER EXISTS { ${pattern} }`);
    }
  }
  return selectEntities(plan.graph, join(parts, '\n'), trusted('?e ?tag'), attributes);
}
