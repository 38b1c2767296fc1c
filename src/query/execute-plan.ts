/**
 * Runs a plan: the root query, then each relation field as one query for all its parents,
 * level by level (siblings in parallel). A request's round trips are therefore fixed by the
 * shape of its selection, never by the number of results. The compiler makes every query; this
 * runs them through a `QueryRunner` and fills `currentValue` from a `CurrentValueSource`, both
 * given by the caller, so it holds no store and no readings of its own.
 */
import { AnswerCost } from './answer-cost.ts';
import { applyTags, readEntityRowsInSlices, type EntityRecord } from './entity-records.ts';
import { readExternalReferences } from './external-references.ts';
import type {
  Attribute,
  EntityKind,
  FieldPlan,
  Page,
  RootPlan,
  Selection,
  UnionSelection,
  UnmarkedClasses,
} from '../compiler/plan.ts';
import { isTraversal, relations, type TraversalRelation } from '../compiler/relations.ts';
import { kindsOf, shapeEntity, type EntityObject } from './shape-entity.ts';
import type { SiteIds } from '../compiler/site-ids.ts';
import type { SiteProfile } from '../compiler/site-profile.ts';
import {
  atMost,
  entitiesQuery,
  externalReferencesQuery,
  propertiesQuery,
  relationQuery,
  rootQuery,
  type Facts,
} from '../compiler/sparql-builder.ts';
import { traverse } from './traverse.ts';
import { MainThreadSlices, sortInSlices } from '../limits/main-thread.ts';
import type { RequestWork } from '../limits/request-work.ts';
import type { Ontology } from '../ontology/ontology.ts';
import type { SparqlRow } from '../rdf/result-row.ts';
import type { SelectQuery } from '../rdf/sparql-algebra.ts';
import { localName } from '../rdf/vocabulary.ts';
import { unitSymbol } from '../ontology/unit-symbols.ts';
import type { CurrentValueSource } from './current-value-source.ts';
import type { QueryRunner } from './query-runner.ts';

/**
 * What the executor knows of the site's graph, read before the plan runs: its profile (where one
 * is kept) shapes every query of it; its ids name its entities and the entities its id arguments name.
 */
export interface SiteState {
  readonly profile: SiteProfile | undefined;
  readonly ids: SiteIds;
}

/** What a plan runs with: where its queries go, the ontology as the site reads it, the site, and where current values come from. */
export interface ExecutionContext {
  readonly runner: QueryRunner;
  readonly ontology: Ontology;
  readonly site: SiteState;
  readonly currentValues: CurrentValueSource;
  /** The request the execution serves (its deadline, budget and client's signal); unset for the service's own work. */
  readonly work?: RequestWork;
}

/** The context of one execution: the site's state, and what the answer costs so far. */
type PlanContext = ExecutionContext & SiteState & { readonly unmarked: UnmarkedClasses; readonly cost: AnswerCost };

/** What a plan answers: a list (or a page of it), one entity or null, or a count. */
export type PlanAnswer = EntityObject[] | EntityObject | null | number;

/** The entities of one execution that selected `currentValue`, filled at the end in one lookup. */
type ValueRequests = Array<{ object: EntityObject; keys: readonly string[] }>;

// Which member a KgEntity becomes when its classes put it in several kinds.
const unionPreference: readonly EntityKind[] = ['Building', 'Zone', 'Location', 'System', 'Equipment', 'Point'];

/** Runs a plan and returns the shaped result: a list (or a page of it), one entity or null, or a count. */
export async function executePlan(plan: RootPlan, context: ExecutionContext): Promise<PlanAnswer> {
  const ctx: PlanContext = {
    ...context,
    ...context.site,
    unmarked: plan.unmarked ?? {},
    cost: new AnswerCost(context.work),
  };
  if (plan.answer === 'count') return (await rootCandidates(plan, ctx)).length;
  const union = 'union' in plan.selection ? plan.selection : undefined;
  const attributes = union ? unionAttributes(union) : (plan.selection as Selection).attributes;
  const records = plan.page
    ? await entityRecords(
        plan.graph,
        inPage(await sortInSlices(await rootCandidates(plan, ctx), ctx.work?.signal), plan.page),
        attributes,
        ctx,
      )
    : await rootRecords(plan, attributes, ctx);

  // The selection of each entity kept: the plan's, or its union member's. No map of the kept
  // entities: a Map of half a million entries held the main thread ~100 ms each time it grew.
  const slices = new MainThreadSlices(ctx.work?.signal);
  const selectionOf = (record: EntityRecord): Selection | undefined => {
    const kinds = kindsOf(record, ctx.ontology);
    if (!union) return kinds.has(plan.kind!) ? (plan.selection as Selection) : undefined;
    const kind = unionPreference.find((k) => kinds.has(k) && union.union.has(k));
    return kind && union.union.get(kind);
  };
  const iris: string[] = [];
  for (const record of records.values()) {
    if (selectionOf(record)) iris.push(record.iri);
    const pause = slices.step();
    if (pause) await pause;
  }
  const order = await sortInSlices(iris, ctx.work?.signal);
  const results: EntityObject[] = [];
  // Union results of different kinds carry different selections: each group is filled on its own.
  const groups = new Map<Selection, EntityObject[]>();
  for (const iri of plan.answer === 'one' ? order.slice(0, 1) : order) {
    const record = records.get(iri)!;
    const selection = selectionOf(record)!;
    const object = shapeEntity(record, selection, ctx.ontology, ctx.ids);
    results.push(object);
    const group = groups.get(selection);
    if (group) group.push(object);
    else groups.set(selection, [object]);
    ctx.cost.root(object);
    const pause = slices.step();
    if (pause) await pause;
  }
  const values: ValueRequests = [];
  await Promise.all(
    [...groups].map(([selection, entities]) => fillRelations(plan.graph, selection, entities, ctx, values)),
  );
  await fillCurrentValues(plan.siteId, values, ctx);
  return plan.answer === 'one' ? (results[0] ?? null) : results;
}

