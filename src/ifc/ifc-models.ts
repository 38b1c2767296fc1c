import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { pipeline } from 'node:stream/promises';
import { spoolDir } from '../blobs/temp-dir.ts';
import type { Database } from '../db/database.ts';
import { AppError } from '../errors/app-error.ts';
import type { IfcStorey, StoredFile } from '../files/site-file.ts';
import type { SiteFiles } from '../files/site-files.ts';
import type { Logger } from '../log/logger.ts';
import type { IfcConfig } from '../config/ifc-config.ts';
import { ELEMENT_BATCH, IfcModelStore, type IfcElementRow, type IfcJobFile } from '../files/ifc-model-store.ts';
export type { IfcElementRow };
import type { IfcHeader } from './ifc-reader.ts';
import { IfcJobError, runIfcChild } from './run-ifc-child.ts';

/** The name of the fragments file made from an IFC file: its name with `.frag` for `.ifc`. */
export const fragmentsName = (ifcName: string): string => `${ifcName.replace(/\.ifc$/i, '')}.frag`.slice(-255);

/**
 * Reads IFC files and converts them to fragments, in the background: every IFC file of category
 * model-3d or bim-source that is stored (or whose bytes change) is queued. Each job runs two child
 * processes one after the other (run-ifc-child.ts): one reads the storeys and elements into the
 * database, one writes the `.frag`, which is stored as a model file of its own (`source_ifc` = the
 * IFC file, same storey). At most `workers` jobs run at once. A failure is recorded on the IFC
 * file's record (status `failed`, `error`) and touches nothing else. Jobs a restart interrupted
 * are queued again at start.
 */
