/**
 * The service's API as the viewer uses it: with a key, the site's `/api/v1` routes; without one,
 * the demo site through the viewer's own read-only mount (`/viewer/api`), since the demo site is
 * public. GraphQL answers anonymous callers on the demo site as it is. The alignment routes are
 * only under `/api/v1` and need a key, the demo site's too: without one they answer 401.
 */

/** A model file, as `GET /api/v1/sites/{siteId}/models` lists it (docs/files-and-models.md, "Files"). */
export interface ModelFile {
  readonly id: string;
  readonly name: string;
  readonly format: 'ifc' | 'frag' | 'glb' | 'obj';
  readonly storey: string;
  readonly sort_order: number;
  readonly size_bytes: number;
  readonly download_url: string;
  readonly source_ifc: string | null;
}

/** A storey of an IFC model, with how many of its elements stand on it. */
export interface Storey {
  readonly global_id: string;
  readonly name: string;
  readonly elevation: number | null;
  readonly element_count: number;
}

/** The graph entity an element maps to. */
export interface ElementEntity {
  readonly kind: string;
  readonly id: string;
  readonly uri: string;
  readonly name: string;
  readonly type: string;
}

/** An element of an IFC model: class, storey, and the entity it maps to (or none). */
export interface ModelElement {
  readonly ifc_id: string;
  readonly ifc_class: string;
  readonly name: string;
  readonly storey: string;
  readonly mapped: boolean;
  readonly entity: ElementEntity | null;
}

/** Where an element stands in the alignment of the IFC model with the graph (issue #23). */
export type AlignmentStatus = 'mapped' | 'proposed' | 'unmatched';

export const ALIGNMENT_STATUSES: readonly AlignmentStatus[] = ['mapped', 'proposed', 'unmatched'];

/** Counts by status, per IFC class or storey. */
export type StatusCounts = Readonly<Record<AlignmentStatus, number>>;

/** An element that should map (a storey, space, equipment or terminal) and its status. */
export interface CoverageElement {
  readonly globalId: string;
  readonly ifcClass: string;
  readonly name: string;
  readonly storey: string;
  readonly status: AlignmentStatus;
  /** The mapped entity, or the best proposal's candidate. */
  readonly entityId: string | null;
  readonly score: number | null;
}

/** The coverage report: `GET /sites/{siteId}/alignment/coverage`. */
export interface Coverage {
  readonly elements: readonly CoverageElement[];
  readonly byClass: Readonly<Record<string, StatusCounts>>;
  readonly byStorey: Readonly<Record<string, StatusCounts>>;
  readonly entitiesWithoutElement: ReadonlyArray<{
    readonly entityId: string;
    readonly entityType: string;
    readonly storey: string | null;
  }>;
}

/** One piece of evidence behind a proposal. */
export interface Evidence {
  readonly kind: 'class' | 'name' | 'tag' | 'containment' | 'connectivity';
  readonly detail: string;
  readonly weight: number;
}

/** A proposed link between an element and a graph entity. */
export interface Proposal {
  readonly id: string;
  readonly globalId: string;
  readonly ifcClass: string;
  readonly ifcName: string;
  readonly storey: string;
  readonly fileId: string;
  readonly entityId: string;
  readonly entityIri: string;
  /** The entity's Brick class (local name). */
  readonly entityType: string;
  readonly score: number;
  readonly evidence: readonly Evidence[];
  readonly status: 'proposed' | 'accepted' | 'rejected';
}

/** An answer other than 2xx, with the service's own words. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const PAGE = 10_000;
const PROPOSAL_PAGE = 100;

export class Api {
  private readonly base: string;
  /** The site under the versioned API, where the alignment routes are. */
  private readonly siteApi: string;

  constructor(
    readonly siteId: string,
    private readonly key: string | undefined,
  ) {
    this.siteApi = `/api/v1/sites/${encodeURIComponent(siteId)}`;
    this.base = key ? this.siteApi : `/viewer/api/sites/${encodeURIComponent(siteId)}`;
  }

  /** Whether calls carry an API key (else they are anonymous, on the demo site). */
  get hasKey(): boolean {
    return this.key !== undefined;
  }

  private headers(): HeadersInit {
    return this.key ? { authorization: `Bearer ${this.key}` } : {};
  }

  private async fetch(path: string, init: RequestInit = {}): Promise<Response> {
    const response = await fetch(path, { ...init, headers: { ...this.headers(), ...init.headers } });
    if (!response.ok) {
      const body = (await response.json().catch(() => ({}))) as {
        detail?: string;
        errors?: Array<{ message: string }>;
      };
      throw new ApiError(
        response.status,
        body.detail ?? body.errors?.[0]?.message ?? `${response.status} ${response.statusText}`,
      );
    }
    return response;
  }

  /** The site's model files, in display order. */
  async models(): Promise<ModelFile[]> {
    return (await this.fetch(`${this.base}/models`)).json();
  }

  /** A model file's bytes. */
  async download(model: ModelFile): Promise<ArrayBuffer> {
    return (await this.fetch(model.download_url)).arrayBuffer();
  }

  /** The storeys of an IFC model (or of the IFC file a fragments file was made from). */
  async storeys(modelId: string): Promise<Storey[]> {
    return (await this.fetch(`${this.base}/models/${modelId}/storeys`)).json();
  }

  /** One element by GlobalId, with its graph entity. */
  async element(modelId: string, ifcId: string): Promise<ModelElement> {
    return (await this.fetch(`${this.base}/models/${modelId}/elements?ifcId=${encodeURIComponent(ifcId)}`)).json();
  }

  /** The GlobalIds of every element on a storey, page by page. */
  async storeyGlobalIds(modelId: string, storey: string): Promise<string[]> {
    const ids: string[] = [];
    for (let offset = 0; ; offset += PAGE) {
      const query = `storey=${encodeURIComponent(storey)}&limit=${PAGE}&offset=${offset}`;
      const page = (await (await this.fetch(`${this.base}/models/${modelId}/elements?${query}`)).json()) as {
        count: number;
        results: Array<{ ifc_id: string }>;
      };
      ids.push(...page.results.map((e) => e.ifc_id));
      if (offset + PAGE >= page.count) return ids;
    }
  }

  /** The site's alignment coverage report. */
  async coverage(): Promise<Coverage> {
    return (await this.fetch(`${this.siteApi}/alignment/coverage`)).json();
  }

  /** The open proposals for the elements of one IFC class on one storey, best score first, every page. */
  async proposals(ifcClass: string, storey: string): Promise<Proposal[]> {
    const proposals: Proposal[] = [];
    for (let offset: number | null = 0; offset !== null;) {
      const query = new URLSearchParams({
        ifcClass,
        storey,
        status: 'proposed',
        limit: String(PROPOSAL_PAGE),
        offset: String(offset),
      });
      const page = (await (await this.fetch(`${this.siteApi}/alignment/proposals?${query}`)).json()) as {
        items: Proposal[];
        nextOffset: number | null;
      };
      proposals.push(...page.items);
      offset = page.nextOffset;
    }
    return proposals;
  }

  /** A GraphQL query; its errors become an ApiError. */
  async graphql<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    const response = await this.fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await response.json()) as { data?: T; errors?: Array<{ message: string }> };
    if (body.errors?.length) throw new ApiError(200, body.errors[0]!.message);
    return body.data as T;
  }
}
