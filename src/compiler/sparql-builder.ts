/**
 * Plan → SPARQL text. One query per plan node: the root query, and for each relation field one
 * query for all its parents at once (`VALUES ?parent`). Every query has the same two parts: the
 * pattern that picks the candidate entities, anchored so the store starts from known IRIs or a
 * class list, then the facts to build them with, probed on each bound candidate.
 */
import { Sparql, integer, iri, join, literal, prologue, sparql, trusted, variable } from '../rdf/sparql.ts';
import { BRICK, ONTOLOGY_GRAPH, RDFS, REF, SKOS, localName } from '../rdf/vocabulary.ts';
import type { Attribute, Constraint, EntityKind, EntityRef, RelationArgs, RelationName, RootPlan, UnmarkedClasses } from './plan.ts';
import { isTraversal, locationPaths, relations, zonePoints, type TraversalRelation } from './relations.ts';
import { SiteIds } from './site-ids.ts';
import type { SiteProfile } from './site-profile.ts';
import {
  ALL_PATHS,
  classGenerator,
  forwardSteps,
  heldAlternatives,
  classTest,
  idCandidates,
  idTest,
  isDirectIri,
  kindTest,
  nameFilter,
  propertyBranches,
  propertyGenerator,
  propertyTest,
  referencePath,
  relationPaths,
  tagOf,
  timeseriesPath,
  type RelationPaths,
} from './sparql-patterns.ts';

const e = trusted('?e');
const parent = trusted('?parent');

/**
 * Which predicates the site's graph holds (site-profile.ts): a fact pattern over predicates it
 * does not hold can match nothing, and each costs a probe per candidate (two absent labels were
 * a fifth of a 1,700-point query, bench/results-*.md). Without a profile every predicate may occur.
 */
function predicatesOf(profile: SiteProfile | undefined): (predicate: string) => boolean {
  const held = profile?.predicates;
  return held ? (predicate) => held.has(predicate) : () => true;
}

const pathsByPredicates = new WeakMap<ReadonlySet<string>, RelationPaths>();

/** The relationship paths over the predicates the site holds (`relationPaths`), made once per profile. */
export function pathsOf(profile: SiteProfile | undefined): RelationPaths {
  const held = profile?.predicates;
  if (!held) return ALL_PATHS;
  let paths = pathsByPredicates.get(held);
  if (!paths) pathsByPredicates.set(held, (paths = relationPaths(predicatesOf(profile))));
  return paths;
}

const UNIT_STEPS = forwardSteps([`${BRICK}hasUnit`, `${BRICK}hasUnits`]);

/**
 * What an entity query fetches of each candidate: the facts its fields need (with its types and
 * labels, always), or `'kinds'`: only its types and fallback tag, which decide its kind, for the
 * candidates of a page or a count (their facts are fetched for the page alone).
 */
export type Facts = ReadonlySet<Attribute> | 'kinds';

/**
 * The facts fetched for every candidate: its types and labels, plus what the selection needs, over
 * the predicates the site holds. OPTIONALs on the bound `?e` are probes the store runs per
 * candidate; a UNION of the same branches would be evaluated over the whole graph first
 * (measured: 10× slower on 1.5k triples). Multi-valued facts multiply rows, which
 * `readEntityRows` folds back together.
 */
