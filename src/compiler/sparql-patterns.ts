/**
 * The graph patterns the planner composes: relationship paths read in both directions, and the
 * tests on names, ids, classes and properties, as algebra (src/rdf/sparql-algebra.ts). Every user
 * value enters as a term (`literal()`, `namedNode()`); nothing here writes SPARQL text.
 */
import { isAbsoluteIri } from '../rdf/iri.ts';
import {
  alternative,
  and,
  bind,
  boolean,
  exists,
  filter,
  graph,
  inverse,
  isIn,
  literal,
  namedNode,
  notIn,
  op,
  optional,
  or,
  patterns,
  sequence,
  triple,
  union,
  values,
  variable,
  type Expression,
  type IriTerm,
  type LiteralTerm,
  type Pattern,
  type Path,
  type VariableTerm,
} from '../rdf/sparql-algebra.ts';
import { RELATIONSHIPS, type Relationship } from '../rdf/relationships.ts';
import { BKG, BRICK, ONTOLOGY_GRAPH, RDF, RDFS, REF, SKOS, localName } from '../rdf/vocabulary.ts';
import type { EntityKind, NameFilter, PropertyName } from './plan.ts';

/** One step of a property path: a predicate read forwards (`p`) or backwards (`^p`). */
export interface Step {
  readonly predicate: string;
  readonly inverse: boolean;
}

/** Steps that read each predicate forwards. */
export const forwardSteps = (predicates: readonly string[]): Step[] =>
  predicates.map((predicate) => ({ predicate, inverse: false }));

/**
 * The alternatives among `steps` whose predicate the graph holds (`holds`, from the site profile),
 * as one path `(a|^b)`; undefined when it holds none. Each alternative costs the store a probe per
 * bound node, and one over a predicate the graph lacks can match nothing.
 */
export function heldAlternatives(steps: readonly Step[], holds: (predicate: string) => boolean): Path | undefined {
  const kept = steps.filter((step) => holds(step.predicate));
  if (kept.length === 0) return undefined;
  return alternative(
    kept.map((step) => (step.inverse ? inverse(namedNode(step.predicate)) : namedNode(step.predicate))),
  );
}

const inverseSteps = (predicates: readonly string[]): Step[] =>
  predicates.map((predicate) => ({ predicate, inverse: true }));
/** From a to b: `a forward b` or `b backward a`. */
const aToB = (link: Relationship) => [...forwardSteps(link.forward), ...inverseSteps(link.backward)];
/** From b to a. */
const bToA = (link: Relationship) => [...inverseSteps(link.forward), ...forwardSteps(link.backward)];

/**
 * The relationship paths every relation pattern is written with, each one property path of
 * alternatives so a filter can also walk it backwards (`?e ^(path) ?anchor`).
 */
export interface RelationPaths {
  /** `a hasPart b`. */
  readonly part: Path;
  /** `a hasPart b` or `b hasPart a`: zones and locations are linked either way. */
  readonly partEither: Path;
  /** `a hasPoint b`. */
  readonly point: Path;
  /** `a feeds b`. */
  readonly feeds: Path;
  /** `a feeds b`, read from b to a. */
  readonly fedBy: Path;
  /** `a hasLocation b`: a is located in b. */
  readonly located: Path;
}

/**
 * The relationship paths over the predicates a graph holds (`heldAlternatives`; the four-way
 * hasPoint path was a sixth of a 1,700-point query at 1M triples where two of its predicates
 * occur). A path none of whose predicates occur keeps its first alternative, which matches nothing
 * as well. Without `holds`, every alternative.
 */
export function relationPaths(holds: (predicate: string) => boolean = () => true): RelationPaths {
  const path = (steps: readonly Step[]) =>
    heldAlternatives(steps, holds) ?? heldAlternatives(steps.slice(0, 1), () => true)!;
  return {
    part: path(aToB(RELATIONSHIPS.part)),
    partEither: path([...aToB(RELATIONSHIPS.part), ...bToA(RELATIONSHIPS.part)]),
    point: path(aToB(RELATIONSHIPS.point)),
    feeds: path(aToB(RELATIONSHIPS.feeds)),
    fedBy: path(bToA(RELATIONSHIPS.feeds)),
    located: path(aToB(RELATIONSHIPS.located)),
  };
}

/** Every relationship path in full, for a graph whose predicates are not known. */
export const ALL_PATHS = relationPaths();

