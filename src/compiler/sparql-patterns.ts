/**
 * The graph patterns the planner composes: relationship paths read in both directions, and the
 * tests on names, ids, classes and properties. Every user value enters through `literal()` or
 * `iri()`; nothing here concatenates strings into SPARQL.
 */
import { isAbsoluteIri, iri, join, literal, sparql, trusted, type Sparql } from '../rdf/sparql.ts';
import { RELATIONSHIPS, type Relationship } from '../rdf/relationships.ts';
import { BKG, BRICK, ONTOLOGY_GRAPH, REF, localName } from '../rdf/vocabulary.ts';
import type { EntityKind, NameFilter } from './plan.ts';

/** One step of a property path: a predicate read forwards (`p`) or backwards (`^p`). */
export interface Step {
  readonly predicate: string;
  readonly inverse: boolean;
}

/** Steps that read each predicate forwards. */
export const forwardSteps = (predicates: readonly string[]): Step[] => predicates.map((predicate) => ({ predicate, inverse: false }));

/**
 * The alternatives among `steps` whose predicate the graph holds (`holds`, from the site profile),
 * as one path `(a|^b)`; undefined when it holds none. Each alternative costs the store a probe per
 * bound node, and one over a predicate the graph lacks can match nothing.
 */
export function heldAlternatives(steps: readonly Step[], holds: (predicate: string) => boolean): Sparql | undefined {
  const kept = steps.filter((step) => holds(step.predicate));
  if (kept.length === 0) return undefined;
  return sparql`(${join(
    kept.map((step) => (step.inverse ? sparql`^${iri(step.predicate)}` : iri(step.predicate))),
    '|',
  )})`;
}

const inverseSteps = (predicates: readonly string[]): Step[] => predicates.map((predicate) => ({ predicate, inverse: true }));
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
  readonly part: Sparql;
  /** `a hasPart b` or `b hasPart a`: zones and locations are linked either way. */
  readonly partEither: Sparql;
  /** `a hasPoint b`. */
  readonly point: Sparql;
  /** `a feeds b`. */
  readonly feeds: Sparql;
  /** `a feeds b`, read from b to a. */
  readonly fedBy: Sparql;
  /** `a hasLocation b`: a is located in b. */
  readonly located: Sparql;
}

/**
 * The relationship paths over the predicates a graph holds (`heldAlternatives`; the four-way
 * hasPoint path was a sixth of a 1,700-point query at 1M triples where two of its predicates
 * occur). A path none of whose predicates occur keeps its first alternative, which matches nothing
 * as well. Without `holds`, every alternative.
 */