function factPatterns(facts: Facts, profile: SiteProfile | undefined): Sparql[] {
  const holds = predicatesOf(profile);
  const patterns: Sparql[] = [trusted('OPTIONAL { ?e a ?t }')];
  if (facts === 'kinds') return patterns;
  const attributes = facts;
  if (holds(`${RDFS}label`)) patterns.push(trusted('OPTIONAL { ?e rdfs:label ?l0 }'));
  if (holds(`${SKOS}prefLabel`)) patterns.push(trusted('OPTIONAL { ?e skos:prefLabel ?l1 }'));
  if (holds(`${BRICK}label`)) patterns.push(trusted('OPTIONAL { ?e brick:label ?l2 }'));
  if (attributes.has('ifc') && holds(`${REF}hasExternalReference`) && holds(`${REF}ifcGlobalID`)) {
    patterns.push(trusted('OPTIONAL { ?e ref:hasExternalReference ?ifc_r . ?ifc_r ref:ifcGlobalID ?ifc }'));
  }
  const timeseries = attributes.has('timeseries') ? timeseriesPath(holds) : undefined;
  // One path, not a UNION inside the OPTIONAL: measured 8 ms against 5 s (bench/shapes-100k.md).
  if (timeseries) patterns.push(sparql`OPTIONAL { ?e ${timeseries} ?ts }`);
  const unit = attributes.has('unit') ? heldAlternatives(UNIT_STEPS, holds) : undefined;
  if (unit) patterns.push(sparql`OPTIONAL { ?e ${unit} ?u }`);
  if (attributes.has('literals')) {
    patterns.push(trusted('OPTIONAL { ?e ?litp ?lit FILTER(isLiteral(?lit) && (STRENDS(STR(?litp), "writable") || STRENDS(STR(?litp), "valueType"))) }'));
  }
  if (attributes.has('owner')) patterns.push(sparql`OPTIONAL { ?own ${pathsOf(profile).point} ?e OPTIONAL { ?own a ?ownt } }`);
  if (attributes.has('output') && holds(`${BRICK}hasOutputSubstance`)) patterns.push(trusted('OPTIONAL { ?e brick:hasOutputSubstance ?out }'));
  return patterns;
}

const FACT_VARIABLES = trusted('?t ?l0 ?l1 ?l2 ?ifc ?ts ?u ?litp ?lit ?own ?ownt ?out');

// One flat group, not a DISTINCT subquery of candidates joined to the facts: Oxigraph cannot
// push the candidates into a subquery's join (measured 5× slower); repeated rows are folded later.
// The tag's BIND comes after the OPTIONALs: Virtuoso drops every row of a group where it precedes them.
/**
 * An entity query: the candidates, then the facts of each (the benchmark builds competing shapes
 * with it). The fallback tag is left out when the site profile knows every untyped entity
 * (`profile.tags`): its three EXISTS were a quarter of the time of a large entity query.
 */