/** The predicates of Brick's reference model (`ref:`) from an entity to an external reference. */
const REF_STEPS = forwardSteps([`${REF}hasExternalReference`, `${REF}hasTimeseriesReference`]);
/**
 * Every predicate from an entity to an external reference (docs/brick-mapping.md, `externalReferences`):
 * BACnet, IFC, timeseries and a site's own reference classes, and Brick 1.2's `brick:timeseries`.
 */
const REFERENCE_STEPS = [...REF_STEPS, ...forwardSteps([`${BRICK}timeseries`])];

/** The path from an entity to its external references, over the predicates the site holds; undefined when it holds none. */
export function referencePath(holds: (predicate: string) => boolean = () => true): Path | undefined {
  return heldAlternatives(REFERENCE_STEPS, holds);
}

/**
 * Brick's ways to a timeseries id (docs/brick-mapping.md, `timeseriesId`), as one path over those the
 * site uses: a reference
 * (`ref:hasExternalReference` or `ref:hasTimeseriesReference`) with `ref:hasTimeseriesId`, the
 * Brick 1.2 `brick:timeseries [ brick:hasTimeseriesId ]`, or `brick:hasTimeseriesId` stated on the
 * entity itself. One path, not a UNION: it goes inside an OPTIONAL, and is read from a bound id
 * back to its points as well.
 */
export function timeseriesPath(holds: (predicate: string) => boolean = () => true): Path | undefined {
  const references = heldAlternatives(REF_STEPS, holds);
  const viaReference =
    references && holds(`${REF}hasTimeseriesId`)
      ? sequence([references, namedNode(`${REF}hasTimeseriesId`)])
      : undefined;
  const viaBrick =
    holds(`${BRICK}timeseries`) && holds(`${BRICK}hasTimeseriesId`)
      ? sequence([namedNode(`${BRICK}timeseries`), namedNode(`${BRICK}hasTimeseriesId`)])
      : undefined;
  const direct = holds(`${BRICK}hasTimeseriesId`) ? namedNode(`${BRICK}hasTimeseriesId`) : undefined;
  const paths = [viaReference, viaBrick, direct].filter((path) => path !== undefined);
  return paths.length > 0 ? alternative(paths) : undefined;
}

const LABELS = [`${RDFS}label`, `${SKOS}prefLabel`, `${BRICK}label`].map(namedNode);
const [HAS_UNIT, HAS_UNITS, VALUE] = [`${BRICK}hasUnit`, `${BRICK}hasUnits`, `${BRICK}value`].map(namedNode) as [
  IriTerm,
  IriTerm,
  IriTerm,
];
const [TAG, TAG_X, TAG_Y, TAG_Z] = ['tag', 'tag_x', 'tag_y', 'tag_z'].map((name) => variable(name)) as [
  VariableTerm,
  VariableTerm,
  VariableTerm,
  VariableTerm,
];
const [LE, HP, PT, NONE, LOCAL_NAME, NOTHING] = ['le', 'hp', 'pt', '', '^.*[#/]', ''].map((value) =>
  literal(value),
) as LiteralTerm[];
const [TYPE, ONTOLOGY, KIND] = [namedNode(`${RDF}type`), namedNode(ONTOLOGY_GRAPH), namedNode(`${BKG}kind`)];

/** `REPLACE(STR(e), "^.*[#/]", "")`: the local name of an IRI. */
export const localNameOf = (e: Expression): Expression => op('replace', op('str', e), LOCAL_NAME!, NOTHING!);

/**
 * The fallback kind facts of a candidate, for entities typed with no class of any kind
 * (docs/brick-mapping.md, "Kinds add up"): the location end of a location link (`le`), something with
 * points (`hp`), or a point of something (`pt`). Evaluated only on bound candidates, so each test is an
 * index probe.
 */
export function tagOf(e: VariableTerm, { located, point }: RelationPaths): Pattern {
  const test = (pattern: Pattern, tag: LiteralTerm, otherwise: Expression) => op('if', exists(pattern), tag, otherwise);
  return bind(
    test(triple(TAG_X, located, e), LE!, test(triple(e, point, TAG_Y), HP!, test(triple(TAG_Z, point, e), PT!, NONE!))),
    TAG,
  );
}

/**
 * The name of an entity (docs/brick-mapping.md, "Names"): rdfs:label, else skos:prefLabel, else
 * brick:label, else its id.
 */