/** Lists are in IRI order (code-unit order of the IRIs, as `sortInSlices` sorts strings): pages of them concatenate to the whole. */
const byIri = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** The page of an ordered list. */
function inPage<T>(items: readonly T[], page: Page): T[] {
  return items.slice(page.offset, page.limit === undefined ? undefined : page.offset + page.limit);
}

/** The root query's entities with `facts`; none when a constraint can match nothing (an impossible id). */
async function rootRecords(plan: RootPlan, facts: Facts, ctx: PlanContext): Promise<Map<string, EntityRecord>> {
  const query = rootQuery(plan, facts, ctx.profile, ctx.ids);
  if (!query) return new Map();
  const { records } = await readEntityRowsInSlices(await select(plan.graph, query, ctx), ctx.work?.signal);
  applyTags(records, ctx.profile);
  return records;
}

/**
 * The IRIs of a root list, found by their kinds alone: what a count answers, and what a page is
 * cut from (once sorted) before its entities' facts are fetched (`entityRecords`), so a page costs
 * the facts of its own entities, not of the whole list.
 */
async function rootCandidates(plan: RootPlan, ctx: PlanContext): Promise<string[]> {
  const iris: string[] = [];
  const slices = new MainThreadSlices(ctx.work?.signal);
  for (const record of (await rootRecords(plan, 'kinds', ctx)).values()) {
    if (kindsOf(record, ctx.ontology).has(plan.kind!)) iris.push(record.iri);
    const pause = slices.step();
    if (pause) await pause;
  }
  return iris;
}

/** The entities `iris` with the facts of `attributes`, in one query (none for no IRIs). */
async function entityRecords(
  graph: string,
  iris: readonly string[],
  attributes: ReadonlySet<Attribute>,
  ctx: PlanContext,
): Promise<Map<string, EntityRecord>> {
  if (iris.length === 0) return new Map();
  const rows = await select(graph, entitiesQuery(graph, iris, attributes, ctx.profile), ctx);
  const { records } = await readEntityRowsInSlices(rows, ctx.work?.signal);
  applyTags(records, ctx.profile);
  return records;
}

/** One lookup for every point of the plan that selected `currentValue`; none when no point did. */
async function fillCurrentValues(siteId: string, requests: ValueRequests, ctx: ExecutionContext): Promise<void> {
  const ids = [...new Set(requests.flatMap(({ object }) => (object.__timeseriesId ? [object.__timeseriesId] : [])))];
  if (ids.length === 0) return;
  const values = (await ctx.currentValues.currentValues(new Map([[siteId, ids]]))).get(siteId);
  for (const { object, keys } of requests) {
    const value = object.__timeseriesId ? (values?.get(object.__timeseriesId) ?? null) : null;
    for (const key of keys) (object as Record<string, unknown>)[key] = value;
  }
}

function collectValueRequests(selection: Selection, entities: readonly EntityObject[], values: ValueRequests): void {
  const keys = selection.fields.filter((field) => field.type === 'currentValue').map((field) => field.key);
  if (keys.length > 0) for (const object of entities) values.push({ object, keys });
}

function unionAttributes(union: UnionSelection): Set<Attribute> {
  const all = new Set<Attribute>();
  for (const selection of union.union.values()) for (const a of selection.attributes) all.add(a);
  return all;
}