export function relationPaths(holds: (predicate: string) => boolean = () => true): RelationPaths {
  const path = (steps: readonly Step[]) => heldAlternatives(steps, holds) ?? heldAlternatives(steps.slice(0, 1), () => true)!;
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
 * Every predicate from an entity to an external reference (MAPPING.md "Values and references"):
 * BACnet, IFC, timeseries and a site's own reference classes, and Brick 1.2's `brick:timeseries`.
 */
const REFERENCE_STEPS = [...REF_STEPS, ...forwardSteps([`${BRICK}timeseries`])];

/** The path from an entity to its external references, over the predicates the site holds; undefined when it holds none. */
export function referencePath(holds: (predicate: string) => boolean = () => true): Sparql | undefined {
  return heldAlternatives(REFERENCE_STEPS, holds);
}

/**
 * Brick's ways to a timeseries id (MAPPING.md), as one path over those the site uses: a reference
 * (`ref:hasExternalReference` or `ref:hasTimeseriesReference`) with `ref:hasTimeseriesId`, the
 * Brick 1.2 `brick:timeseries [ brick:hasTimeseriesId ]`, or `brick:hasTimeseriesId` stated on the
 * entity itself. One path, not a UNION: it goes inside an OPTIONAL, and is read from a bound id
 * back to its points as well.
 */
export function timeseriesPath(holds: (predicate: string) => boolean = () => true): Sparql | undefined {
  const references = heldAlternatives(REF_STEPS, holds);
  const viaReference = references && holds(`${REF}hasTimeseriesId`) ? sparql`(${references}/ref:hasTimeseriesId)` : undefined;
  const viaBrick = holds(`${BRICK}timeseries`) && holds(`${BRICK}hasTimeseriesId`) ? trusted('(brick:timeseries/brick:hasTimeseriesId)') : undefined;
  const direct = holds(`${BRICK}hasTimeseriesId`) ? trusted('brick:hasTimeseriesId') : undefined;
  const paths = [viaReference, viaBrick, direct].filter((path) => path !== undefined);
  return paths.length > 0 ? join(paths, '|') : undefined;
}

const LABELS = trusted('rdfs:label, skos:prefLabel, brick:label');

/**
 * The fallback kind facts of a candidate, for entities typed with no class of any kind
 * (MAPPING.md): the location end of a location link (`le`), something with points (`hp`), or a
 * point of something (`pt`). Evaluated only on bound candidates, so each test is an index probe.
 */
export function tagOf(e: Sparql, { located, point }: RelationPaths): Sparql {
  return sparql`BIND(IF(EXISTS { ?tag_x ${located} ${e} }, "le", IF(EXISTS { ${e} ${point} ?tag_y }, "hp", IF(EXISTS { ?tag_z ${point} ${e} }, "pt", ""))) AS ?tag)`;
}

/** The name of an entity as MAPPING.md defines it: rdfs:label, else skos:prefLabel, else brick:label, else its id. */
export function nameOf(e: Sparql, name: Sparql): Sparql {
  const [l0, l1, l2] = [0, 1, 2].map((i) => trusted(`${name.text}_${i}`));
  return sparql`OPTIONAL { ${e} rdfs:label ${l0!} } OPTIONAL { ${e} skos:prefLabel ${l1!} } OPTIONAL { ${e} brick:label ${l2!} }
    BIND(COALESCE(STR(${l0!}), STR(${l1!}), STR(${l2!}), REPLACE(STR(${e}), "^.*[#/]", "")) AS ${name})`;
}

/** A filter on a computed name: CONTAINS is case-insensitive, EXACT is exact. */
export function nameTest(name: Sparql, filter: NameFilter): Sparql {
  return filter.match === 'EXACT'
    ? sparql`FILTER(${name} = ${literal(filter.value)})`
    : sparql`FILTER(CONTAINS(LCASE(${name}), LCASE(${literal(filter.value)})))`;
}

/** Binds `e`'s name and keeps it only if it matches. */
export function nameFilter(e: Sparql, filter: NameFilter, name: Sparql): Sparql {
  return sparql`${nameOf(e, name)} ${nameTest(name, filter)}`;
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
export function idTest(e: Sparql, id: string): Sparql | undefined {
  const forms = idForms(id);
  const cuts = forms.localName ? ['#', '/'] : forms.suffix ? [...ID_CUTS] : [];
  const tests: Sparql[] = cuts.map((cut) => sparql`STRENDS(STR(${e}), ${literal(cut + id)})`);
  if (forms.asIri) tests.unshift(sparql`${e} = ${iri(id)}`);
  return tests.length > 0 ? sparql`FILTER(${join(tests, ' || ')})` : undefined;
}

/** True when an id names an IRI that cannot also be a local name, so it can be bound directly. */
export function isDirectIri(id: string): boolean {
  return isAbsoluteIri(id) && /[#/]/.test(id);
}

/** `e` has a type among `classes` (checked on a bound `e`). */
export function classTest(e: Sparql, classes: readonly string[], k: Sparql): Sparql {
  if (classes.length === 0) return trusted('FILTER(false)');
  return sparql`${e} a ${k} FILTER(${k} IN (${join(classes.map(iri), ', ')}))`;
}

/**
 * `e` has a class of the kind (checked on a bound `e`), through the kind marks of the ontology
 * graph: the same classes as `classTest` over the kind's list, without writing hundreds of IRIs
 * into the query (an `IN` over the 393 Equipment classes cost 3 ms per anchor at 1M triples), and
 * the site's `unmarked` classes of the kind.
 */
export function kindTest(e: Sparql, kind: EntityKind, k: Sparql, unmarked: readonly string[] = []): Sparql {
  const marked = sparql`${e} a ${k} . GRAPH ${iri(ONTOLOGY_GRAPH)} { ${k} bkg:kind ${iri(BKG + kind)} }`;
  // The site's own classes and older Brick names have no mark: listed beside the marked ones.
  return unmarked.length === 0 ? marked : sparql`{ ${marked} } UNION { VALUES ${k} { ${unmarked.map(iri)} } ${e} a ${k} . }`;
}

/** Binds `e` to every instance of `classes`, class list first so the store starts from it. */
export function classGenerator(e: Sparql, classes: readonly string[], k: Sparql): Sparql {
  if (classes.length === 0) return trusted('FILTER(false)');
  return sparql`VALUES ${k} { ${classes.map(iri)} } ${e} a ${k} .`;
}

/**
 * The entity properties of MAPPING.md, as two alternatives: a literal-valued triple other than a
 * label, and a Brick entity property (`brick:area [ brick:value 100 ; brick:hasUnit unit:M2 ]`).
 * Callers put their anchor in each branch: Oxigraph plans a UNION branch on its own, and a branch
 * without its anchor started from `?node brick:value ?v` (35 ms for two parents at 1M triples).
 */
export function propertyBranches(e: Sparql, p: Sparql, v: Sparql, unit?: Sparql): [Sparql, Sparql] {
  const node = trusted(`${p.text}_node`);
  const unitPart = unit ? sparql`OPTIONAL { ${node} (brick:hasUnit|brick:hasUnits) ${unit} }` : trusted('');
  return [sparql`${e} ${p} ${v} FILTER(isLiteral(${v}) && ${p} NOT IN (${LABELS}))`, sparql`${e} ${p} ${node} . ${node} brick:value ${v} . ${unitPart}`];
}

/**
 * `e` has a property with this name (predicate local name) and/or value, tested on a bound `e`.
 * Every EXISTS holds one triple pattern: Oxigraph plans an EXISTS as if `e` were unbound, and a
 * join inside one started from `?node brick:value ?v` for every candidate (23 s for the equipment
 * of a 100k-triple site; this form: under a millisecond for a few).
 */
export function propertyTest(e: Sparql, name: string | undefined, value: string | undefined): Sparql {
  const [p, v, node] = [trusted('?prop_p'), trusted('?prop_v'), trusted('?prop_node')];
  // STRENDS first: a cheap test before the regular expression that makes the match exact.
  const nameTests = name === undefined ? [] : [sparql`STRENDS(STR(${p}), ${literal(name)})`, sparql`REPLACE(STR(${p}), "^.*[#/]", "") = ${literal(name)}`];
  const valueTests = value === undefined ? [] : [sparql`STR(${v}) = ${literal(value)}`];
  const filter = (tests: readonly Sparql[]) => (tests.length > 0 ? sparql`FILTER(${join(tests, ' && ')})` : trusted(''));
  const literalValued = sparql`EXISTS { ${e} ${p} ${v} ${filter([sparql`isLiteral(${v})`, sparql`${p} NOT IN (${LABELS})`, ...nameTests, ...valueTests])} }`;
  const entityProperty = sparql`EXISTS { ${e} ${p} ${node} ${filter(nameTests)} FILTER EXISTS { ${node} brick:value ${v} ${filter(valueTests)} } }`;
  return sparql`FILTER(${literalValued} || ${entityProperty})`;
}

/**
 * Binds `e` to the entities with a property whose predicate is one of `predicates` (the site's
 * predicates with the asked local name, src/compiler/site-profile.ts), and this value if given.
 */
export function propertyGenerator(e: Sparql, predicates: readonly string[], value: string | undefined): Sparql {
  const [p, v] = [trusted('?prop_p'), trusted('?prop_v')];
  const anchor = sparql`VALUES ${p} { ${predicates.map(iri)} }`;
  const valueTest = value === undefined ? trusted('') : sparql`FILTER(STR(${v}) = ${literal(value)})`;
  return join(
    propertyBranches(e, p, v).map((branch) => sparql`{ ${anchor} ${branch} ${valueTest} }`),
    ' UNION ',
  );
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
    if ((forms.localName || (forms.suffix && endsAtCut(candidate, id))) && isAbsoluteIri(candidate)) candidates.add(candidate);
  }
  return [...candidates];
}
