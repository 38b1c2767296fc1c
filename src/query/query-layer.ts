/**
 * The query layer as the rest of the service sees it: the ontology a site reads, and plans run
 * against the site's kept knowledge through one runner. GraphQL resolvers run the plans they
 * build; domain code asks for entities with `queryEntities`, and for what a graph holds with
 * `graphStatistics` and `modelReading`. Built by the composition root.
 */
import type { RootPlan } from '../compiler/plan.ts';
import type { RequestWork } from '../limits/request-work.ts';
import { readModel, type ModelFacts, type ModelReading } from '../ontology/model-reading.ts';
import type { Ontology } from '../ontology/ontology.ts';
import { siteGraph } from '../rdf/vocabulary.ts';
import type { CurrentValueSource } from './current-value-source.ts';
import { executePlan, type PlanAnswer } from './execute-plan.ts';
import { readGraphStatistics, type StatisticsOptions } from './graph-statistics.ts';
import { entityClassesQuery, entityTriplesQuery } from '../compiler/graph-statistics-queries.ts';
import { rowTermText } from '../rdf/rdf-patch.ts';
import type { QueryRunner } from './query-runner.ts';
import type { SiteKnowledge } from './site-knowledge.ts';

/**
 * How long a model reading waits for the site profile being read after a change (it reads the
 * same lists; the profile of a 5M-triple site takes ~15 s, and longer beside a restore).
 */
const READING_PROFILE_WAIT_MS = 120_000;

export class QueryLayer {
  constructor(
    private readonly runner: QueryRunner,
    /** What the site caches know of each site's graph. */
    readonly knowledge: SiteKnowledge,
  ) {}

  /** The ontology as the site reads it: what its plans are built against. */
  siteOntology(siteId: string): Promise<Ontology> {
    return this.knowledge.ontology(siteGraph(siteId));
  }

  /** Runs a plan built against `ontology` (the site's), filling `currentValue` from `currentValues`, within the request's `work` if given. */
  async execute(
    plan: RootPlan,
    ontology: Ontology,
    currentValues: CurrentValueSource,
    work?: RequestWork,
  ): Promise<PlanAnswer> {
    const profile = await this.knowledge.profile(plan.graph);
    const ids = await this.knowledge.ids(plan.graph, profile);
    return executePlan(plan, { runner: this.runner, ontology, site: { profile, ids }, currentValues, work });
  }

  /** What a site graph holds, counted (`graph-statistics.ts`), within the request's `work` if given. */
  graphStatistics(graph: string, options: StatisticsOptions): Promise<ModelFacts> {
    return readGraphStatistics(this.runner, this.knowledge, graph, options);
  }

  /** The triples of `entities` and of the blank nodes they point to, as N-Triples (what a change touched, to validate). */
  async describeEntities(graph: string, entities: readonly string[], work?: RequestWork): Promise<string> {
    if (entities.length === 0) return '';
    const rows = await this.runner.select(entityTriplesQuery(graph, entities), graph, work);
    return rows.map((row) => `${rowTermText(row.s!)} ${rowTermText(row.p!)} ${rowTermText(row.o!)} .\n`).join('');
  }

  /** The classes of each of `entities` that has one in the graph, with the superclasses the graph states of them. */
  async entityTypes(graph: string, entities: readonly string[], work?: RequestWork): Promise<Map<string, Set<string>>> {
    const types = new Map<string, Set<string>>();
    if (entities.length === 0) return types;
    for (const row of await this.runner.select(entityClassesQuery(graph, entities), graph, work)) {
      const entity = row.x!.value;
      let classes = types.get(entity);
      if (!classes) types.set(entity, (classes = new Set()));
      classes.add(row.t!.value);
    }
    return types;
  }

  /** What the service made of a site graph (a load report's reading), as the site reads the ontology. */
  async modelReading(graph: string, work?: RequestWork): Promise<ModelReading> {
    const [facts, ontology] = await Promise.all([
      this.graphStatistics(graph, { work, profileWaitMs: READING_PROFILE_WAIT_MS }),
      this.knowledge.ontology(graph),
    ]);
    return readModel(facts, ontology);
  }
}
