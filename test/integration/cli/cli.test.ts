// The `bkg` CLI against a running service: each command is run through `runCli` with BKG_URL and
// BKG_TOKEN pointing at the harness, and `npx bkg` (bin/bkg.js) once as a child process.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { Parser } from 'n3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src/cli/cli.ts';
import { UploadProgress } from '../../../src/cli/progress.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { jsonBody } from '../../support/api-client.ts';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const fixture = join(root, 'fixtures/small/equipment.ttl');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

let h: Harness;
let dir: string;
const JWT_SECRET = 'a-user-token-secret-of-at-least-32-characters';

/** Runs the CLI as a child process (`entry`: how Node starts it), as the admin. */
function cliProcess(args: string[], entry: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...entry, ...args], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', BKG_URL: h.url, BKG_TOKEN: h.adminKey },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/**
 * Runs the CLI in this process as the admin (or with `env`'s token): the CLI reads its environment,
 * output and errors only through what it is handed (`runCli`), so it runs as `bkg` would, without
 * a Node process started per command.
 */
async function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const collect = () => {
    const stream = Object.assign(
      new Writable({
        write(chunk: Buffer, _encoding, callback) {
          stream.text += chunk.toString();
          callback();
        },
      }),
      { text: '' },
    );
    return stream;
  };
  const stdout = collect();
  const stderr = collect();
  const code = await runCli(args, {
    env: { HOME: process.env.HOME ?? '', BKG_URL: h.url, BKG_TOKEN: h.adminKey, ...env },
    stdout,
    stderr,
  });
  return { code, stdout: stdout.text, stderr: stderr.text };
}

const countTriples = (text: string, format: string) => new Parser({ format }).parse(text).length;

