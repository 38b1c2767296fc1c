/**
 * Plan → SPARQL text. One query per plan node: the root query, and for each relation field one
 * query for all its parents at once (`VALUES ?parent`). Every query has the same two parts: the
 * pattern that picks the candidate entities, anchored so the store starts from known IRIs or a
 * class list, then the facts to build them with, probed on each bound candidate.
 */
import {
  filter,
  exists,
  integer,
  graph,
  group,
  namedNode,
  op,
  optional,
  patterns,
  select,
  triple,
  union,
  values,
  variable,
  zeroOrMore,
  zeroOrOne,
  inverse,
  literal,
  type Pattern,
  type Path,
  type SelectQuery,
  type VariableTerm,
} from '../rdf/sparql-algebra.ts';
import { BKG, BRICK, ONTOLOGY_GRAPH, RDF, RDFS, REF, SKOS } from '../rdf/vocabulary.ts';
import type {
  Attribute,
  Constraint,
  EntityKind,
  EntityRef,
  RelationArgs,
  RelationName,
  RootPlan,
  UnmarkedClasses,
} from './plan.ts';
import {
  isAlternatives,
  isTraversal,
  locationPaths,
  relations,
  zonePoints,
  type Alternatives,
  type TraversalRelation,
} from './relations.ts';
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
  namesPredicate,
  propertyGenerator,
  propertyTest,
  referencePath,
  relationPaths,
  tagOf,
  timeseriesPath,
  type RelationPaths,
} from './sparql-patterns.ts';

