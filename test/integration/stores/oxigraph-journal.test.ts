// The embedded store persists each graph as the documents loaded into it (src/store/graph-journal.ts):
// a store reopened on the same directory holds every graph triple for triple, whatever sequence of
// replaces, merges (past the compaction threshold), failed loads and drops came before, and a
// crash's leftovers (temporary files, segments no manifest lists) neither load nor stay.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_SEGMENTS } from '../../../src/store/graph-journal.ts';
import { RdfSyntaxError } from '../../../src/store/graph-store.ts';
import { OxigraphStore } from '../../../src/store/oxigraph-store.ts';
import { triplesOf } from '../../support/graph-triples.ts';

const EX = 'https://example.org/journal#';
const TURTLE = `@prefix ex: <${EX}> .
ex:a ex:p "one", "zwei"@de ; ex:q [ ex:r 1 ] ; ex:rel <relative> .
`;
const graph = (name: string) => `urn:bkg:site:${name}`;

describe('the embedded store reopened on its data directory', () => {
  let dir: string;
  let before: Record<string, string[]>;
  let after: OxigraphStore;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bkg-journal-'));
    const first = await OxigraphStore.open({ persistDir: dir });
    try {
      const file = join(dir, '..', `upload-${Date.now()}.ttl`);
      await writeFile(file, TURTLE);
      await first.replaceGraph(graph('from-file'), { path: file }, 'text/turtle');
      await rm(file);
      await first.replaceGraph(graph('merged'), TURTLE, 'text/turtle');
      for (let i = 0; i <= MAX_SEGMENTS + 1; i++) {
        await first.mergeGraph(
          graph('merged'),
          `<${EX}m${i}> <${EX}p> "${i}" .\n_:x <${EX}p> "blank ${i}" .\n`,
          'application/n-triples',
        );
      }
      await first.replaceGraph(
        graph('quads'),
        `<${EX}s> <${EX}p> "default" .\n<${EX}s> <${EX}p> "named" <${EX}g> .\n`,
        'application/n-quads',
      );
      await first.replaceGraph(graph('failed'), TURTLE, 'text/turtle');
      await expect(first.replaceGraph(graph('failed'), '@prefix broken', 'text/turtle')).rejects.toBeInstanceOf(
        RdfSyntaxError,
      );
      await expect(first.mergeGraph(graph('failed'), '<a> <b> .', 'application/n-triples')).rejects.toBeInstanceOf(
        RdfSyntaxError,
      );
      await first.replaceGraph(graph('dropped'), TURTLE, 'text/turtle');
      await first.dropGraph(graph('dropped'));
      await first.replaceGraph(graph('replaced'), TURTLE, 'text/turtle');
      await first.mergeGraph(
        graph('replaced'),
        `<${EX}x> <${EX}p> "merged before the replace" .`,
        'application/n-triples',
      );
      await first.replaceGraph(graph('replaced'), `<${EX}y> <${EX}p> "only this" .`, 'application/n-triples');
      // Changes by the triple: each a patch in the journal, replayed in turn, never folded into the graph.
      await first.replaceGraph(graph('patched'), TURTLE, 'text/turtle');
      await first.changeGraph(graph('patched'), {
        remove: [`<${EX}a> <${EX}p> "one"`],
        add: [`<${EX}a> <${EX}p> "eins"@de`, `<${EX}b> <${EX}q> _:n`, `_:n <${EX}r> "new"`],
      });
      await first.changeGraph(graph('patched'), {
        remove: [`<${EX}a> <${EX}q> _:x`, `_:x <${EX}r> "1"^^<http://www.w3.org/2001/XMLSchema#integer>`],
        add: [],
      });
      before = {};
      for (const name of ['from-file', 'merged', 'quads', 'failed', 'replaced', 'patched'])
        before[name] = await triplesOf(first, graph(name));
      // The compactor's background work: segments rewritten as N-Triples, the merged graph's joined.
      await first.whenCompacted();
    } finally {
      await first.close();
    }
    // What a crash mid-write leaves: a temporary file and a segment no manifest lists.
    await writeFile(join(dir, 'x.graph.json.tmp'), '{');
    await writeFile(join(dir, `${encodeURIComponent(graph('ghost'))}.zz-0.seg`), `<${EX}ghost> <${EX}p> "ghost" .`);
    after = await OxigraphStore.open({ persistDir: dir });
    await after.whenRestored();
  }, 60_000);

  afterAll(async () => {
    await after?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('has a graph loaded from a file, with relative IRIs resolved against the graph as at load', async () => {
    expect(before['from-file']).toHaveLength(5);
    expect(before['from-file']!.join('\n')).toContain(`<${EX}a> <${EX}rel> <urn:relative>`);
    expect(await triplesOf(after, graph('from-file'))).toEqual(before['from-file']);
  });

  it('has a graph merged more times than the compaction threshold, blank nodes apart', async () => {
    expect(before.merged).toHaveLength(5 + 2 * (MAX_SEGMENTS + 2));
    expect(await triplesOf(after, graph('merged'))).toEqual(before.merged);
    const files = (await readdir(dir)).filter(
      (name) => name.startsWith(encodeURIComponent(graph('merged'))) && name.endsWith('.seg'),
    );
    expect(files.length).toBeLessThanOrEqual(MAX_SEGMENTS);
  });

  it('keeps only the default graph of an N-Quads document', async () => {
    expect(before.quads).toEqual([`<${EX}s> <${EX}p> "default" .`]);
    expect(await triplesOf(after, graph('quads'))).toEqual(before.quads);
  });

  it('has a graph as it was before a replace and a merge that failed', async () => {
    expect(before.failed).toHaveLength(5);
    expect(await triplesOf(after, graph('failed'))).toEqual(before.failed);
  });

  it('has a replaced graph as replaced, without what was merged into it before', async () => {
    expect(before.replaced).toEqual([`<${EX}y> <${EX}p> "only this" .`]);
    expect(await triplesOf(after, graph('replaced'))).toEqual(before.replaced);
  });

  it('has a changed graph as changed: its patches replayed, blank nodes added and removed', async () => {
    expect(before.patched).toContain(`<${EX}a> <${EX}p> "eins"@de .`);
    expect(before.patched!.join('\n')).not.toContain('"one"');
    expect(before.patched!.join('\n')).not.toContain(`<${EX}a> <${EX}q>`);
    expect(await triplesOf(after, graph('patched'))).toEqual(before.patched);
    const segments = (await readdir(dir)).filter(
      (name) => name.startsWith(encodeURIComponent(graph('patched'))) && name.endsWith('.seg'),
    );
    // The document and one segment per change: the graph itself was not rewritten.
    expect(segments).toHaveLength(3);
  });

  it('brings back neither a dropped graph nor a crash leftover', async () => {
    expect(await after.countTriples(graph('dropped'))).toBe(0);
    expect(await after.countTriples(graph('ghost'))).toBe(0);
    const files = await readdir(dir);
    expect(files.filter((name) => name.endsWith('.tmp') || name.includes(encodeURIComponent(graph('ghost'))))).toEqual(
      [],
    );
    expect(files.filter((name) => name.includes(encodeURIComponent(graph('dropped'))))).toEqual([]);
  });
});

describe('a data directory written before manifests', () => {
  it('still loads a graph persisted as one N-Triples dump, and replaces it', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'bkg-journal-legacy-'));
    try {
      await writeFile(
        join(dir, `${encodeURIComponent(graph('old'))}.graph.nt`),
        `<${EX}old> <${EX}p> "from an older version" .\n`,
      );
      const store = await OxigraphStore.open({ persistDir: dir });
      await store.whenRestored();
      try {
        expect(await triplesOf(store, graph('old'))).toEqual([`<${EX}old> <${EX}p> "from an older version" .`]);
        await store.mergeGraph(graph('old'), `<${EX}new> <${EX}p> "merged" .`, 'application/n-triples');
      } finally {
        await store.close();
      }
      const reopened = await OxigraphStore.open({ persistDir: dir });
      await reopened.whenRestored();
      try {
        expect(await triplesOf(reopened, graph('old'))).toHaveLength(2);
      } finally {
        await reopened.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