beforeAll(async () => {
  h = await createHarness({ sites: {}, env: { BKG_JWT_SECRET: JWT_SECRET } });
  dir = await mkdtemp(join(tmpdir(), 'bkg-cli-'));
});
afterAll(async () => {
  await h?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('help', () => {
  it('bkg --help (through bin/bkg.js, what `npx bkg` runs) lists every command and exits 0', async () => {
    const run = await cliProcess(['--help'], ['bin/bkg.js']);
    expect(run.code).toBe(0);
    for (const command of [
      'sites list',
      'sites create <id>',
      'sites update <id>',
      'sites delete <id>',
      'load <siteId> <file>',
      'export <siteId>',
      'keys create',
      'keys list',
      'keys revoke <id>',
      'tokens issue',
    ]) {
      expect(run.stdout).toContain(command);
    }
  });

  it('each command has its own help', async () => {
    const run = await cli(['load', '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: bkg load <siteId> <file> [options]');
    expect(run.stdout).toContain('--merge');
    expect((await cli(['keys', 'create', '-h'])).stdout).toContain('--all-sites');
  });

  it('a wrong command line exits 1 and points at the help', async () => {
    const run = await cli(['load', 'hq']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('Error: Missing <file>.\nRun "bkg load --help" for usage.\n');
    expect((await cli(['sites', 'frob'])).stderr).toContain('Unknown command "sites frob"');
    expect((await cli(['sites', 'list', '--frob'])).stderr).toContain('Unknown option "--frob"');
  });
});

describe('sites, load and export', () => {
  it('creates a site and lists it', async () => {
    const created = await cli([
      'sites',
      'create',
      'plant',
      '--name',
      'Plant Building',
      '--timezone',
      'Europe/Berlin',
      '--city',
      'Berlin',
    ]);
    expect(created.stderr).toBe('');
    expect(created.code).toBe(0);
    expect(created.stdout).toBe('Created site "plant" (Plant Building, Europe/Berlin).\n');

    const list = await cli(['sites', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ID\s+NAME\s+PLACE\s+TIMEZONE\s+CREATED\n/);
    expect(list.stdout).toMatch(/plant\s+Plant Building\s+Berlin\s+Europe\/Berlin/);
  });

  it('updates a site: name and time zone, the rest kept', async () => {
    const run = await cli(['sites', 'update', 'plant', '--name', 'Plant Hall', '--timezone', 'Europe/Paris']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Updated site "plant" (Plant Hall, Europe/Paris).\n');
    expect((await cli(['sites', 'list'])).stdout).toMatch(/plant\s+Plant Hall\s+Berlin\s+Europe\/Paris/);
    const wrong = await cli(['sites', 'update', 'plant', '--timezone', 'Berlin']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toBe('Error (HTTP 400): timezone: An IANA time zone name, e.g. "Europe/Berlin".\n');
    expect((await cli(['sites', 'update', 'plant'])).stderr).toContain('Give at least one field to change');
    expect(
      (await cli(['sites', 'update', 'plant', '--name', 'Plant Building', '--timezone', 'Europe/Berlin'])).code,
    ).toBe(0);
  });

  it('a field error from the service is one line per request, exit 1', async () => {
    const run = await cli(['sites', 'create', 'Bad_Id', '--name', 'X']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Error \(HTTP 400\): id: A slug: lowercase letters, digits and hyphens[^\n]*\n$/);
  });

  it('loads a Turtle file: progress on stderr, then the triples, seconds and triples/s', async () => {
    const expected = countTriples(await readFile(fixture, 'utf8'), 'text/turtle');
    const run = await cli(['load', 'plant', fixture]);
    expect(run.code).toBe(0);
    // The answer's line, then what the service made of the model (the load report).
    const answer =
      /^Loaded equipment\.ttl into site "plant": ([\d,]+) triples in the graph, (\d+\.\d{3}) s, ([\d,]+|-) triples\/s\nLooks like Brick [^\n]+\n {2}Entities: [\d,]+ with a class, [\d,]+ without/.exec(
        run.stdout,
      );
    expect(answer, run.stdout).not.toBeNull();
    expect(Number(answer![1]!.replace(/,/g, ''))).toBe(expected);
    // stderr is a pipe here, so progress is plain lines: the upload, then the service's own (GET …/graph/load).
    expect(run.stderr).toMatch(
      /^uploaded \d+(\.\d)? KiB in \d+\.\d s \([\d.]+ [KMG]?i?B\/s\)\nthe service is loading equipment\.ttl… 0s\n(the service is (loading|parsing) equipment\.ttl[^\n]*\n)*$/,
    );

    const json = await cli(['load', 'plant', fixture, '--json', '--quiet']);
    expect(json.stderr).toBe('');
    const body = JSON.parse(json.stdout);
    expect(body).toMatchObject({ site: 'plant', triples: expected });
    expect(body.triples_per_second === null || body.triples_per_second > 0).toBe(true);
  });

  it('exports the same triples, to stdout as Turtle and to a file as N-Triples', async () => {
    const expected = countTriples(await readFile(fixture, 'utf8'), 'text/turtle');
    const turtle = await cli(['export', 'plant']);
    expect(turtle.code).toBe(0);
    expect(countTriples(turtle.stdout, 'text/turtle')).toBe(expected);
    // With the prefixes the model declared, used in the triples: not a page of full IRIs.
    for (const line of [
      '@prefix ex: <https://example.org/f#>.',
      '@prefix brick: <https://brickschema.org/schema/Brick#>.',
      '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#>.',
    ]) {
      expect(turtle.stdout).toContain(line);
    }
    expect(turtle.stdout).toMatch(/^ex:\S+ /m);
    expect(turtle.stdout).toMatch(/ a brick:\w+[;.]$/m);
    const triples = turtle.stdout.split('\n').filter((line) => !line.startsWith('@prefix'));
    expect(triples.join('\n')).not.toContain('<https://brickschema.org/schema/Brick#');

    const file = join(dir, 'plant.nt');
    const written = await cli(['export', 'plant', '--format', 'ntriples', '-o', file]);
    expect(written.code).toBe(0);
    expect(written.stderr).toMatch(/^Wrote [\d.]+ KiB of ntriples to .*plant\.nt\.\n$/);
    const text = await readFile(file, 'utf8');
    expect(countTriples(text, 'application/n-triples')).toBe(expected);
    expect(text.trim().split('\n')).toHaveLength(expected);
  });

  it('names the site that does not exist, exit 1, and writes no file', async () => {
    const load = await cli(['load', 'nowhere', fixture]);
    expect(load.code).toBe(1);
    expect(load.stderr).toContain('Error (HTTP 404): Site "nowhere" not found.');
    const file = join(dir, 'nowhere.ttl');
    const exported = await cli(['export', 'nowhere', '-o', file]);
    expect(exported.code).toBe(1);
    await expect(readFile(file)).rejects.toThrow(/ENOENT/);
  });

  it('a file that is not there is an error before any request', async () => {
    const run = await cli(['load', 'plant', join(dir, 'missing.ttl')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^Error: No such file: ".*missing\.ttl"\.\n$/);
  });
});

describe('patch, history, diff, rollback', () => {
  const EX = 'https://example.org/cl#';
  beforeAll(async () => {
    await h.fetch('/api/v1/sites/', jsonBody('POST', { id: 'cl', name: 'cl' }));
    const loaded = await h.fetch('/api/v1/sites/cl/graph', {
      method: 'PUT',
      headers: { 'content-type': 'text/turtle' },
      body: `<${EX}vav1> a <https://brickschema.org/schema/Brick#VAV> ; <http://www.w3.org/2000/01/rdf-schema#label> "VAV 1" .`,
    });
    expect(loaded.status).toBe(200);
  });

  it('patches with a SPARQL Update file, lists the history, shows the diff, rolls back', async () => {
    const update = join(dir, 'rename.ru');
    await writeFile(
      update,
      `PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#>
       DELETE { ?v rdfs:label "VAV 1" } INSERT { ?v rdfs:label "VAV 1 (north)" } WHERE { ?v rdfs:label "VAV 1" }`,
    );
    const patched = await cli(['patch', 'cl', update, '-m', 'renamed after commissioning']);
    expect(patched.stderr).toBe('');
    expect(patched.stdout).toBe('Version 2: +1 −1 triples (1 entities); the graph holds 2.\n');

    const listed = await cli(['history', 'cl']);
    expect(listed.code).toBe(0);
    const rows = listed.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^version\s+at\s+by\s+via/);
    expect(rows[1]).toMatch(/^2\s.*key .*patch\s+1\s+1\s+2\s+renamed after commissioning$/);
    expect(rows[2]).toMatch(/^1\s.*put\s+2\s+0\s+2/);

    const summary = await cli(['diff', 'cl', '1']);
    expect(summary.stdout).toBe(`From version 1 to 2: +1 −1 triples.\n~ label of ${EX}vav1: VAV 1 → VAV 1 (north)\n`);
    const rdfPatch = await cli(['diff', 'cl', '2', '1', '--format', 'patch']);
    expect(rdfPatch.stdout).toBe(
      `TX .\nD <${EX}vav1> <http://www.w3.org/2000/01/rdf-schema#label> "VAV 1 (north)" .\nA <${EX}vav1> <http://www.w3.org/2000/01/rdf-schema#label> "VAV 1" .\nTC .\n`,
    );
    // The patch back, applied with bkg patch, is the rollback by hand; --if-match guards it.
    const back = join(dir, 'back.rdfp');
    await writeFile(back, rdfPatch.stdout);
    const stale = await cli(['patch', 'cl', back, '--if-match', '1']);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('HTTP 412');

    const rolled = await cli(['rollback', 'cl', '1']);
    expect(rolled.stdout).toBe('Version 3 is version 1 again: +1 −1 triples; the graph holds 2.\n');
    const graph = await (
      await h.fetch('/api/v1/sites/cl/graph', { headers: { accept: 'application/n-triples' } })
    ).text();
    expect(graph).toContain('"VAV 1" .');
  });

  afterAll(async () => {
    await h.fetch('/api/v1/sites/cl/', { method: 'DELETE' });
  });

  it('a change file of no known kind is a usage error before any request', async () => {
    const run = await cli(['patch', 'cl', join(dir, 'change.txt')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--format must be sparql or patch');
  });
});

describe('keys', () => {
  it('creates a key (secret printed once), lists it, revokes it; the revoked key then fails', async () => {
    const created = await cli(['keys', 'create', '--name', 'dashboard', '--sites', 'plant']);
    expect(created.code).toBe(0);
    const secret = /^ {2}(bkg_[A-Za-z0-9_-]{43})$/m.exec(created.stdout)?.[1];
    expect(secret, created.stdout).toBeDefined();
    expect(created.stdout).toContain('This secret is shown only now');
    const id = /\(id ([0-9a-f-]{36});/.exec(created.stdout)?.[1];
    expect(id).toBeDefined();

    const list = await cli(['keys', 'list']);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(/^ID\s+NAME\s+SITES\s+WRITE\s+ADMIN\s+CREATED\s+LAST USED\s+STATUS\n/);
    expect(list.stdout).toMatch(new RegExp(`${id}\\s+dashboard\\s+plant\\s+no\\s+no\\s+.*active\\n`));
    expect(list.stdout).not.toContain(secret);

    const asKey = await cli(['sites', 'list'], { BKG_TOKEN: secret! });
    expect(asKey.code).toBe(0);
    expect(asKey.stdout).toContain('plant');

    const revoked = await cli(['keys', 'revoke', id!]);
    expect(revoked.code).toBe(0);
    expect(revoked.stdout).toBe(`Revoked API key ${id}.\n`);
    expect((await cli(['keys', 'list'])).stdout).toMatch(new RegExp(`${id}\\s+dashboard.*revoked \\d{4}-`));

    const refused = await cli(['sites', 'list'], { BKG_TOKEN: secret! });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe('Error (HTTP 401): The API key is not valid or was revoked.\n');
  });

  it('--all-sites, --write and --admin; --json carries the secret in "key"', async () => {
    const run = await cli(['keys', 'create', '--name', 'loader', '--all-sites', '--write', '--json']);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      name: 'loader',
      sites: '*',
      write: true,
      admin: false,
      key: expect.stringMatching(/^bkg_/),
    });
  });

  it('needs --sites or --all-sites', async () => {
    const run = await cli(['keys', 'create', '--name', 'x']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--sites a,b or --all-sites');
  });

  it('BKG_ADMIN_KEY is the token when BKG_TOKEN is unset; no token at all says how to give one', async () => {
    expect((await cli(['keys', 'list'], { BKG_TOKEN: '', BKG_ADMIN_KEY: h.adminKey })).code).toBe(0);
    const none = await cli(['keys', 'list'], { BKG_TOKEN: '' });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^Error \(HTTP 401\): .*pass --token or set BKG_TOKEN\)\n$/);
  });
});

describe('tokens issue', () => {
  /** A GET with a bearer token: the status and the JSON answer. */
  const getAs = async (token: string, path: string) => {
    const res = await fetch(`${h.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, body: (await res.json()) as unknown };
  };
  const issue = (args: string[], env: Record<string, string> = { BKG_JWT_SECRET: JWT_SECRET }) =>
    cli(['tokens', 'issue', ...args], { BKG_URL: '', BKG_TOKEN: '', ...env });

  it('issues a token, with no service needed, that reads the named sites only and never writes', async () => {
    expect((await cli(['sites', 'create', 'lab', '--name', 'Lab'])).code).toBe(0);
    expect((await cli(['sites', 'create', 'vault', '--name', 'Vault'])).code).toBe(0);
    const run = await issue(['--user', 'alice', '--sites', 'plant,lab', '--hours', '8']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+\n$/);
    const token = run.stdout.trim();

    expect(await getAs(token, '/api/v1/sites/plant/')).toMatchObject({ status: 200, body: { id: 'plant' } });
    expect((await getAs(token, '/api/v1/sites/lab/')).status).toBe(200);
    expect((await getAs(token, '/api/v1/sites/vault/')).status).toBe(404);
    const listed = (await getAs(token, '/api/v1/sites/')).body as Array<{ id: string }>;
    expect(listed.map((s) => s.id).sort()).toEqual(['lab', 'plant']);
    const write = await fetch(`${h.url}/api/v1/sites/plant/graph`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/turtle' },
      body: '',
    });
    expect(write.status).toBe(403);
    expect(await write.json()).toMatchObject({
      detail: 'This token may not write to this site: user tokens only read.',
    });
  });

  it('--json prints the claims and the token; --all-sites reads every site', async () => {
    const before = Math.floor(Date.now() / 1000);
    const run = await issue(['--user', 'bob', '--all-sites', '--hours', '0.5', '--json']);
    expect(run.code).toBe(0);
    const { token, claims } = JSON.parse(run.stdout) as {
      token: string;
      claims: { sub: string; sites: unknown; iat: number; exp: number };
    };
    expect(claims).toMatchObject({ sub: 'bob', sites: '*' });
    expect(claims.iat).toBeGreaterThanOrEqual(before);
    expect(claims.exp - claims.iat).toBe(1800);
    expect((await getAs(token, '/api/v1/sites/vault/')).status).toBe(200);
  });

  it('a token is refused once its lifetime is over', async () => {
    // 0.003 hours (10.8 s): long enough to outlast starting the CLI on a busy machine; then waited
    // out by the token's own exp, not by a guess.
    const run = await issue(['--user', 'carol', '--sites', 'plant', '--hours', '0.003', '--json']);
    expect(run.code).toBe(0);
    const { token, claims } = JSON.parse(run.stdout) as { token: string; claims: { exp: number } };
    expect((await getAs(token, '/api/v1/sites/plant/')).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, claims.exp * 1000 - Date.now()) + 1100));
    expect(await getAs(token, '/api/v1/sites/plant/')).toEqual({
      status: 401,
      body: expect.objectContaining({ detail: 'The token has expired.' }),
    });
  }, 30_000);

  it('a token signed with another secret is refused', async () => {
    const run = await issue(['--user', 'mallory', '--all-sites'], { BKG_JWT_SECRET: 'x'.repeat(40) });
    expect(run.code).toBe(0);
    expect((await getAs(run.stdout.trim(), '/api/v1/sites/plant/')).status).toBe(401);
  });

  it('says what is missing: the secret, the user, the sites, a sensible lifetime', async () => {
    expect((await issue(['--user', 'alice', '--sites', 'plant'], {})).stderr).toContain('Set BKG_JWT_SECRET');
    expect((await issue(['--user', 'alice', '--sites', 'plant'], { BKG_JWT_SECRET: 'short' })).stderr).toContain(
      'BKG_JWT_SECRET must be at least 32 characters',
    );
    expect((await issue(['--sites', 'plant'])).stderr).toContain('--user <name>');
    expect((await issue(['--user', 'alice'])).stderr).toContain('--sites hq,lab (or --all-sites)');
    expect((await issue(['--user', 'alice', '--sites', 'Bad_Site'])).stderr).toContain('"Bad_Site" is not a site id');
    const tooLong = await issue(['--user', 'alice', '--sites', 'plant', '--hours', '100000']);
    expect(tooLong.code).toBe(1);
    expect(tooLong.stderr).toContain('--hours must be a number of hours');
  });

  afterAll(async () => {
    for (const site of ['lab', 'vault']) await cli(['sites', 'delete', site]);
  });
});

describe('sites delete', () => {
  it('deletes the site', async () => {
    const run = await cli(['sites', 'delete', 'plant']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Deleted site "plant".\n');
    expect((await cli(['sites', 'list'])).stdout).toBe('No sites.\n');
  });
});

describe('an unreachable service', () => {
  it('exits 2 with a line naming the URL', async () => {
    // A port that was free a moment ago: nothing listens on it.
    const server = createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const { port } = server.address() as { port: number };
    await new Promise((resolve) => server.close(resolve));
    const url = `http://127.0.0.1:${port}`;
    const run = await cli(['sites', 'list', '--url', url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `Error: Cannot reach the service at ${url} (connection refused). Is it running? Set --url or BKG_URL.\n`,
    );
  });
});

describe('the progress bar on a terminal', () => {
  it('draws bytes sent out of the total and the rate in place', () => {
    let text = '';
    const out = { isTTY: true, columns: 100, write: (s: string) => (text += s) };
    const progress = new UploadProgress(out, 'big.ttl', 4 * 1024 * 1024);
    progress.add(4 * 1024 * 1024);
    progress.finish();
    expect(text).toMatch(
      /^\r\x1b\[2Kbig\.ttl \[#{40}\] 100% {2}4\.0 MiB \/ 4\.0 MiB {2}[\d.]+ [KMGT]?i?B\/s {2}\d+s\n$/,
    );
  });
});
