/** How a load of a site's graph (`PUT`/`POST …/graph`) goes, as `GET …/graph/load` tells it. */
export interface GraphLoadStatus {
  readonly site: string;
  /** receiving: the body is arriving; parsing: the store is reading it; then done or failed. */
  readonly state: 'receiving' | 'parsing' | 'done' | 'failed';
  readonly replace: boolean;
  /** The body's size when the client said it (Content-Length). */
  readonly bytesTotal: number | null;
  readonly bytesReceived: number;
  /** Bytes of the document the store has parsed (the embedded store tells; others say 0 until done). */
  readonly bytesParsed: number;
  /** Parsing rate so far, bytes per second. */
  readonly bytesPerSecond: number | null;
  /** Triples in the bytes parsed so far, when the store can tell (the embedded store: N-Triples and N-Quads by their lines, Turtle of 16 MiB or more as its journal rewrite counts them). */
  readonly triplesParsed: number | null;
  /** Triples parsed per second so far, when they are known. */
  readonly triplesPerSecond: number | null;
  /** Triples in the graph once the load is done. */
  readonly triples: number | null;
  readonly startedAt: string;
  readonly seconds: number;
  readonly message: string | null;
}

/** How long a finished load stays to be asked about. */
export const KEPT_MS = 10 * 60 * 1000;

/** What is known of a load, as plain data: what a replica keeps, or shares through Redis, and any replica tells. */
export interface GraphLoadRecord {
  readonly site: string;
  readonly state: GraphLoadStatus['state'];
  readonly replace: boolean;
  readonly bytesTotal: number | null;
  readonly bytesReceived: number;
  readonly bytesParsed: number;
  readonly triplesParsed: number | null;
  readonly triples: number | null;
  readonly message: string | null;
  /** Instants (ms since the epoch, so that another replica can tell the times): started, parsing, ended. */
  readonly startedMs: number;
  readonly parsingSinceMs: number | null;
  readonly endedMs: number | null;
}

/** A load's status as `GET …/graph/load` tells it, at `now` (ms since the epoch). */
export function loadStatus(load: GraphLoadRecord, now = Date.now()): GraphLoadStatus {
  const until = load.endedMs ?? now;
  const parsing = load.parsingSinceMs === null ? 0 : (until - load.parsingSinceMs) / 1000;
  return {
    site: load.site,
    state: load.state,
    replace: load.replace,
    bytesTotal: load.bytesTotal,
    bytesReceived: load.bytesReceived,
    bytesParsed: load.bytesParsed,
    bytesPerSecond: parsing > 0 && load.bytesParsed > 0 ? Math.round(load.bytesParsed / parsing) : null,
    triplesParsed: load.triplesParsed,
    triplesPerSecond: parsing > 0 && load.triplesParsed ? Math.round(load.triplesParsed / parsing) : null,
    triples: load.triples,
    startedAt: new Date(load.startedMs).toISOString(),
    seconds: Number(((until - load.startedMs) / 1000).toFixed(3)),
    message: load.message,
  };
}

/**
 * One load being told: its route updates it as the body arrives and the store parses it, and waits
 * for its end to be told (`done`, `failed`) before it answers, so any replica knows it then.
 */
export class GraphLoad {
  private current: GraphLoadRecord;
  /** Counts the changes, so that a copy elsewhere knows when it is behind. */
  version = 0;

  constructor(
    site: string,
    replace: boolean,
    bytesTotal: number | null,
    private readonly ended: (load: GraphLoad) => Promise<void> = async () => undefined,
  ) {
    this.current = {
      site,
      state: 'receiving',
      replace,
      bytesTotal,
      bytesReceived: 0,
      bytesParsed: 0,
      triplesParsed: null,
      triples: null,
      message: null,
      startedMs: Date.now(),
      parsingSinceMs: null,
      endedMs: null,
    };
  }

  get site(): string {
    return this.current.site;
  }

  receive(bytes: number): void {
    this.change({ bytesReceived: this.current.bytesReceived + bytes });
  }

  /** The store has parsed this many bytes of the document, holding this many triples when it knows. */
  parse(bytes: number, triples?: number): void {
    const starting =
      this.current.state === 'receiving' ? { state: 'parsing' as const, parsingSinceMs: Date.now() } : {};
    this.change({ ...starting, bytesParsed: bytes, ...(triples !== undefined ? { triplesParsed: triples } : {}) });
  }

  done(triples: number): Promise<void> {
    this.change({ state: 'done', triples, bytesParsed: this.current.bytesReceived, endedMs: Date.now() });
    return this.ended(this);
  }

  failed(message: string): Promise<void> {
    this.change({ state: 'failed', message, endedMs: Date.now() });
    return this.ended(this);
  }

  /** What is known of the load now. */
  record(): GraphLoadRecord {
    return this.current;
  }

  status(): GraphLoadStatus {
    return loadStatus(this.current);
  }

  private change(fields: Partial<GraphLoadRecord>): void {
    this.current = { ...this.current, ...fields };
    this.version++;
  }
}

/** The latest load of each site's graph: what `bkg load` shows while the service parses a large upload. */
export interface GraphLoads {
  /** A load starting now, the site's latest from here on. */
  start(site: string, replace: boolean, bytesTotal: number | null): GraphLoad;
  /** The site's latest load, kept KEPT_MS after it ended; undefined when there is none. */
  latest(site: string): Promise<GraphLoadRecord | undefined>;
}

/** The latest load of each site's graph, in this process. */
export class MemoryGraphLoads implements GraphLoads {
  private readonly loads = new Map<string, GraphLoad>();

  start(site: string, replace: boolean, bytesTotal: number | null): GraphLoad {
    return this.add(new GraphLoad(site, replace, bytesTotal));
  }

  /** Keeps a load made elsewhere as the site's latest. */
  add(load: GraphLoad): GraphLoad {
    this.forgetOld();
    this.loads.set(load.site, load);
    return load;
  }

  async latest(site: string): Promise<GraphLoadRecord | undefined> {
    this.forgetOld();
    return this.loads.get(site)?.record();
  }

  private forgetOld(): void {
    const now = Date.now();
    for (const [site, load] of this.loads) {
      const { endedMs } = load.record();
      if (endedMs !== null && now - endedMs > KEPT_MS) this.loads.delete(site);
    }
  }
}