export function nameOf(e: VariableTerm, name: VariableTerm): Pattern[] {
  const labels = LABELS.map((label, i) => ({ label, v: variable(name, i) }));
  return [
    ...labels.map(({ label, v }) => optional(triple(e, label, v))),
    bind(op('coalesce', ...labels.map(({ v }) => op('str', v)), localNameOf(e)), name),
  ];
}

/** A filter on a computed name: CONTAINS is case-insensitive, EXACT is exact. */
export function nameTest(name: VariableTerm, test: NameFilter): Pattern {
  return test.match === 'EXACT'
    ? filter(op('=', name, literal(test.value)))
    : filter(op('contains', op('lcase', name), op('lcase', literal(test.value))));
}

/** Binds `e`'s name and keeps it only if it matches. */
export function nameFilter(e: VariableTerm, test: NameFilter, name: VariableTerm): Pattern[] {
  return [...nameOf(e, name), nameTest(name, test)];
}

/** Where an id that is a suffix of its entity's IRI may start: right after one of these. */
export const ID_CUTS: ReadonlySet<string> = new Set(['#', '/', ':']);

/** True when `entity` ends with `id` right after a cut (`ID_CUTS`). */
export function endsAtCut(entity: string, id: string): boolean {
  return entity.length > id.length && entity.endsWith(id) && ID_CUTS.has(entity[entity.length - id.length - 1]!);
}

/**
 * How an id argument names entities (`site-ids.ts`): as a local name (no `#` or `/`), as a suffix
 * of IRIs after a cut (`b1/ahu-1`), and/or as a full IRI; none of them: it names nothing.
 */
