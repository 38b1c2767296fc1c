/**
 * The alignment of a site: reads its IFC elements (every read IFC file), its graph's entities
 * (through the query layer: a fixed number of queries, whatever the site's size) and the pairs
 * users rejected, runs the engine (align.ts), and writes accepted links into the site graph, and
 * removes rejected ones, as changes of the graph by the triple (each a version of it, made by
 * whoever decided), which tell the site caches, so `entityByIfcId` answers at once.
 */
import type { Database } from '../db/database.ts';
import { AppError, notFound } from '../errors/app-error.ts';
import { IfcModelStore } from '../files/ifc-model-store.ts';
import type { RequestWork } from '../limits/request-work.ts';
import { queryEntities, type Entity } from '../query/query-entities.ts';
import type { QueryLayer } from '../query/query-layer.ts';
import { siteGraph } from '../rdf/vocabulary.ts';
import type { GraphStore } from '../store/graph-store.ts';
import type { GraphHistory } from '../history/graph-history.ts';
import type { VersionAuthor } from '../history/version-store.ts';
import { runUpdate } from '../graphs/run-update.ts';
import { triplesOfNTriples } from '../rdf/rdf-patch.ts';
import { align, pairKey, type AlignElement, type AlignEntity, type AlignResult, type Proposal } from './align.ts';
import { classMatcher, type ClassMatch } from './class-matcher.ts';
import { ifcBrickClass, IFC_BRICK_CLASSES } from './ifc-brick-classes.ts';
import { portNeighbours } from './port-neighbours.ts';
import { linkRemoval, linkTriples, type IfcLink } from './link-triples.ts';
import { RejectionStore } from './rejection-store.ts';

/** What a site's alignment is computed from, and its result. */
export interface SiteAlignment extends AlignResult {
  /** The read IFC files by id: their names and IfcProject GlobalIds. */
  readonly files: ReadonlyMap<string, { readonly name: string; readonly projectId: string | null }>;
}

/** Which proposals an accept or reject means: by id, or every open one scoring at least `minScore`. */
export type Selection = { readonly ids: readonly string[] } | { readonly minScore: number };

const FIELDS = ['id', 'uri', 'name', 'type', 'ifcId'] as const;
type Fetched = Entity<(typeof FIELDS)[number], 'uri'>;

const STOREY = IFC_BRICK_CLASSES.find((entry) => entry.ifc === 'IfcBuildingStorey')!;
/** Location chains longer than this are not followed (a broken model may loop). */
const MAX_CHAIN = 16;

export class AlignmentService {
  private readonly rejections: RejectionStore;
  private readonly ifc: IfcModelStore;
  /** The decision each site is running or waiting for (`inTurn`). */
  private readonly decisions = new Map<string, Promise<void>>();

  constructor(
    db: Database,
    private readonly query: QueryLayer,
    private readonly store: GraphStore,
    private readonly history: GraphHistory,
  ) {
    this.rejections = new RejectionStore(db);
    this.ifc = new IfcModelStore(db);
  }

  /** The site's alignment now: proposals (accepted, open, rejected), mappable elements and entities. */
  async compute(siteId: string, work?: RequestWork): Promise<SiteAlignment> {
    const [rows, files, connections, rejected] = await Promise.all([
      // Only the classes the table maps: a model's walls, slabs, pipes and fittings never leave the database.
      this.ifc.siteElements(
        siteId,
        IFC_BRICK_CLASSES.map((entry) => entry.ifc),
      ),
      this.ifc.siteReadFiles(siteId),
      this.ifc.siteConnections(siteId),
      this.rejections.list(siteId),
    ]);
    const elements: AlignElement[] = rows.map((row) => ({
      fileId: row.file_id,
      globalId: row.global_id,
      ifcClass: row.ifc_class,
      name: row.name,
      storey: row.storey,
      tag: row.tag ?? '',
    }));
    const matches = classMatcher(await this.query.siteOntology(siteId));
    const entities =
      elements.length === 0 ? [] : await this.entities(siteId, elements, connections.length > 0, matches, work);
    const mappable = new Set(elements.map((e) => `${e.fileId}\u0000${e.globalId}`));
    const result = align({
      elements,
      entities,
      matches,
      connections: portNeighbours(connections, (fileId, globalId) => mappable.has(`${fileId}\u0000${globalId}`)),
      rejected: new Set(rejected.map((r) => pairKey(r.fileId, r.globalId, r.entityIri))),
    });
    return { ...result, files: new Map(files.map((f) => [f.id, { name: f.name, projectId: f.ifc_project_id }])) };
  }