/** Fills the relation, properties and externalReferences fields of a level of entities, then of the levels below. */
async function fillRelations(
  graph: string,
  selection: Selection,
  entities: readonly EntityObject[],
  ctx: PlanContext,
  values: ValueRequests,
): Promise<void> {
  if (entities.length === 0) return;
  collectValueRequests(selection, entities, values);
  if (
    !selection.fields.some(
      (field) => field.type === 'relation' || field.type === 'properties' || field.type === 'externalReferences',
    )
  )
    return;
  // The entities of a level are one object per IRI (the root's records, a relation's `shaped`).
  const parents = entities.map((e) => e.__iri);
  await Promise.all(
    selection.fields.map(async (field) => {
      if (field.type === 'properties') return fillProperties(graph, field.key, parents, entities, ctx);
      if (field.type === 'externalReferences') return fillExternalReferences(graph, field.key, parents, entities, ctx);
      if (field.type !== 'relation') return;
      const children = await fetchRelation(graph, field, parents, ctx);
      const shaped = new Map<string, EntityObject>();
      const objectOf = (record: EntityRecord) => {
        let object = shaped.get(record.iri);
        if (!object) shaped.set(record.iri, (object = shapeEntity(record, field.selection, ctx.ontology, ctx.ids)));
        return object;
      };
      const single = relations[field.relation].single;
      const slices = new MainThreadSlices(ctx.work?.signal);
      for (const entity of entities) {
        const placed = (children.get(entity.__iri) ?? []).map(({ record }) => objectOf(record));
        ctx.cost.children(entity, placed);
        (entity as Record<string, unknown>)[field.key] = single ? (placed[0] ?? null) : placed;
        const pause = slices.step(placed.length + 1);
        if (pause) await pause;
      }
      await fillRelations(graph, field.selection, [...shaped.values()], ctx, values);
    }),
  );
}

type Child = { record: EntityRecord; order: number };

/** Children in the order of their lists: `order` (a traversal's hop count), then IRI. */
const childOrder = (a: Child, b: Child): number => a.order - b.order || byIri(a.record.iri, b.record.iri);

/**
 * The children of every parent for one relation field, in one query: each parent's list in order
 * and paged; a single relation's one best-ranked child. A paged field asks for its children's
 * kinds first, and the facts of the children on its pages in a second query.
 */
async function fetchRelation(
  graph: string,
  field: Extract<FieldPlan, { type: 'relation' }>,
  parents: readonly string[],
  ctx: PlanContext,
): Promise<Map<string, Child[]>> {
  const spec = relations[field.relation];
  const { page } = field.args;
  if (isTraversal(spec)) {
    const walked = await walk(
      spec,
      field,
      await select(
        graph,
        relationQuery(
          graph,
          field.relation,
          field.args,
          parents,
          field.selection.attributes,
          ctx.profile,
          ctx.unmarked,
        ),
        ctx,
      ),
      ctx,
    );
    if (page) for (const [parent, children] of walked) walked.set(parent, inPage(children, page));
    return walked;
  }
  const query = relationQuery(
    graph,
    field.relation,
    field.args,
    parents,
    page ? 'kinds' : field.selection.attributes,
    ctx.profile,
    ctx.unmarked,
  );
  const { records, links } = await readEntityRowsInSlices(await select(graph, query, ctx), ctx.work?.signal);
  applyTags(records, ctx.profile);
  const result = new Map<string, Child[]>();
  const slices = new MainThreadSlices(ctx.work?.signal);
  const ofKind = (iri: string) => {
    const kinds = kindsOf(records.get(iri)!, ctx.ontology);
    return spec.kinds.some((k) => kinds.has(k));
  };
  for (const [parent, children] of links) {
    const pause = slices.step(children.size);
    if (pause) await pause;
    if (spec.single) {
      // The best-ranked alternative wins (an own location before a whole's), then the first by IRI.
      const kept = [...children]
        .filter(([iri]) => ofKind(iri))
        .map(([iri, rank]) => ({ record: records.get(iri)!, order: rank }));
      result.set(parent, kept.sort(childOrder).slice(0, 1));
      continue;
    }
    // A list, sorted in slices: one parent can have every point of a building.
    const iris = await sortInSlices([...children.keys()].filter(ofKind), ctx.work?.signal);
    result.set(
      parent,
      (page ? inPage(iris, page) : iris).map((iri) => ({ record: records.get(iri)!, order: 0 })),
    );
  }
  if (!page) return result;
  const onPages = new Set<string>();
  for (const children of result.values()) for (const { record } of children) onPages.add(record.iri);
  const facts = await entityRecords(graph, [...onPages], field.selection.attributes, ctx);
  for (const [parent, children] of result) {
    // An entity deleted between the two queries is left out.
    result.set(
      parent,
      children.flatMap(({ record }) => (facts.has(record.iri) ? [{ record: facts.get(record.iri)!, order: 0 }] : [])),
    );
  }
  return result;
}