function idForms(id: string): { readonly localName: boolean; readonly suffix: boolean; readonly asIri: boolean } {
  const cut = /[#/]/.test(id);
  const asIri = isAbsoluteIri(id);
  // A suffix must be able to end an IRI: no space, quote or second `#`.
  return { localName: !cut && id.length > 0, suffix: cut && !asIri && isAbsoluteIri(`urn:id:${id}`), asIri };
}

/**
 * Selects the entities an id names: a full IRI, a local name (after the last `#` or `/`), or a
 * suffix of the IRI after a `#`, `/` or `:` (the ids of entities that share a local name).
 * A value that can be none of them matches nothing, which the caller learns as `undefined`.
 */
export function idTest(e: VariableTerm, id: string): Pattern | undefined {
  const forms = idForms(id);
  const cuts = forms.localName ? ['#', '/'] : forms.suffix ? [...ID_CUTS] : [];
  const tests: Expression[] = cuts.map((cut) => op('strends', op('str', e), literal(cut + id)));
  if (forms.asIri) tests.unshift(op('=', e, namedNode(id)));
  return tests.length > 0 ? filter(or(tests)) : undefined;
}

/** True when an id names an IRI that cannot also be a local name, so it can be bound directly. */
export function isDirectIri(id: string): boolean {
  return isAbsoluteIri(id) && /[#/]/.test(id);
}

/** A pattern that matches nothing. */
export const NO_MATCH: Pattern = filter(boolean(false));

/** `e` has a type among `classes` (checked on a bound `e`). */
export function classTest(e: VariableTerm, classes: readonly string[], k: VariableTerm): Pattern[] {
  if (classes.length === 0) return [NO_MATCH];
  return [triple(e, TYPE, k), filter(isIn(k, classes.map(namedNode)))];
}

/**
 * `e` has a class of the kind (checked on a bound `e`), through the kind marks of the ontology
 * graph: the same classes as `classTest` over the kind's list, without writing hundreds of IRIs
 * into the query (an `IN` over the 393 Equipment classes cost 3 ms per anchor at 1M triples), and
 * the site's `unmarked` classes of the kind.
 */
export function kindTest(
  e: VariableTerm,
  kind: EntityKind,
  k: VariableTerm,
  unmarked: readonly string[] = [],
): Pattern[] {
  const marked = [triple(e, TYPE, k), graph(ONTOLOGY, triple(k, KIND, namedNode(BKG + kind)))];
  // The site's own classes and older Brick names have no mark: listed beside the marked ones.
  return unmarked.length === 0 ? marked : [union([marked, [values(k, unmarked.map(namedNode)), triple(e, TYPE, k)]])];
}

/** Binds `e` to every instance of `classes`, class list first so the store starts from it. */
export function classGenerator(e: VariableTerm, classes: readonly string[], k: VariableTerm): Pattern[] {
  if (classes.length === 0) return [NO_MATCH];
  return [values(k, classes.map(namedNode)), triple(e, TYPE, k)];
}

/**
 * An entity's properties, as two alternatives: a literal-valued triple other than a
 * label, and a Brick entity property (`brick:area [ brick:value 100 ; brick:hasUnit unit:M2 ]`).
 * Callers put their anchor in each branch: Oxigraph plans a UNION branch on its own, and a branch
 * without its anchor started from `?node brick:value ?v` (35 ms for two parents at 1M triples).
 */
export function propertyBranches(
  e: VariableTerm,
  p: VariableTerm,
  v: VariableTerm,
  unit?: VariableTerm,
): [Pattern[], Pattern[]] {
  const node = variable(p, 'node');
  const unitPart = unit ? optional(triple(node, alternative([HAS_UNIT, HAS_UNITS]), unit)) : undefined;
  return [
    [triple(e, p, v), filter(op('&&', op('isliteral', v), notIn(p, LABELS)))],
    patterns(triple(e, p, node), triple(node, VALUE, v), unitPart),
  ];
}

const [PROP_P, PROP_V, PROP_NODE] = ['prop_p', 'prop_v', 'prop_node'].map((name) => variable(name)) as [
  VariableTerm,
  VariableTerm,
  VariableTerm,
];

/** Whether a predicate is the one a property name names: that IRI exactly, or any with that local name. */
export const namesPredicate = (name: PropertyName, predicate: string): boolean =>
  'iri' in name ? predicate === name.iri : localName(predicate) === name.localName;

/**
 * `e` has a property with this name (a predicate IRI, or a local name) and/or value, tested on a bound `e`.
 * Every EXISTS holds one triple pattern: Oxigraph plans an EXISTS as if `e` were unbound, and a
 * join inside one started from `?node brick:value ?v` for every candidate (23 s for the equipment
 * of a 100k-triple site; this form: under a millisecond for a few).
 */
export function propertyTest(e: VariableTerm, name: PropertyName | undefined, value: string | undefined): Pattern {
  const [p, v, node] = [PROP_P, PROP_V, PROP_NODE];
  // For a local name, STRENDS first: a cheap test before the regular expression that makes the match exact.
  const nameTests =
    name === undefined
      ? []
      : 'iri' in name
        ? [op('=', p, namedNode(name.iri))]
        : [op('strends', op('str', p), literal(name.localName)), op('=', localNameOf(p), literal(name.localName))];
  const valueTests = value === undefined ? [] : [op('=', op('str', v), literal(value))];
  const test = (tests: readonly Expression[]) => (tests.length > 0 ? filter(and(tests)) : undefined);
  const literalValued = exists(
    triple(e, p, v),
    test([op('isliteral', v), notIn(p, LABELS), ...nameTests, ...valueTests]),
  );
  const entityProperty = exists(
    triple(e, p, node),
    test(nameTests),
    filter(exists(triple(node, VALUE, v), test(valueTests))),
  );
  return filter(op('||', literalValued, entityProperty));
}

/**
 * Binds `e` to the entities with a property whose predicate is one of `predicates` (the site's
 * predicates with the asked local name, src/compiler/site-profile.ts), and this value if given.
 */
export function propertyGenerator(e: VariableTerm, predicates: readonly string[], value: string | undefined): Pattern {
  const anchor = values(PROP_P, predicates.map(namedNode));
  const valueTest = value === undefined ? undefined : filter(op('=', op('str', PROP_V), literal(value)));
  return union(propertyBranches(e, PROP_P, PROP_V).map((branch) => [anchor, branch, valueTest]));
}

/**
 * The IRIs an id can name (as `idTest` reads it) in a site whose entities use these namespaces:
 * the id itself if it is an IRI, each namespace followed by the id if it is a local name, and
 * each namespace followed by its local name that ends with it if it is a suffix (`b1/ahu-1`).
 * `undefined` when it can name nothing.
 */
export function idCandidates(id: string, namespaces: readonly string[]): string[] | undefined {
  const forms = idForms(id);
  if (!forms.localName && !forms.suffix && !forms.asIri) return undefined;
  const candidates = new Set<string>(forms.asIri ? [id] : []);
  const name = localName(id);
  for (const ns of namespaces) {
    const candidate = ns + name;
    if ((forms.localName || (forms.suffix && endsAtCut(candidate, id))) && isAbsoluteIri(candidate))
      candidates.add(candidate);
  }
  return [...candidates];
}