  /** Writes the links of the selected open (or rejected) proposals; answers how many (an accepted one again counts none). */
  accept(siteId: string, selection: Selection, by: VersionAuthor, work?: RequestWork): Promise<number> {
    return this.inTurn(siteId, () => this.acceptNow(siteId, selection, by, work));
  }

  /** Rejects the selected proposals (removing the links of accepted ones from the graph); answers how many (a rejected one again counts none). */
  reject(siteId: string, selection: Selection, by: VersionAuthor, work?: RequestWork): Promise<number> {
    return this.inTurn(siteId, () => this.rejectNow(siteId, selection, by, work));
  }

  /**
   * Runs a site's decisions one after the other in this process: two accepts of the same proposal
   * at once would otherwise both see it open and state its link twice.
   */
  private inTurn<T>(siteId: string, decide: () => Promise<T>): Promise<T> {
    const previous = this.decisions.get(siteId) ?? Promise.resolve();
    const turn = previous.then(decide, decide);
    const settled = turn.then(
      () => undefined,
      () => undefined,
    );
    this.decisions.set(siteId, settled);
    void settled.then(() => {
      if (this.decisions.get(siteId) === settled) this.decisions.delete(siteId);
    });
    return turn;
  }

  private async acceptNow(
    siteId: string,
    selection: Selection,
    by: VersionAuthor,
    work?: RequestWork,
  ): Promise<number> {
    const alignment = await this.compute(siteId, work);
    const chosen = select(alignment.proposals, selection, ['proposed', 'rejected']);
    if (chosen.length === 0) return 0;
    // One-to-one holds for what users accept too: a rejected pair whose element or entity is linked meanwhile waits for that link's rejection.
    const linked = alignment.proposals.filter((p) => p.status === 'accepted');
    const clash = chosen.find((c) =>
      linked.some((l) => (l.fileId === c.fileId && l.globalId === c.globalId) || l.entityIri === c.entityIri),
    );
    if (clash) {
      throw new AppError(
        'CONFLICT',
        `Proposal ${clash.id} pairs ${clash.globalId} with ${clash.entityId}, but one of them is linked already: reject that link first.`,
        { id: clash.id },
      );
    }
    const links: IfcLink[] = chosen.map((p) => {
      const file = alignment.files.get(p.fileId);
      return {
        entityIri: p.entityIri,
        globalId: p.globalId,
        fileId: p.fileId,
        fileName: file?.name ?? p.fileId,
        projectId: file?.projectId,
      };
    });
    await this.rejections.remove(
      siteId,
      chosen.filter((p) => p.status === 'rejected'),
    );
    const message = `accepted ${links.length} IFC link${links.length === 1 ? '' : 's'}`;
    await this.history.write({ site: siteId, by, via: 'alignment', message }, async () => {
      const made = await this.store.changeGraph(siteGraph(siteId), {
        remove: [],
        add: triplesOfNTriples(linkTriples(links)),
      });
      return { ...made, added: made.patch.add.length, removed: 0, result: made };
    });
    return chosen.length;
  }

  private async rejectNow(
    siteId: string,
    selection: Selection,
    by: VersionAuthor,
    work?: RequestWork,
  ): Promise<number> {
    const alignment = await this.compute(siteId, work);
    const chosen = select(alignment.proposals, selection, ['proposed', 'accepted']);
    if (chosen.length === 0) return 0;
    const accepted = chosen.filter((p) => p.status === 'accepted');
    if (accepted.length > 0) {
      // The reference nodes stating the links go, each with every triple about it: a change the size of the links.
      const graph = siteGraph(siteId);
      const message = `rejected ${accepted.length} IFC link${accepted.length === 1 ? '' : 's'}`;
      await this.history.write({ site: siteId, by, via: 'alignment', message }, async () => {
        const made = await runUpdate(this.store, graph, [linkRemoval(graph, accepted)], work);
        return { ...made, result: made };
      });
    }
    // After the links are gone: a removal refused leaves the proposals as they were.
    await this.rejections.add(siteId, chosen);
    return chosen.length;
  }

