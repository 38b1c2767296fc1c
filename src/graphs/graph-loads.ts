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
const KEPT_MS = 10 * 60 * 1000;

/** One load being told: its route updates it as the body arrives and the store parses it. */
export class GraphLoad {
  private state: GraphLoadStatus['state'] = 'receiving';
  private received = 0;
  private parsed = 0;
  private triplesParsed: number | null = null;
  private parsingSince: number | undefined;
  private triples: number | null = null;
  private message: string | null = null;
  private readonly started = performance.now();
  private readonly startedAt = new Date().toISOString();
  private ended: number | undefined;

  constructor(
    readonly site: string,
    private readonly replace: boolean,
    private readonly bytesTotal: number | null,
  ) {}

  receive(bytes: number): void {
    this.received += bytes;
  }

  /** The store has parsed this many bytes of the document, holding this many triples when it knows. */
  parse(bytes: number, triples?: number): void {
    if (this.state === 'receiving') {
      this.state = 'parsing';
      this.parsingSince = performance.now();
    }
    this.parsed = bytes;
    if (triples !== undefined) this.triplesParsed = triples;
  }

  done(triples: number): void {
    this.state = 'done';
    this.triples = triples;
    this.parsed = this.received;
    this.ended = performance.now();
  }

  failed(message: string): void {
    this.state = 'failed';
    this.message = message;
    this.ended = performance.now();
  }

  get finishedAt(): number | undefined {
    return this.ended;
  }

  status(): GraphLoadStatus {
    const now = this.ended ?? performance.now();
    const parsing = this.parsingSince === undefined ? 0 : (now - this.parsingSince) / 1000;
    return {
      site: this.site,
      state: this.state,
      replace: this.replace,
      bytesTotal: this.bytesTotal,
      bytesReceived: this.received,
      bytesParsed: this.parsed,
      bytesPerSecond: parsing > 0 && this.parsed > 0 ? Math.round(this.parsed / parsing) : null,
      triplesParsed: this.triplesParsed,
      triplesPerSecond: parsing > 0 && this.triplesParsed ? Math.round(this.triplesParsed / parsing) : null,
      triples: this.triples,
      startedAt: this.startedAt,
      seconds: Number(((now - this.started) / 1000).toFixed(3)),
      message: this.message,
    };
  }
}

/**
 * The latest load of each site's graph, in this process: what `bkg load` shows while the service
 * parses a large upload. Kept KEPT_MS after it ends.
 */
export class GraphLoads {
  private readonly loads = new Map<string, GraphLoad>();

  start(site: string, replace: boolean, bytesTotal: number | null): GraphLoad {
    this.forgetOld();
    const load = new GraphLoad(site, replace, bytesTotal);
    this.loads.set(site, load);
    return load;
  }

  latest(site: string): GraphLoad | undefined {
    this.forgetOld();
    return this.loads.get(site);
  }

  private forgetOld(): void {
    const now = performance.now();
    for (const [site, load] of this.loads) if (load.finishedAt !== undefined && now - load.finishedAt > KEPT_MS) this.loads.delete(site);
  }
}