export class IfcModels {
  private readonly queue: string[] = [];
  private readonly queued = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private readonly stopping = new AbortController();
  private readonly tempDir: string;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly files: SiteFiles,
    private readonly db: Database,
    private readonly config: IfcConfig,
    dataDir: string,
    private readonly logger: Logger,
  ) {
    this.tempDir = join(spoolDir(dataDir), 'ifc');
  }

  /** Queues the unfinished files and every IFC file stored from now on. */
  async start(): Promise<void> {
    await mkdir(this.tempDir, { recursive: true });
    this.files.onIfcPending((file) => this.enqueue(file.id));
    for (const id of await new IfcModelStore(this.db).unfinished()) this.enqueue(id);
  }

  /** Queues a file (once); a job looks at the file as it is when its turn comes. */
  enqueue(id: string): void {
    if (this.stopping.signal.aborted || this.queued.has(id)) return;
    this.queued.add(id);
    this.queue.push(id);
    this.pump();
  }

  /** One element of an IFC file by GlobalId, or undefined. */
  element(fileId: string, globalId: string): Promise<IfcElementRow | undefined> {
    return new IfcModelStore(this.db).element(fileId, globalId);
  }

  /** A page of an IFC file's elements (of one storey, if given), by GlobalId, and how many match. */
  elements(
    fileId: string,
    filter: { storey?: string | undefined },
    page: { limit: number; offset: number },
  ): Promise<{ count: number; rows: IfcElementRow[] }> {
    return new IfcModelStore(this.db).elements(fileId, filter, page);
  }

  /** How many elements stand on each storey of an IFC file, by storey name. */
  storeyCounts(fileId: string): Promise<Map<string, number>> {
    return new IfcModelStore(this.db).storeyCounts(fileId);
  }

  /** Resolves when nothing is queued or running (for tests and orderly shutdown). */
  idle(): Promise<void> {
    if (this.queue.length === 0 && this.running.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops: running children are killed (their files stay unfinished and are queued at the next start). */
  async stop(): Promise<void> {
    this.stopping.abort();
    this.queue.length = 0;
    await Promise.allSettled([...this.running]);
  }

  private pump(): void {
    while (this.running.size < this.config.workers && this.queue.length > 0) {
      const id = this.queue.shift()!;
      this.queued.delete(id);
      const job = this.process(id)
        .catch((error: unknown) => this.logger.error({ err: error, file: id }, 'IFC job failed unexpectedly'))
        .finally(() => {
          this.running.delete(job);
          this.pump();
          if (this.queue.length === 0 && this.running.size === 0)
            for (const resolve of this.idleWaiters.splice(0)) resolve();
        });
      this.running.add(job);
    }
  }

  private async process(id: string): Promise<void> {
    const file = await this.files.get(id);
    if (!file?.ifc || file.ifc.status === 'ready' || file.ifc.status === 'failed') return;
    const job: IfcJobFile = { id: file.id, blob_key: file.blob_key };
    const store = new IfcModelStore(this.db);
    if (file.size_bytes > this.config.maxBytes) {
      await store.finish(
        job,
        'failed',
        `The file is larger than ${this.config.maxBytes} bytes (BKG_IFC_MAX_BYTES), so it was not read.`,
      );
      return;
    }
    if (!(await store.startReading(job))) return;
    const started = performance.now();
    const dir = await mkdtemp(join(this.tempDir, 'job-'));
    try {
      const ifcPath = join(dir, 'model.ifc');
      await pipeline(await this.files.blobs.get(file.blob_key), createWriteStream(ifcPath));
      const limits = {
        memoryMb: this.config.memoryMb,
        timeoutMs: this.config.timeoutSeconds * 1000,
        signal: this.stopping.signal,
      };
      await this.stage('reading', () => runIfcChild('read', ifcPath, dir, limits));
      const header = JSON.parse(await readFile(join(dir, 'header.json'), 'utf8')) as IfcHeader;
      await this.importElements(store, job, join(dir, 'elements.ndjson'));
      await this.importConnections(store, job, join(dir, 'connections.ndjson'));
      const storeys: IfcStorey[] = header.storeys.map((s) => ({
        global_id: s.globalId,
        name: s.name,
        elevation: s.elevation,
      }));
      if (!(await store.finishReading(job, header.schema, storeys, header.project))) return;
      const fragPath = join(dir, 'model.frag');
      await this.stage('converting', () => runIfcChild('convert', ifcPath, fragPath, limits));
      if (!(await this.storeFragments(file, fragPath))) return;
      await store.finish(job, 'ready');
      this.logger.info(
        { file: id, site: file.site, seconds: Number(((performance.now() - started) / 1000).toFixed(2)) },
        'IFC file read and converted',
      );
    } catch (error) {
      if (this.stopping.signal.aborted) return;
      if (error instanceof AppError && error.code === 'SERVICE_UNAVAILABLE') {
        // The file store is away: nothing is wrong with the file, so it waits for the next start.
        this.logger.warn(
          { err: error, file: id },
          'IFC file not read: the file store is unavailable; it is read at the next start',
        );
        await store.finish(job, 'pending');
        return;
      }
      const message =
        error instanceof IfcJobError ? error.message : 'An internal error stopped it; the service log has the details.';
      if (!(error instanceof IfcJobError)) this.logger.error({ err: error, file: id }, 'IFC job failed');
      else this.logger.warn({ file: id, site: file.site, reason: message }, 'IFC file could not be read or converted');
      await store.finish(job, 'failed', message);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  /** Runs a child, naming the stage in its failure. */
  private async stage(name: 'reading' | 'converting', run: () => Promise<void>): Promise<void> {
    try {
      await run();
    } catch (error) {
      throw error instanceof IfcJobError
        ? new IfcJobError(`${name === 'reading' ? 'Reading' : 'Converting'} the IFC file failed: ${error.message}`)
        : error;
    }
  }

  /** Streams the child's element lines into the database in batches. */
  private async importElements(store: IfcModelStore, job: IfcJobFile, path: string): Promise<void> {
    let batch: IfcElementRow[] = [];
    for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
      if (line === '') continue;
      const [global_id, ifc_class, name, storey, tag = ''] = JSON.parse(line) as [
        string,
        string,
        string,
        string,
        string?,
      ];
      batch.push({
        global_id: global_id.slice(0, 64),
        ifc_class: ifc_class.slice(0, 64),
        name: name.slice(0, 255),
        storey: storey.slice(0, 255),
        tag: tag.slice(0, 255),
      });
      if (batch.length >= ELEMENT_BATCH) {
        await store.addElements(job, batch);
        batch = [];
      }
    }
    await store.addElements(job, batch);
  }

  /** Streams the child's port-to-port pairs into the database in batches. */
  private async importConnections(store: IfcModelStore, job: IfcJobFile, path: string): Promise<void> {
    let batch: Array<[string, string]> = [];
    for await (const line of createInterface({ input: createReadStream(path, 'utf8'), crlfDelay: Infinity })) {
      if (line === '') continue;
      const [a, b] = JSON.parse(line) as [string, string];
      batch.push([a.slice(0, 64), b.slice(0, 64)]);
      if (batch.length >= ELEMENT_BATCH) {
        await store.addConnections(job, batch);
        batch = [];
      }
    }
    await store.addConnections(job, batch);
  }

  /**
   * Stores the fragments file as the IFC file's generated model file (replacing the bytes of an
   * earlier one). False when the IFC file is gone or its bytes changed meanwhile.
   */
  private async storeFragments(ifc: StoredFile, fragPath: string): Promise<boolean> {
    const current = await this.files.get(ifc.id);
    if (!current || current.blob_key !== ifc.blob_key) return false;
    const key = this.files.newBlobKey();
    const upload = {
      key,
      ...(await this.files.blobs.put(key, createReadStream(fragPath), { contentType: 'application/octet-stream' })),
    };
    const fields = {
      category: 'model-3d' as const,
      name: fragmentsName(current.name),
      entity_uri: current.entity_uri,
      content_type: 'application/octet-stream',
      format: 'frag' as const,
      storey: current.storey,
      sort_order: current.sort_order,
      source_ifc: current.id,
    };
    const existing = current.ifc?.fragments_id;
    if (existing) await this.files.update(existing, fields, upload);
    else await this.files.create({ ...fields, site: current.site, generated_from: current.id }, upload);
    return true;
  }
}