  /**
   * The graph's entities an IFC element may be: buildings, locations, zones, equipment (and points
   * when the model has sensors), each with the floor its location chain reaches, and what it feeds
   * and is fed by when the model has port connections. One query per kind and relation.
   */
  private async entities(
    siteId: string,
    elements: readonly AlignElement[],
    connected: boolean,
    matches: ClassMatch,
    work?: RequestWork,
  ): Promise<AlignEntity[]> {
    const groups = new Set(elements.map((e) => ifcBrickClass(e.ifcClass)?.group));
    const ask = (kind: 'Building' | 'Location' | 'Zone' | 'Equipment' | 'Point', related?: string) =>
      queryEntities(this.query, {
        siteId,
        kind,
        fields: FIELDS,
        work,
        ...(related ? { related: { field: related, fields: ['uri'] as const } } : {}),
      }) as Promise<Fetched[]>;
    const none = Promise.resolve([] as Fetched[]);
    const [buildings, locations, zones, equipment, points, feeds] = await Promise.all([
      groups.has('building') ? ask('Building') : none,
      ask('Location', 'parent'),
      groups.has('space') ? ask('Zone', 'locations') : none,
      groups.has('equipment') || groups.has('sensor') ? ask('Equipment', 'location') : none,
      groups.has('sensor') ? ask('Point', 'location') : none,
      connected ? ask('Equipment', 'feeds') : none,
    ]);
    const byIri = new Map<string, Fetched>();
    for (const entity of [...buildings, ...locations, ...zones, ...equipment, ...points])
      if (!byIri.has(entity.iri)) byIri.set(entity.iri, entity);
    const parentOf = new Map(locations.map((l) => [l.iri, l.related[0]?.iri]));
    const isFloor = (iri: string) => {
      const entity = byIri.get(iri);
      return entity !== undefined && matches(STOREY, entity.type);
    };
    const floorOf = (start: string | undefined): AlignEntity['floor'] => {
      for (let at = start, steps = 0; at !== undefined && steps < MAX_CHAIN; at = parentOf.get(at), steps++) {
        if (isFloor(at)) return { iri: at, name: byIri.get(at)!.name };
      }
      return null;
    };
    const placed = new Map<string, string | undefined>();
    for (const list of [zones, equipment, points])
      for (const e of list)
        if (!placed.has(e.iri)) placed.set(e.iri, e.related.find((r) => floorOf(r.iri))?.iri ?? e.related[0]?.iri);
    const connections = new Map<string, string[]>();
    const join = (from: string, to: string) => {
      const list = connections.get(from);
      if (list) list.push(to);
      else connections.set(from, [to]);
    };
    for (const e of feeds) {
      for (const target of e.related) {
        join(e.iri, target.iri);
        join(target.iri, e.iri);
      }
    }
    return [...byIri.values()].map((e) => ({
      iri: e.iri,
      id: e.id,
      name: e.name,
      type: e.type,
      ifcIds: e.ifcId === null ? [] : [e.ifcId],
      floor: isFloor(e.iri) ? null : floorOf(parentOf.has(e.iri) ? parentOf.get(e.iri) : placed.get(e.iri)),
      connected: connections.get(e.iri) ?? [],
    }));
  }
}

/**
 * The proposals a selection means among those of `statuses` (by ids, those already decided the
 * same way are left out); an id that is no proposal at all is a 404 naming it, and nothing changes.
 */
function select(
  proposals: readonly Proposal[],
  selection: Selection,
  statuses: readonly Proposal['status'][],
): Proposal[] {
  if ('minScore' in selection) return proposals.filter((p) => p.status === 'proposed' && p.score >= selection.minScore);
  const byId = new Map(proposals.map((p) => [p.id, p]));
  const unknown = selection.ids.filter((id) => !byId.has(id));
  if (unknown.length > 0)
    throw notFound(
      `No such proposal: ${unknown.slice(0, 10).join(', ')}${unknown.length > 10 ? ` and ${unknown.length - 10} more` : ''}.`,
    );
  return [...new Set(selection.ids)].map((id) => byId.get(id)!).filter((p) => statuses.includes(p.status));
}