const named = (...names: string[]) => names.map((name) => variable(name));
const [e, parent, start, x, y, rank, tag, t] = named(
  'e',
  'parent',
  'start',
  'x',
  'y',
  'rank',
  'tag',
  't',
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
const [l0, l1, l2, ifcRef, ifc, ts, u, litp, lit, own, ownt, out] = named(
  'l0',
  'l1',
  'l2',
  'ifc_r',
  'ifc',
  'ts',
  'u',
  'litp',
  'lit',
  'own',
  'ownt',
  'out',
) as [
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
];
const KIND = namedNode(`${BKG}kind`);
const [TYPE, LABEL, PREF_LABEL, BRICK_LABEL, EXTERNAL_REFERENCE, IFC_GLOBAL_ID, OUTPUT_SUBSTANCE] = [
  `${RDF}type`,
  `${RDFS}label`,
  `${SKOS}prefLabel`,
  `${BRICK}label`,
  `${REF}hasExternalReference`,
  `${REF}ifcGlobalID`,
  `${BRICK}hasOutputSubstance`,
].map(namedNode);

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
 * What an entity query fetches of each candidate: the facts its fields need (with its types,
 * always), or `'kinds'`: only its types and fallback tag, which decide its kind, for the
 * candidates of a page or a count (their facts are fetched for the page alone).
 */
export type Facts = ReadonlySet<Attribute> | 'kinds';

const [WRITABLE, VALUE_TYPE] = [literal('writable'), literal('valueType')];

/**
 * The facts fetched for every candidate: its types, plus what the selection needs (its labels only
 * for its name: an answer of ids and timeseries ids without them took Virtuoso a third less time),
 * over the predicates the site holds. OPTIONALs on the bound `?e` are probes the store runs per
 * candidate; a UNION of the same branches would be evaluated over the whole graph first
 * (measured: 10× slower on 1.5k triples). Multi-valued facts multiply rows, which
 * `readEntityRows` folds back together.
 */
function factPatterns(facts: Facts, profile: SiteProfile | undefined): Pattern[] {
  const holds = predicatesOf(profile);
  const found: Pattern[] = [optional(triple(e, TYPE!, t))];
  if (facts === 'kinds') return found;
  const attributes = facts;
  if (attributes.has('labels')) {
    if (holds(`${RDFS}label`)) found.push(optional(triple(e, LABEL!, l0)));
    if (holds(`${SKOS}prefLabel`)) found.push(optional(triple(e, PREF_LABEL!, l1)));
    if (holds(`${BRICK}label`)) found.push(optional(triple(e, BRICK_LABEL!, l2)));
  }
  if (attributes.has('ifc') && holds(`${REF}hasExternalReference`) && holds(`${REF}ifcGlobalID`)) {
    found.push(optional(triple(e, EXTERNAL_REFERENCE!, ifcRef), triple(ifcRef, IFC_GLOBAL_ID!, ifc)));
  }
  const timeseries = attributes.has('timeseries') ? timeseriesPath(holds) : undefined;
  // One path, not a UNION inside the OPTIONAL: measured 8 ms against 5 s (bench/shapes-100k.md).
  if (timeseries) found.push(optional(triple(e, timeseries, ts)));
  const unit = attributes.has('unit') ? heldAlternatives(UNIT_STEPS, holds) : undefined;
  if (unit) found.push(optional(triple(e, unit, u)));
  if (attributes.has('literals')) {
    const endsWith = (suffix: typeof WRITABLE) => op('strends', op('str', litp), suffix);
    found.push(
      optional(
        triple(e, litp, lit),
        filter(op('&&', op('isliteral', lit), op('||', endsWith(WRITABLE), endsWith(VALUE_TYPE)))),
      ),
    );
  }
  if (attributes.has('owner'))
    found.push(optional(triple(own, pathsOf(profile).point, e), optional(triple(own, TYPE!, ownt))));
  if (attributes.has('output') && holds(`${BRICK}hasOutputSubstance`))
    found.push(optional(triple(e, OUTPUT_SUBSTANCE!, out)));
  return found;
}

const FACT_VARIABLES = [t, l0, l1, l2, ifc, ts, u, litp, lit, own, ownt, out];

// One flat group, not a DISTINCT subquery of candidates joined to the facts: Oxigraph cannot
// push the candidates into a subquery's join (measured 5× slower); repeated rows are folded later.
// The tag's BIND comes after the OPTIONALs: Virtuoso drops every row of a group where it precedes them.
/**
 * An entity query: the candidates, then the facts of each (the benchmark builds competing shapes
 * with it). The fallback tag is left out when the site profile knows every untyped entity
 * (`profile.tags`): its three EXISTS were a quarter of the time of a large entity query.
 */
export function selectEntities(
  site: string,
  candidates: readonly Pattern[],
  projection: readonly VariableTerm[],
  facts: Facts,
  profile?: SiteProfile,
): SelectQuery {
  return select({
    variables: [...projection, ...(facts === 'kinds' ? [t] : FACT_VARIABLES)],
    where: [
      graph(
        namedNode(site),
        candidates,
        factPatterns(facts, profile),
        profile?.tags ? undefined : tagOf(e, pathsOf(profile)),
      ),
    ],
  });
}

/** A pattern, or its alternatives as a UNION that repeats `anchor` in every branch. */
function anchored(anchor: readonly Pattern[], pattern: readonly Pattern[] | Alternatives): Pattern[] {
  if (!isAlternatives(pattern)) return [...anchor, ...pattern];
  return [union(pattern.alternatives.map((branch) => [anchor, branch]))];
}

/** A query that returns at most `rows` solutions (the request's budget of store rows, src/limits/). */
export function atMost(query: SelectQuery, rows: number | undefined): SelectQuery {
  return rows === undefined ? query : { ...query, limit: Number(integer(rows).value) };
}

const parentValues = (parents: readonly string[]) => values(parent, parents.map(namedNode));

/** The facts of the entities `iris` (a page of a list, its candidates already known). */
export function entitiesQuery(
  site: string,
  iris: readonly string[],
  attributes: ReadonlySet<Attribute>,
  profile?: SiteProfile,
): SelectQuery {
  return selectEntities(site, [values(e, iris.map(namedNode))], [e, tag], attributes, profile);
}

/** One query for a relation field over all its parents (not for traversals). */
export function relationQuery(
  site: string,
  relation: RelationName,
  args: RelationArgs,
  parents: readonly string[],
  facts: Facts,
  profile?: SiteProfile,
  unmarked: UnmarkedClasses = {},
): SelectQuery {
  const spec = relations[relation];
  // A traversal needs the facts of every node on its walk, and is paged after it: the fewest it can ask are types and labels.
  if (isTraversal(spec)) return traversalQuery(site, spec, parents, facts === 'kinds' ? new Set() : facts, profile);
  const checks: Pattern[] = [];
  if (args.name) checks.push(...nameFilter(e, args.name, variable('name')));
  if (args.classes) checks.push(filter(exists(classTest(e, args.classes.closure, variable('k')))));
  const anchor = [parentValues(parents)];
  const candidates = [
    ...anchored(anchor, spec.pattern(parent, e, { args, paths: pathsOf(profile), anchor, unmarked })),
    ...checks,
  ];
  return selectEntities(site, candidates, [parent, e, rank, tag], facts, profile);
}

/** `{ SELECT [DISTINCT] … WHERE { … } }`: a subquery as a pattern. */
const subquery = (variables: readonly VariableTerm[], where: readonly Pattern[], distinct = false): Pattern =>
  group(select({ variables, where: [where], distinct }));

/**
 * A traversal fetches, for every parent, the `feeds` edges reachable from its start nodes, the
 * start nodes, and the facts of every node on the way; the breadth-first walk with `maxDepth`,
 * `medium` and `is` then runs on that small subgraph (`src/query/traverse.ts`). Cycles cost nothing.
 */
export function traversalQuery(
  site: string,
  spec: TraversalRelation,
  parents: readonly string[],
  attributes: ReadonlySet<Attribute>,
  profile?: SiteProfile,
): SelectQuery {
  const paths = pathsOf(profile);
  const reach: Path = zeroOrMore(spec.direction === 'downstream' ? paths.feeds : paths.fedBy);
  const edge =
    spec.direction === 'downstream'
      ? [triple(start, reach, x), triple(x, paths.feeds, y)]
      : [triple(start, reach, y), triple(x, paths.feeds, y)];
  const starts = spec.start(parent, start, paths);
  const withOutput = new Set([...attributes, 'output' as const]);
  const anchor = parentValues(parents);
  return select({
    variables: [parent, start, x, y, e, tag, ...FACT_VARIABLES],
    where: [
      graph(
        namedNode(site),
        union([
          select({ variables: [parent, start], where: [anchor, starts], distinct: true }),
          select({ variables: [parent, x, y], where: [anchor, starts, edge], distinct: true }),
          patterns(
            anchor,
            starts,
            triple(start, reach, e),
            factPatterns(withOutput, profile),
            profile?.tags ? undefined : tagOf(e, paths),
          ),
        ]),
      ),
    ],
  });
}

const [P, V, U, R] = named('p', 'v', 'u', 'r') as [VariableTerm, VariableTerm, VariableTerm, VariableTerm];

/** The `properties` of all parents in one query. */
export function propertiesQuery(site: string, parents: readonly string[]): SelectQuery {
  return select({
    variables: [parent, P, V, U],
    where: [
      graph(namedNode(site), anchored([parentValues(parents)], { alternatives: propertyBranches(parent, P, V, U) })),
    ],
  });
}

/**
 * The external references of all parents in one query, each reference's triples (its classes and
 * fields); undefined when the site holds no reference predicate. A blank-node value names nothing
 * the answer could carry, so it is left out.
 */
export function externalReferencesQuery(
  site: string,
  parents: readonly string[],
  profile?: SiteProfile,
): SelectQuery | undefined {
  const path = referencePath(predicatesOf(profile));
  return (
    path &&
    select({
      variables: [parent, R, P, V],
      where: [
        graph(
          namedNode(site),
          parentValues(parents),
          triple(parent, path, R),
          triple(R, P, V),
          filter(op('!', op('isblank', V))),
        ),
      ],
    })
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
function refTest(
  v: VariableTerm,
  { ref, kind }: Reference,
  scope: string,
  context: SiteContext,
): Pattern[] | undefined {
  if ('id' in ref && isDirectIri(ref.id)) return [filter(op('=', v, namedNode(ref.id)))];
  const test = 'id' in ref ? idTest(v, ref.id) : nameFilter(v, ref.name, variable(scope, 'name'));
  return test && patterns(kindOrFallbackTest(v, kind, scope, context), test);
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
function refGenerator(
  v: VariableTerm,
  { ref, kind, classes }: Reference,
  scope: string,
  context: SiteContext,
): Pattern[] | undefined {
  if ('id' in ref && isDirectIri(ref.id)) return [values(v, [namedNode(ref.id)])];
  const candidates = 'id' in ref ? idIris(ref.id, context.profile, context.ids) : undefined;
  if (candidates)
    return candidates.length
      ? [values(v, candidates.map(namedNode)), ...kindOrFallbackTest(v, kind, scope, context, candidates)]
      : undefined;
  const test = 'id' in ref ? idTest(v, ref.id) : nameFilter(v, ref.name, variable(scope, 'name'));
  // Without the profile's list, no scan for the entities a reference names by their links alone (`listedUntyped`).
  return test && patterns(kindGenerator(v, kind, classes, scope, context.profile, false), test);
}

/**
 * Kinds with a fallback for entities typed with no class of any kind (docs/brick-mapping.md, "Kinds add up"): the
 * pattern that finds them, binding `v` (`?e` unless named; its own variables start with `scope`).
 * Over every path: the site profile is read with it. On a bound `v` it tests instead.
 */
export function fallbackGenerator(kind: EntityKind, v: VariableTerm = e, scope = 'f'): Pattern[] | undefined {
  const { point, located } = ALL_PATHS;
  const [linked, type, mark] = [variable(scope, 'b'), variable(scope, 'k'), variable(scope, 'kk')];
  // OPTIONAL + !BOUND rather than FILTER NOT EXISTS: Oxigraph runs the latter per row without
  // its indexes (measured 226 ms against 34 s on 100k triples, bench/shapes-100k.md).
  const untyped = [
    optional(triple(v, TYPE!, type), graph(namedNode(ONTOLOGY_GRAPH), triple(type, KIND, mark))),
    filter(op('!', op('bound', mark))),
  ];
  switch (kind) {
    case 'Equipment':
      return [triple(v, point, linked), ...untyped];
    case 'Point':
      return [triple(linked, point, v), ...untyped];
    case 'Location':
      return [triple(linked, located, v), ...untyped];
    default:
      return undefined;
  }
}

/**
 * The site profile's list of the kind's untyped entities as a VALUES block for `v`, only those among
 * `among` when `v` can be no other; undefined when it lists none (of them) or does not know them.
 */
function listedUntyped(
  v: VariableTerm,
  kind: EntityKind,
  profile: SiteProfile | undefined,
  among?: readonly string[],
): Pattern | undefined {
  const untyped = profile?.untyped.get(kind);
  const listed = among && untyped ? untyped.filter((iri) => among.includes(iri)) : untyped;
  return listed?.length ? values(v, listed.map(namedNode)) : undefined;
}

/**
 * Binds `v` to every entity of a kind: instances of its classes, and the entities its fallback
 * places in it (docs/brick-mapping.md, "Kinds add up"), from the profile's list, else with `scan` the scan that
 * finds them (the root's own kind). A reference does not scan: Virtuoso 7.2 cannot compile that
 * scan in a UNION joined to a location path (SQ156, SQ200), so on an external store a reference
 * finds the entities typed with a class of its kind.
 */
function kindGenerator(
  v: VariableTerm,
  kind: EntityKind,
  classes: readonly string[],
  scope: string,
  profile: SiteProfile | undefined,
  scan: boolean,
): Pattern[] {
  const typed = classGenerator(v, classes, variable(scope, 'k'));
  const known = profile?.untyped.get(kind) !== undefined;
  const fallback = listedUntyped(v, kind, profile) ?? (scan && !known ? fallbackGenerator(kind, v) : undefined);
  // Two independent generators, each anchored on its own.
  return fallback ? [union([typed, fallback])] : typed;
}

/**
 * `v` (bound) is of the kind: by a class (marked, or the site's unmarked ones), or in the profile's
 * list of its untyped entities. `among`: the IRIs `v` is bound to, when known; the list is cut to
 * them, and left out when none is on it (a UNION with a VALUES branch that can hold none of an
 * anchor's IRIs took Virtuoso 95 ms against 5 ms without it, for one anchor at 100k triples).
 */
function kindOrFallbackTest(
  v: VariableTerm,
  kind: EntityKind,
  scope: string,
  { profile, unmarked }: SiteContext,
  among?: readonly string[],
): Pattern[] {
  const typed = kindTest(v, kind, variable(scope, 'k'), unmarked[kind]);
  const listed = listedUntyped(v, kind, profile, among);
  return listed ? [union([typed, listed])] : typed;
}

/**
 * A root constraint in its two forms: `generate` binds `?e` from nothing (anchored on an IRI, a
 * class list or another entity), `check` tests an `?e` that is already bound, walking outward from
 * it. The planner generates from the most selective constraint and checks the others, so no
 * check ever searches the whole site per candidate. `undefined`: the constraint matches nothing.
 */
interface CompiledConstraint {
  readonly generate?: Pattern[];
  /** A test on the bound `?e` that keeps or drops it. */
  readonly check?: Pattern[];
  /** Instead of `check`: a pattern joined from the bound `?e`, which can repeat it (once per anchor it reaches). */
  readonly join?: Pattern[];
}

/**
 * A relation to another entity: `?anchor path ?e`, generated from the anchor or checked from `?e`.
 * The check is a join walking out from the bound `?e`, not a FILTER EXISTS: Oxigraph plans an
 * EXISTS as if `?e` were unbound and splits a sequence path in it into a join, so the check of a
 * location by name started from every node of the site for each candidate (3 s for the setpoints
 * of one floor of a 60-floor building; as a join, 9 ms).
 */
function viaAnchor(ref: Reference, path: Path, scope: string, context: SiteContext): CompiledConstraint | undefined {
  const anchor = variable(scope, 'a');
  const generator = refGenerator(anchor, ref, scope, context);
  const test = refTest(anchor, ref, scope, context);
  if (!generator || !test) return undefined;
  return { generate: [...generator, triple(anchor, path, e)], join: [triple(e, inverse(path), anchor), ...test] };
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
  const k = variable(scope, 'k');
  const paths = pathsOf(profile);
  switch (c.type) {
    case 'id': {
      if (isDirectIri(c.id))
        return { generate: [values(e, [namedNode(c.id)])], check: [filter(op('=', e, namedNode(c.id)))] };
      const test = idTest(e, c.id);
      const candidates = test && idIris(c.id, profile, context.ids);
      if (!test || !candidates) return test && { check: [test] };
      return candidates.length > 0 ? { generate: [values(e, candidates.map(namedNode))], check: [test] } : undefined;
    }
    case 'ifcId': {
      const [ref, id] = [variable(scope, 'r'), variable(scope, 'g')];
      const pattern = [triple(ref, IFC_GLOBAL_ID!, id), filter(op('=', op('str', id), literal(c.ifcId)))];
      // Where every GlobalId of the site is a plain string, the literal itself is the index key
      // (the STR() test read all 12k of them at 1M triples: 18 ms for one click in a 3D viewer).
      const lookup = profile?.plainIfcIds ? [triple(ref, IFC_GLOBAL_ID!, literal(c.ifcId))] : pattern;
      return {
        generate: [...lookup, triple(e, EXTERNAL_REFERENCE!, ref)],
        check: [filter(exists(triple(e, EXTERNAL_REFERENCE!, ref), pattern))],
      };
    }
    case 'timeseries': {
      // Every style of docs/brick-mapping.md, `timeseriesId`, over the predicates the site holds; none held:
      // no entity carries one.
      const path = timeseriesPath(predicatesOf(profile));
      if (!path || c.ids.length === 0) return undefined;
      const [id, ids] = [variable(scope, 'ts'), c.ids.map((value) => literal(value))];
      const carried = [values(id, ids), triple(e, path, id)];
      return { generate: carried, check: [filter(exists(...carried))] };
    }
    case 'class':
      return {
        generate: classGenerator(e, c.classes.closure, k),
        check: [filter(exists(classTest(e, c.classes.closure, k)))],
      };
    case 'kind':
      // The profile lists the untyped entities (or says there are none) instead of the scan that
      // finds them. As a check the kind adds nothing: every result's kind is checked in JavaScript.
      return { generate: kindGenerator(e, c.kind, c.classes, scope, profile, true) };
    case 'name':
      return { check: nameFilter(e, c.name, variable(scope, 'name')) };
    case 'property': {
      const check = [propertyTest(e, c.name, c.value)];
      if (c.name === undefined || !profile?.predicates) return { check };
      const predicates = [...profile.predicates].filter((p) => namesPredicate(c.name!, p));
      return predicates.length > 0 ? { generate: [propertyGenerator(e, predicates, c.value)], check } : undefined;
    }
    case 'inLocation': {
      const contents =
        kind === 'Point' ? locationPaths.points : kind === 'Zone' ? locationPaths.zones : locationPaths.equipment;
      return viaAnchor(
        { ref: c.location, kind: 'Location', classes: c.locationClasses },
        contents(true, paths),
        scope,
        context,
      );
    }
    case 'ofEquipment':
      return viaAnchor(
        { ref: c.equipment, kind: 'Equipment', classes: c.equipmentClasses },
        paths.point,
        scope,
        context,
      );
    case 'equipmentClass': {
      const owner = variable(scope, 'a');
      return {
        generate: [...classGenerator(owner, c.classes.closure, k), triple(owner, paths.point, e)],
        // A join, as in `viaAnchor`: two patterns in an EXISTS were planned from the class side.
        join: [triple(e, inverse(paths.point), owner), ...classTest(owner, c.classes.closure, k)],
      };
    }
    case 'ofZone':
      return viaAnchor({ ref: c.zone, kind: 'Zone', classes: c.zoneClasses }, zonePoints(paths), scope, context);
    case 'inSystem': {
      const system: Reference = { ref: c.system, kind: 'System', classes: c.systemClasses };
      if (kind !== 'Point') return viaAnchor(system, paths.part, scope, context);
      // A system's own points and its members' (not a sub-system's), as System.points says.
      const anchor = variable(scope, 'a');
      const generator = refGenerator(anchor, system, scope, context);
      const test = refTest(anchor, system, scope, context);
      if (!generator || !test) return undefined;
      const branches = relations['System.points'];
      if (isTraversal(branches)) return undefined;
      const pattern = branches.pattern(anchor, e, {
        args: { recursive: false },
        paths,
        anchor: generator,
        scope,
        unmarked: context.unmarked,
      });
      // The check walks out from the bound ?e as a join (see `viaAnchor`; the two branches in an
      // EXISTS took a minute at 1M triples): the point's owner (or the point, as a member
      // itself), then that owner or its whole, which must be the system; an owner that is not
      // the system itself must not be a system.
      const [owner, ownerKind] = [variable(scope, 'o'), variable(scope, 'ok')];
      return {
        generate: anchored(generator, pattern),
        join: [
          triple(e, inverse(zeroOrOne(paths.point)), owner),
          triple(owner, inverse(zeroOrOne(paths.part)), anchor),
          ...test,
          optional(kindTest(owner, 'System', ownerKind, context.unmarked.System)),
          filter(op('||', op('=', owner, anchor), op('!', op('bound', ownerKind)))),
        ],
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
export function rootQuery(
  plan: RootPlan,
  facts: Facts,
  profile?: SiteProfile,
  ids: SiteIds = SiteIds.UNIQUE,
): SelectQuery | undefined {
  const context: SiteContext = { profile, ids, unmarked: plan.unmarked ?? {} };
  const compiled = plan.constraints.map((c, index) => ({
    c,
    compiled: compileConstraint(c, plan.kind, `c${index}`, context),
  }));
  if (compiled.some((entry) => entry.compiled === undefined)) return undefined;
  const generator = compiled
    .filter((entry) => entry.compiled!.generate)
    .sort((a, b) => generatorRank(a.c) - generatorRank(b.c))[0];
  if (!generator) throw new Error('A root plan needs a constraint that binds ?e');
  const others = compiled.filter((entry) => entry !== generator).map((entry) => entry.compiled!);
  const tests = others.flatMap((c) => c.check ?? c.join ?? []);
  const candidates = [...generator.compiled!.generate!, ...tests];
  // A joined test can repeat `?e`, and its facts with it: the candidates are made distinct first.
  const distinct = others.some((c) => c.join) ? [subquery([e], candidates, true)] : candidates;
  return selectEntities(plan.graph, distinct, [e, tag], facts, profile);
}
