// The embedded store reads its graphs back in the background (src/store/oxigraph-store.ts): what it
// reads is the journal's N-Triples of its own once the compactor has rewritten the uploads
// (segment-compactor.ts), and a restored graph holds exactly what the live one held; a segment that
// cannot be read names its site and file, is kept, and leaves every other graph serving.
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import oxigraph from 'oxigraph';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/config/config.ts';
import { AppError } from '../../../src/errors/app-error.ts';
import { MAX_SEGMENTS, type Segment } from '../../../src/store/graph-journal.ts';
import { OxigraphStore } from '../../../src/store/oxigraph-store.ts';
import { comparableTriples, triplesOf } from '../../support/graph-triples.ts';

const graph = (name: string) => `urn:bkg:site:${name}`;
const DEMO = join(projectRoot, 'fixtures/demo.ttl');

describe('graphs read back from the rewritten journal', () => {
  let dir: string;
  const before: Record<string, string[]> = {};
  let after: OxigraphStore;
  const manifest = async (name: string) =>
    (
      JSON.parse(await readFile(join(dir, 'graphs', `${encodeURIComponent(graph(name))}.graph.json`), 'utf8')) as {
        segments: Segment[];
      }
    ).segments;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bkg-restore-'));
    const generated = join(dir, 'generated.ttl');
    execFileSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/generate-portfolio.ts', '--triples', '40k', '--out', generated],
      { cwd: projectRoot, stdio: 'ignore' },
    );
    // Every upload of a megabyte or more rewritten (the service's threshold is 16 MiB).
    const first = await OxigraphStore.open({ persistDir: join(dir, 'graphs'), rewriteFromBytes: 1 << 20 });
    try {
      await first.replaceGraph(graph('generated'), { path: generated }, 'text/turtle');
      // The demo model merged past the threshold: every segment rewritten, then joined.
      await first.replaceGraph(graph('demo'), { path: DEMO }, 'text/turtle');
      for (let i = 0; i < MAX_SEGMENTS; i++)
        await first.mergeGraph(
          graph('demo'),
          `<urn:x:m${i}> <urn:x:p> "${i}"@EN, [ <urn:x:q> "blank ${i}" ] .\n`,
          'text/turtle',
        );
      await first.replaceGraph(graph('broken'), { path: generated }, 'text/turtle');
      await first.whenCompacted();
      for (const name of ['generated', 'demo', 'broken']) before[name] = await triplesOf(first, graph(name));
    } finally {
      await first.close();
    }
    // A segment damaged on disk.
    const [segment] = await manifest('broken');
    await writeFile(join(dir, 'graphs', segment!.file), '<urn:x:a> <urn:x:b> "never closed\n');
    after = await OxigraphStore.open({ persistDir: join(dir, 'graphs') });
    await after.whenRestored();
  }, 120_000);

  afterAll(async () => {
    await after?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('rewrote every upload as N-Triples of its own, and joined the merged graph', async () => {
    const generated = await manifest('generated');
    expect(generated).toHaveLength(1);
    expect(generated[0]).toMatchObject({ format: 'application/n-triples', triples: before.generated!.length });
    const demo = await manifest('demo');
    expect(demo).toHaveLength(1);
    expect(demo[0]!.triples).toBeGreaterThan(0);
  });

  it('holds exactly what the live store held', async () => {
    expect(before.generated!.length).toBeGreaterThan(35_000);
    expect(await triplesOf(after, graph('generated'))).toEqual(before.generated);
    expect(await triplesOf(after, graph('demo'))).toEqual(before.demo);
    // The export read straight from the journal holds the same (as Oxigraph reads it: it keeps
    // literals by value, "10.0"^^xsd:decimal as "10", where the journal keeps the document's text).
    const stream = await after.exportStream(graph('generated'));
    expect(stream?.triples).toBe(before.generated!.length);
    let text = '';
    for await (const chunk of stream!.chunks) text += Buffer.from(chunk).toString('utf8');
    const reread = new oxigraph.Store();
    reread.load(text, { format: 'application/n-triples' });
    expect(
      comparableTriples(reread.dump({ format: 'application/n-triples', from_graph_name: oxigraph.defaultGraph() })),
    ).toEqual(before.generated);
    // Blank nodes of separate documents stay apart.
    expect(before.demo!.filter((line) => line.startsWith('_:b <urn:x:q>'))).toHaveLength(MAX_SEGMENTS);
  });

  it('names the site and the file it could not read, keeps the file, and serves the other sites', async () => {
    const [segment] = await manifest('broken');
    const failure = await after.countTriples(graph('broken')).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ code: 'SERVICE_UNAVAILABLE', status: 503 });
    expect((failure as AppError).message).toContain('"broken"');
    expect((failure as AppError).message).toContain(segment!.file);
    expect(after.restoreStatus()).toEqual([
      expect.objectContaining({ graph: graph('broken'), state: 'failed', file: segment!.file }),
    ]);
    expect(await readdir(join(dir, 'graphs'))).toContain(segment!.file);
    await expect(
      after.mergeGraph(graph('broken'), '<urn:x:a> <urn:x:b> "c" .', 'application/n-triples'),
    ).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
    expect(await after.countTriples(graph('generated'))).toBe(before.generated!.length);
  });

  it('serves a site that could not be read again once its graph is replaced', async () => {
    await after.replaceGraph(graph('broken'), '<urn:x:a> <urn:x:b> "mended" .\n', 'application/n-triples');
    expect(await after.countTriples(graph('broken'))).toBe(1);
    expect(after.restoreStatus()).toEqual([]);
  });
});