/** Upstream/downstream: the breadth-first walk on the fetched subgraph, ordered by hop count. */
async function walk(
  spec: TraversalRelation,
  field: Extract<FieldPlan, { type: 'relation' }>,
  rows: readonly SparqlRow[],
  ctx: PlanContext,
): Promise<Map<string, Child[]>> {
  const starts = new Map<string, Set<string>>();
  const edges = new Map<string, Array<[string, string]>>();
  for (const row of rows) {
    const parent = row.parent?.value;
    if (parent === undefined) continue;
    if (row.start) {
      const set = starts.get(parent) ?? new Set<string>();
      set.add(row.start.value);
      starts.set(parent, set);
    } else if (row.x && row.y) {
      const list = edges.get(parent) ?? [];
      list.push([row.x.value, row.y.value]);
      edges.set(parent, list);
    }
  }
  const { records } = await readEntityRowsInSlices(
    rows.filter((row) => row.e !== undefined),
    ctx.work?.signal,
  );
  applyTags(records, ctx.profile);
  const { medium, maxDepth, classes } = field.args;
  const ontology = ctx.ontology;
  const carriesMedium = (feeder: string): boolean => {
    const record = records.get(feeder);
    if (!record || medium === undefined) return medium === undefined;
    const outputs = record.outputs.size > 0 ? [...record.outputs] : [ontology.defaultOutputSubstance(record.types)];
    return outputs.some((s) => s !== undefined && ontology.substanceMatches(s, medium));
  };
  const closure = classes ? new Set(classes.closure) : undefined;
  const result = new Map<string, Child[]>();
  for (const [parent, startSet] of starts) {
    const reached = traverse({
      edges: edges.get(parent) ?? [],
      starts: startSet,
      direction: spec.direction,
      maxDepth,
      follows: carriesMedium,
    });
    const children: Child[] = [];
    for (const [iri, depth] of reached) {
      const record = records.get(iri);
      if (!record || !kindsOf(record, ontology).has('Equipment')) continue;
      if (closure && ![...record.types].some((t) => closure.has(t))) continue;
      children.push({ record, order: depth });
    }
    result.set(parent, children.sort(childOrder));
  }
  return result;
}

async function fillProperties(
  graph: string,
  key: string,
  parents: readonly string[],
  entities: readonly EntityObject[],
  ctx: PlanContext,
): Promise<void> {
  const rows = await select(graph, propertiesQuery(graph, parents), ctx);
  const byParent = new Map<
    string,
    Map<string, { name: string; value: string; unit: string | null; unitSymbol: string | null }>
  >();
  const slices = new MainThreadSlices(ctx.work?.signal);
  for (const row of rows) {
    const pause = slices.step();
    if (pause) await pause;
    if (!row.parent || !row.p || !row.v) continue;
    const property = {
      name: localName(row.p.value),
      value: row.v.value,
      unit: row.u ? localName(row.u.value) : null,
      unitSymbol: row.u ? unitSymbol(row.u.value) : null,
    };
    const properties = byParent.get(row.parent.value) ?? new Map();
    properties.set(`${property.name}\u0000${property.value}\u0000${property.unit}`, property);
    byParent.set(row.parent.value, properties);
  }
  for (const entity of entities) {
    const pause = slices.step();
    if (pause) await pause;
    const properties = [...(byParent.get(entity.__iri)?.values() ?? [])];
    properties.sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : a.value < b.value ? -1 : a.value > b.value ? 1 : 0,
    );
    ctx.cost.children(entity, properties);
    (entity as Record<string, unknown>)[key] = properties;
  }
}

/** The external references of a level of entities, in one query (none when the site states no reference). */
async function fillExternalReferences(
  graph: string,
  key: string,
  parents: readonly string[],
  entities: readonly EntityObject[],
  ctx: PlanContext,
): Promise<void> {
  const query = externalReferencesQuery(graph, parents, ctx.profile);
  const byParent = query ? await readExternalReferences(await select(graph, query, ctx), ctx.work?.signal) : new Map();
  const slices = new MainThreadSlices(ctx.work?.signal);
  for (const entity of entities) {
    const pause = slices.step();
    if (pause) await pause;
    const references = byParent.get(entity.__iri) ?? [];
    ctx.cost.children(entity, references);
    for (const reference of references) ctx.cost.children(reference, reference.fields);
    (entity as Record<string, unknown>)[key] = references;
  }
}

/** One round trip for the site's graph, asking no more rows than the request's budget has left. */
async function select(graph: string, query: SelectQuery, ctx: PlanContext): Promise<SparqlRow[]> {
  const rows = await ctx.runner.select(atMost(query, ctx.cost.rowLimit()), graph, ctx.work);
  ctx.cost.storeRows(rows.length);
  return rows;
}