export function selectEntities(graph: string, candidates: Sparql, projection: Sparql, facts: Facts, profile?: SiteProfile): Sparql {
  return sparql`${prologue}
SELECT ${projection} ${facts === 'kinds' ? trusted('?t') : FACT_VARIABLES} WHERE {
  GRAPH ${iri(graph)} {
    ${candidates}
    ${factPatterns(facts, profile)}
    ${profile?.tags ? trusted('') : tagOf(e, pathsOf(profile))}
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

/** A query that returns at most `rows` solutions (the request's budget of store rows, src/limits/). */
export function atMost(query: Sparql, rows: number | undefined): Sparql {
  return rows === undefined ? query : sparql`${query}\nLIMIT ${integer(rows)}`;
}

const parentValues = (parents: readonly string[]) => sparql`VALUES ?parent { ${parents.map(iri)} }`;

/** The facts of the entities `iris` (a page of a list, its candidates already known). */
export function entitiesQuery(graph: string, iris: readonly string[], attributes: ReadonlySet<Attribute>, profile?: SiteProfile): Sparql {
  return selectEntities(graph, sparql`VALUES ?e { ${iris.map(iri)} }`, trusted('?e ?tag'), attributes, profile);
}

/** One query for a relation field over all its parents (not for traversals). */
export function relationQuery(
  graph: string,
  relation: RelationName,
  args: RelationArgs,
  parents: readonly string[],
  facts: Facts,
  profile?: SiteProfile,
  unmarked: UnmarkedClasses = {},
): Sparql {
  const spec = relations[relation];
  // A traversal needs the facts of every node on its walk, and is paged after it: the fewest it can ask are types and labels.
  if (isTraversal(spec)) return traversalQuery(graph, spec, parents, facts === 'kinds' ? new Set() : facts, profile);
  const checks: Sparql[] = [];
  if (args.name) checks.push(nameFilter(e, args.name, trusted('?name')));
  if (args.classes) checks.push(sparql`FILTER EXISTS { ${classTest(e, args.classes.closure, trusted('?k'))} }`);
  const anchor = parentValues(parents);
  const candidates = sparql`${anchored(anchor, spec.pattern(parent, e, { args, paths: pathsOf(profile), anchor, unmarked }))}
      ${checks}`;
  return selectEntities(graph, candidates, trusted('?parent ?e ?rank ?tag'), facts, profile);
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
  profile?: SiteProfile,
): Sparql {
  const start = trusted('?start');
  const paths = pathsOf(profile);
  const reach = spec.direction === 'downstream' ? paths.feeds : paths.fedBy;
  const edge =
    spec.direction === 'downstream'
      ? sparql`${start} ${reach}* ?x . ?x ${paths.feeds} ?y .`
      : sparql`${start} ${reach}* ?y . ?x ${paths.feeds} ?y .`;
  const starts = spec.start(parent, start, paths);
  const withOutput = new Set([...attributes, 'output' as const]);
  return sparql`${prologue}
SELECT ?parent ?start ?x ?y ?e ?tag ${FACT_VARIABLES} WHERE {
  GRAPH ${iri(graph)} {
    { SELECT DISTINCT ?parent ?start WHERE { ${parentValues(parents)} ${starts} } }
    UNION
    { SELECT DISTINCT ?parent ?x ?y WHERE { ${parentValues(parents)} ${starts} ${edge} } }
    UNION
    {
      ${parentValues(parents)} ${starts} ${start} ${reach}* ?e .
      ${factPatterns(withOutput, profile)}
      ${profile?.tags ? trusted('') : tagOf(e, paths)}
    }
  }
}`;
}

/** The `properties` of all parents in one query. */
export function propertiesQuery(graph: string, parents: readonly string[]): Sparql {
  return sparql`${prologue}
SELECT ?parent ?p ?v ?u WHERE {
  GRAPH ${iri(graph)} {
    ${anchored(parentValues(parents), propertyBranches(parent, trusted('?p'), trusted('?v'), trusted('?u')))}
  }
}`;
}

/**
 * The external references of all parents in one query, each reference's triples (its classes and
 * fields); undefined when the site holds no reference predicate. A blank-node value names nothing
 * the answer could carry, so it is left out.
 */
export function externalReferencesQuery(graph: string, parents: readonly string[], profile?: SiteProfile): Sparql | undefined {
  const path = referencePath(predicatesOf(profile));
  return (
    path &&
    sparql`${prologue}
SELECT ?parent ?r ?p ?v WHERE {
  GRAPH ${iri(graph)} {
    ${parentValues(parents)} ?parent ${path} ?r . ?r ?p ?v FILTER(!isBlank(?v))
  }
}`
  );
}

/** What the site tells the compiler of root constraints: its profile (embedded stores), its ids, its classes without a kind mark. */
interface SiteContext {
  readonly profile: SiteProfile | undefined;
  readonly ids: SiteIds;
  readonly unmarked: UnmarkedClasses;
}

/** A reference to another entity: how it names it, and the kind (with its classes) it must be of. */
interface Reference {
  readonly ref: EntityRef;
  readonly kind: EntityKind;
  readonly classes: readonly string[];
}

/** Tests a bound `v` against a reference: the IRI, or an entity of the kind with that id or name. */
function refTest(v: Sparql, { ref, kind }: Reference, scope: string, context: SiteContext): Sparql | undefined {
  if ('id' in ref && isDirectIri(ref.id)) return sparql`FILTER(${v} = ${iri(ref.id)})`;
  const test = 'id' in ref ? idTest(v, ref.id) : nameFilter(v, ref.name, variable(`${scope}_name`));
  return test && sparql`${kindOrFallbackTest(v, kind, scope, context)} ${test}`;
}

/**
 * The IRIs an id that is no full IRI can name, where they are known without a scan: the entities
 * of a shared local name (the site's ids), else the id in each of the site's namespaces (its
 * profile). Undefined: not known (or the id names nothing, which `idTest` tells).
 */
function idIris(id: string, profile: SiteProfile | undefined, ids: SiteIds): string[] | undefined {
  return ids.named(id) ?? (profile?.namespaces && idCandidates(id, profile.namespaces));
}

/**
 * Binds `v` to the entities a reference names: the IRI directly, or the IRIs an id can be
 * (`idIris`, then tested for the kind), else the kind's instances first.
 */
function refGenerator(v: Sparql, { ref, kind, classes }: Reference, scope: string, context: SiteContext): Sparql | undefined {
  if ('id' in ref && isDirectIri(ref.id)) return sparql`VALUES ${v} { ${iri(ref.id)} }`;
  const candidates = 'id' in ref ? idIris(ref.id, context.profile, context.ids) : undefined;
  if (candidates) return candidates.length ? sparql`VALUES ${v} { ${candidates.map(iri)} } ${kindOrFallbackTest(v, kind, scope, context)}` : undefined;
  const test = 'id' in ref ? idTest(v, ref.id) : nameFilter(v, ref.name, variable(`${scope}_name`));
  // Without the profile's list, no scan for the entities a reference names by their links alone (`listedUntyped`).
  return test && sparql`${kindGenerator(v, kind, classes, scope, context.profile, false)} ${test}`;
}

/**
 * Kinds with a fallback for entities typed with no class of any kind (MAPPING.md): the pattern
 * that finds them, binding `v` (`?e` unless named; its own variables start with `scope`). Over
 * every path: the site profile is read with it. On a bound `v` it tests instead.
 */
export function fallbackGenerator(kind: EntityKind, v: Sparql = e, scope = 'f'): Sparql | undefined {
  const { point, located } = ALL_PATHS;
  const [linked, type, mark] = [variable(`${scope}b`), variable(`${scope}k`), variable(`${scope}kk`)];
  // OPTIONAL + !BOUND rather than FILTER NOT EXISTS: Oxigraph runs the latter per row without
  // its indexes (measured 226 ms against 34 s on 100k triples, bench/shapes-100k.md).
  const untyped = sparql`OPTIONAL { ${v} a ${type} . GRAPH ${iri(ONTOLOGY_GRAPH)} { ${type} bkg:kind ${mark} } } FILTER(!BOUND(${mark}))`;
  switch (kind) {
    case 'Equipment':
      return sparql`${v} ${point} ${linked} . ${untyped}`;
    case 'Point':
      return sparql`${linked} ${point} ${v} . ${untyped}`;
    case 'Location':
      return sparql`${linked} ${located} ${v} . ${untyped}`;
    default:
      return undefined;
  }
}

/** The site profile's list of the kind's untyped entities as a VALUES block for `v`; undefined when it lists none or does not know them. */
function listedUntyped(v: Sparql, kind: EntityKind, profile: SiteProfile | undefined): Sparql | undefined {
  const untyped = profile?.untyped.get(kind);
  return untyped?.length ? sparql`VALUES ${v} { ${untyped.map(iri)} }` : undefined;
}

/**
 * Binds `v` to every entity of a kind: instances of its classes, and the entities its fallback
 * places in it (kinds add up, MAPPING.md), from the profile's list, else with `scan` the scan that
 * finds them (the root's own kind). A reference does not scan: Virtuoso 7.2 cannot compile that
 * scan in a UNION joined to a location path (SQ156, SQ200), so on an external store a reference
 * finds the entities typed with a class of its kind.
 */
function kindGenerator(v: Sparql, kind: EntityKind, classes: readonly string[], scope: string, profile: SiteProfile | undefined, scan: boolean): Sparql {
  const typed = classGenerator(v, classes, variable(`${scope}_k`));
  const known = profile?.untyped.get(kind) !== undefined;
  const fallback = listedUntyped(v, kind, profile) ?? (scan && !known ? fallbackGenerator(kind, v) : undefined);
  // Two independent generators, each anchored on its own.
  return fallback ? sparql`{ ${typed} } UNION { ${fallback} }` : typed;
}

/** `v` (bound) is of the kind: by a class (marked, or the site's unmarked ones), or in the profile's list of its untyped entities. */
function kindOrFallbackTest(v: Sparql, kind: EntityKind, scope: string, { profile, unmarked }: SiteContext): Sparql {
  const typed = kindTest(v, kind, variable(`${scope}_k`), unmarked[kind]);
  const listed = listedUntyped(v, kind, profile);
  return listed ? sparql`{ ${typed} } UNION { ${listed} }` : typed;
}

/**
 * A root constraint in its two forms: `generate` binds `?e` from nothing (anchored on an IRI, a
 * class list or another entity), `check` tests an `?e` that is already bound, walking outward from
 * it. The planner generates from the most selective constraint and checks the others, so no
 * check ever searches the whole site per candidate. `undefined`: the constraint matches nothing.
 */
interface CompiledConstraint {
  readonly generate?: Sparql;
  /** A test on the bound `?e` that keeps or drops it. */
  readonly check?: Sparql;
  /** Instead of `check`: a pattern joined from the bound `?e`, which can repeat it (once per anchor it reaches). */
  readonly join?: Sparql;
}

/**
 * A relation to another entity: `?anchor path ?e`, generated from the anchor or checked from `?e`.
 * The check is a join walking out from the bound `?e`, not a FILTER EXISTS: Oxigraph plans an
 * EXISTS as if `?e` were unbound and splits a sequence path in it into a join, so the check of a
 * location by name started from every node of the site for each candidate (3 s for the setpoints
 * of one floor of a 60-floor building; as a join, 9 ms).
 */
function viaAnchor(ref: Reference, path: Sparql, scope: string, context: SiteContext): CompiledConstraint | undefined {
  const anchor = variable(`${scope}_a`);
  const generator = refGenerator(anchor, ref, scope, context);
  const test = refTest(anchor, ref, scope, context);
  if (!generator || !test) return undefined;
  return { generate: sparql`${generator} ${anchor} ${path} ?e .`, join: sparql`?e ^(${path}) ${anchor} . ${test}` };
}

/**
 * Compiles a constraint; with a site profile, ids, the kind fallback and property names are
 * anchored on what the site holds, and with the site's ids, ids of entities that share a local name.
 */
function compileConstraint(
  c: Constraint,
  kind: EntityKind | undefined,
  scope: string,
  context: SiteContext,
): CompiledConstraint | undefined {
  const { profile } = context;
  const k = variable(`${scope}_k`);
  const paths = pathsOf(profile);
  switch (c.type) {
    case 'id': {
      if (isDirectIri(c.id)) return { generate: sparql`VALUES ?e { ${iri(c.id)} }`, check: sparql`FILTER(?e = ${iri(c.id)})` };
      const test = idTest(e, c.id);
      const candidates = test && idIris(c.id, profile, context.ids);
      if (!test || !candidates) return test && { check: test };
      return candidates.length > 0 ? { generate: sparql`VALUES ?e { ${candidates.map(iri)} }`, check: test } : undefined;
    }
    case 'ifcId': {
      const [ref, id] = [variable(`${scope}_r`), variable(`${scope}_g`)];
      const pattern = sparql`${ref} ref:ifcGlobalID ${id} FILTER(STR(${id}) = ${literal(c.ifcId)})`;
      // Where every GlobalId of the site is a plain string, the literal itself is the index key
      // (the STR() test read all 12k of them at 1M triples: 18 ms for one click in a 3D viewer).
      const lookup = profile?.plainIfcIds ? sparql`${ref} ref:ifcGlobalID ${literal(c.ifcId)} .` : pattern;
      return { generate: sparql`${lookup} ?e ref:hasExternalReference ${ref} .`, check: sparql`FILTER EXISTS { ?e ref:hasExternalReference ${ref} . ${pattern} }` };
    }
    case 'timeseries': {
      // Every style of MAPPING.md over the predicates the site holds; none held: no entity carries one.
      const path = timeseriesPath(predicatesOf(profile));
      if (!path || c.ids.length === 0) return undefined;
      const [id, ids] = [variable(`${scope}_ts`), c.ids.map((value) => literal(value))];
      return { generate: sparql`VALUES ${id} { ${ids} } ?e ${path} ${id} .`, check: sparql`FILTER EXISTS { VALUES ${id} { ${ids} } ?e ${path} ${id} }` };
    }
    case 'class':
      return { generate: classGenerator(e, c.classes.closure, k), check: sparql`FILTER EXISTS { ${classTest(e, c.classes.closure, k)} }` };
    case 'kind':
      // The profile lists the untyped entities (or says there are none) instead of the scan that
      // finds them. As a check the kind adds nothing: every result's kind is checked in JavaScript.
      return { generate: kindGenerator(e, c.kind, c.classes, scope, profile, true) };
    case 'name':
      return { check: nameFilter(e, c.name, variable(`${scope}_name`)) };
    case 'property': {
      const check = propertyTest(e, c.name, c.value);
      if (c.name === undefined || !profile?.predicates) return { check };
      const predicates = [...profile.predicates].filter((p) => localName(p) === c.name);
      return predicates.length > 0 ? { generate: propertyGenerator(e, predicates, c.value), check } : undefined;
    }
    case 'inLocation': {
      const contents = kind === 'Point' ? locationPaths.points : kind === 'Zone' ? locationPaths.zones : locationPaths.equipment;
      return viaAnchor({ ref: c.location, kind: 'Location', classes: c.locationClasses }, contents(true, paths), scope, context);
    }
    case 'ofEquipment':
      return viaAnchor({ ref: c.equipment, kind: 'Equipment', classes: c.equipmentClasses }, paths.point, scope, context);
    case 'equipmentClass': {
      const owner = variable(`${scope}_a`);
      return {
        generate: sparql`${classGenerator(owner, c.classes.closure, k)} ${owner} ${paths.point} ?e .`,
        // A join, as in `viaAnchor`: two patterns in an EXISTS were planned from the class side.
        join: sparql`?e ^${paths.point} ${owner} . ${classTest(owner, c.classes.closure, k)}`,
      };
    }
    case 'ofZone':
      return viaAnchor({ ref: c.zone, kind: 'Zone', classes: c.zoneClasses }, zonePoints(paths), scope, context);
    case 'inSystem': {
      const system: Reference = { ref: c.system, kind: 'System', classes: c.systemClasses };
      if (kind !== 'Point') return viaAnchor(system, paths.part, scope, context);
      // A system's own points and its members' (not a sub-system's), as System.points says.
      const anchor = variable(`${scope}_a`);
      const generator = refGenerator(anchor, system, scope, context);
      const test = refTest(anchor, system, scope, context);
      if (!generator || !test) return undefined;
      const branches = relations['System.points'];
      if (isTraversal(branches)) return undefined;
      const pattern = branches.pattern(anchor, e, { args: { recursive: false }, paths, anchor: generator, scope, unmarked: context.unmarked });
      // The check walks out from the bound ?e as a join (see `viaAnchor`; the two branches in an
      // EXISTS took a minute at 1M triples): the point's owner (or the point, as a member
      // itself), then that owner or its whole, which must be the system; an owner that is not
      // the system itself must not be a system.
      const [owner, ownerKind] = [variable(`${scope}_o`), variable(`${scope}_ok`)];
      return {
        generate: anchored(generator, pattern),
        join: sparql`?e ^${paths.point}? ${owner} . ${owner} ^${paths.part}? ${anchor} . ${test}
          OPTIONAL { ${kindTest(owner, 'System', ownerKind, context.unmarked.System)} }
          FILTER(${owner} = ${anchor} || !BOUND(${ownerKind}))`,
      };
    }
  }
}

// Lower generates first: IRIs, then anchors found by id, then class lists, then scans. An id or
// a property generates only when it names IRIs (directly, or through the site profile).
const priority: Record<Constraint['type'], number> = {
  id: 0,
  ifcId: 1,
  timeseries: 1,
  ofEquipment: 2,
  ofZone: 2,
  inSystem: 2,
  inLocation: 3,
  class: 4,
  equipmentClass: 5,
  kind: 6,
  name: 9,
  property: 5,
};

const generatorRank = (c: Constraint): number => {
  if (c.type === 'inLocation' && 'name' in c.location) return 5;
  if (c.type === 'property' && c.value !== undefined) return 3;
  return priority[c.type];
};

/**
 * The root query of a plan; `undefined` when a constraint can match nothing (an impossible id).
 * `profile`, when the site's is known, lets ids, the kind fallback and property names be anchored;
 * `ids`, the site's (`site-ids.ts`), the ids of entities that share a local name.
 */
export function rootQuery(plan: RootPlan, facts: Facts, profile?: SiteProfile, ids: SiteIds = SiteIds.UNIQUE): Sparql | undefined {
  const context: SiteContext = { profile, ids, unmarked: plan.unmarked ?? {} };
  const compiled = plan.constraints.map((c, index) => ({ c, compiled: compileConstraint(c, plan.kind, `c${index}`, context) }));
  if (compiled.some((entry) => entry.compiled === undefined)) return undefined;
  const generator = compiled
    .filter((entry) => entry.compiled!.generate)
    .sort((a, b) => generatorRank(a.c) - generatorRank(b.c))[0];
  if (!generator) throw new Error('A root plan needs a constraint that binds ?e');
  const others = compiled.filter((entry) => entry !== generator).map((entry) => entry.compiled!);
  const tests = others.flatMap((c) => c.check ?? c.join ?? []);
  const candidates = join([generator.compiled!.generate!, ...tests], '\n');
  // A joined test can repeat `?e`, and its facts with it: the candidates are made distinct first.
  const distinct = others.some((c) => c.join) ? sparql`{ SELECT DISTINCT ?e WHERE { ${candidates} } }` : candidates;
  return selectEntities(plan.graph, distinct, trusted('?e ?tag'), facts, profile);
}
