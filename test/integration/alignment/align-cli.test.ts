/**
 * `bkg align …` against a running service: the same review as the REST routes, from a terminal.
 * The CLI runs in this process (runCli) against the harness's listener.
 */
import { readFileSync } from 'node:fs';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/cli.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { file, postForm } from '../files/files-support.ts';

const fixture = (path: string) => readFileSync(new URL(`../../../fixtures/${path}`, import.meta.url), 'utf8');
const STRIPPED = fixture('demo.ttl').replace(
  / ;\n\s*ref:hasExternalReference \[ a ref:IFCReference ;[^\]]*\] \./g,
  ' .',
);

describe('bkg align', () => {
  let h: Harness;
  let writer: string;

  async function bkg(args: string[], token = writer): Promise<{ code: number; stdout: string; stderr: string }> {
    const collect = () => {
      const stream = Object.assign(
        new Writable({ write: (chunk: Buffer, _e, done) => ((stream.text += chunk.toString()), done()) }),
        { text: '' },
      );
      return stream;
    };
    const stdout = collect();
    const stderr = collect();
    const code = await runCli(args, { env: { BKG_URL: h.url, BKG_TOKEN: token }, stdout, stderr });
    return { code, stdout: stdout.text, stderr: stderr.text };
  }

  beforeAll(async () => {
    h = await createHarness({ sites: { tower: STRIPPED }, env: { BKG_IFC_WORKERS: '1' } });
    writer = (await h.services.keys.create({ name: 'writer', sites: ['tower'], write: true, admin: false })).secret;
    const response = await postForm(h, '/api/files/', {
      site_id: 'tower',
      category: 'bim-source',
      file: file(fixture('demo-files/demo-tower.ifc'), 'demo-tower.ifc'),
    });
    expect(response.status).toBe(201);
    await h.services.ifc.idle();
  });

  afterAll(async () => {
    await h?.close();
  });

  it('lists proposals as a table, filtered by class', async () => {
    const run = await bkg(['align', 'proposals', 'tower', '--ifc-class', 'IfcBoiler']);
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+SCORE\s+IFC CLASS\s+IFC NAME\s+STOREY\s+ENTITY\s+TYPE\s+STATUS\s+EVIDENCE$/);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/0\.90\s+IfcBoiler\s+B-1\s+Floor 1\s+B-1\s+Boiler\s+proposed\s+class,name,containment$/);
  });

  it('accepts one by id, rejects one, and reports coverage', async () => {
    const page = JSON.parse((await bkg(['align', 'proposals', 'tower', '--json', '--ifc-class', 'IfcChiller'])).stdout);
    const chiller = page.items[0];
    expect(chiller.entityId).toBe('CH-1');
    const accepted = await bkg(['align', 'accept', 'tower', '--ids', chiller.id]);
    expect(accepted.stdout, accepted.stderr).toBe('Accepted 1 link.\n');
    const boiler = JSON.parse((await bkg(['align', 'proposals', 'tower', '--json', '--ifc-class', 'IfcBoiler'])).stdout)
      .items[0];
    const rejected = await bkg(['align', 'reject', 'tower', '--ids', boiler.id]);
    expect(rejected.stdout, rejected.stderr).toBe('Rejected 1 pair.\n');
    const coverage = await bkg(['align', 'coverage', 'tower']);
    expect(coverage.code, coverage.stderr).toBe(0);
    expect(coverage.stdout).toMatch(/IfcChiller\s+1\s+0\s+0/);
    expect(coverage.stdout).toMatch(/IfcBoiler\s+0\s+0\s+1/);
  });

  it('accepts everything at the auto-accept threshold by default', async () => {
    const run = await bkg(['align', 'accept', 'tower']);
    expect(run.stdout).toMatch(/^Accepted 5[0-9] links\.\n$/);
  });

  it('says how to use it when the selection is wrong, and what the service refused', async () => {
    const both = await bkg(['align', 'reject', 'tower', '--ids', 'a', '--min-score', '0.5']);
    expect(both.code).toBe(1);
    expect(both.stderr).toContain('Give --ids or --min-score, not both.');
    const bad = await bkg(['align', 'proposals', 'tower', '--min-score', 'high']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--min-score is a number from 0 to 1');
    const readOnly = await bkg(
      ['align', 'accept', 'tower'],
      (await h.services.keys.create({ name: 'reader', sites: ['tower'], write: false, admin: false })).secret,
    );
    expect(readOnly.code).not.toBe(0);
    expect(readOnly.stderr).toContain('may not write');
  });
});
