/**
 * The living graph measured (docs/changing-a-graph.md): a one-triple PATCH over HTTP on the bench
 * site (its cost is the change's, not the graph's: flat from 100k to 5M triples), and what history
 * costs: the bytes kept for 1,000 one-triple changes (version records and the embedded store's
 * journal), and for full reloads of the same model.
 */
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { request } from 'undici';
import { BENCH_SITE, type Gateway } from './gateway.ts';
import { latencyOf, type Latency } from './timing.ts';

export interface ChangeMeasures {
  /** One-triple PATCH (INSERT DATA, then DELETE DATA of the same triple), over HTTP. */
  readonly patch: Latency;
  /** 1,000 one-triple changes: bytes of their version records' changes, and of the journal's patch segments. */
  readonly thousandChanges: { readonly historyBytes: number; readonly journalBytes: number; readonly seconds: number };
  /** Full reloads of the same file over HTTP: bytes their versions keep, and whether each kept its change. */
  readonly reloads?: {
    readonly count: number;
    readonly historyBytes: number;
    readonly kept: number;
    readonly seconds: number;
  };
}

const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';

async function patch(gateway: Gateway, body: string): Promise<number> {
  const started = performance.now();
  const response = await request(`${gateway.url}/api/v1/sites/${BENCH_SITE}/graph`, {
    method: 'PATCH',
    headers: { ...gateway.headers, 'content-type': 'application/sparql-update' },
    body,
  });
  const text = await response.body.text();
  if (response.statusCode !== 200) throw new Error(`PATCH answered ${response.statusCode}: ${text}`);
  return performance.now() - started;
}

/** Bytes of the changes the site's versions from `after` on keep. */
async function historyBytes(gateway: Gateway, after: number): Promise<number> {
  const [row] = await gateway.services.database.query<{ bytes: string | number | null }>(
    'SELECT sum(octet_length(patch)) AS bytes FROM graph_versions WHERE site = $1 AND version > $2',
    [BENCH_SITE, after],
  );
  return Number(row?.bytes ?? 0);
}

/** Bytes of the embedded store's patch segments of the bench site (none on another store). */
function journalPatchBytes(gateway: Gateway): number {
  const dir = join(gateway.dataDir, 'graphs');
  const prefix = encodeURIComponent(`urn:bkg:site:${BENCH_SITE}`);
  let bytes = 0;
  try {
    for (const name of readdirSync(dir))
      if (name.startsWith(prefix) && name.endsWith('.seg') && statSync(join(dir, name)).size < 4096)
        bytes += statSync(join(dir, name)).size;
  } catch {
    return 0;
  }
  return bytes;
}

export async function measureChanges(
  gateway: Gateway,
  options: { readonly rounds: number; readonly reloads: number; readonly file: string },
  log: (message: string) => void,
): Promise<ChangeMeasures> {
  const triple = (n: number) => `<urn:bkg:bench:changed> <${LABEL}> "change ${n}"`;
  const times: number[] = [];
  for (let i = 0; i < options.rounds; i++) {
    times.push(await patch(gateway, `INSERT DATA { ${triple(-1)} }`));
    times.push(await patch(gateway, `DELETE DATA { ${triple(-1)} }`));
  }
  const stats = latencyOf(times);
  log(`changes: one-triple PATCH p50 ${stats.p50.toFixed(1)} ms, p95 ${stats.p95.toFixed(1)} ms`);

  const before = await gateway.services.history.version(BENCH_SITE);
  const journalBefore = journalPatchBytes(gateway);
  const started = performance.now();
  for (let n = 0; n < 1000; n++) await patch(gateway, `INSERT DATA { ${triple(n)} }`);
  const thousandChanges = {
    historyBytes: await historyBytes(gateway, before),
    journalBytes: journalPatchBytes(gateway) - journalBefore,
    seconds: (performance.now() - started) / 1000,
  };
  log(
    `changes: 1,000 one-triple changes keep ${thousandChanges.historyBytes} bytes of history, ${thousandChanges.journalBytes} of journal`,
  );
  if (options.reloads === 0) return { patch: stats, thousandChanges };
  const reloadsFrom = await gateway.services.history.version(BENCH_SITE);
  const reloadStarted = performance.now();
  for (let i = 0; i < options.reloads; i++) await gateway.loadOverHttp(options.file);
  const versions = await gateway.services.history.list(BENCH_SITE, options.reloads);
  const reloads = {
    count: options.reloads,
    historyBytes: await historyBytes(gateway, reloadsFrom),
    kept: versions.filter((v) => v.kept).length,
    seconds: (performance.now() - reloadStarted) / 1000,
  };
  log(
    `changes: ${reloads.count} reloads keep ${reloads.historyBytes} bytes of history (${reloads.kept} kept their change)`,
  );
  return { patch: stats, thousandChanges, reloads };
}
