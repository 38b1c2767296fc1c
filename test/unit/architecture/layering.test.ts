import { readdirSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// The rule is docs/architecture.md's `layers` block, read here, so the page and the test cannot drift.

const root = resolve(import.meta.dirname, '../../..');
const src = resolve(root, 'src');
const doc = readFileSync(resolve(root, 'docs/architecture.md'), 'utf8');

/** One import of one file of src/, as written. */
interface Import {
  readonly from: string;
  readonly to: string;
  readonly line: number;
}

/** The lines of the fenced block of the given language, without blanks. */
function fencedBlock(markdown: string, language: string): string[] {
  const block = new RegExp('^```' + language + '\\n([\\s\\S]*?)^```', 'm').exec(markdown);
  if (!block) throw new Error(`docs/architecture.md has no \`\`\`${language} block`);
  return block[1]!
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '');
}

/** The units (folders, and files at the top of src/) in the block's order, top to bottom. */
function readLayers(markdown: string): string[] {
  return fencedBlock(markdown, 'layers').flatMap((line) => line.split(/\s+/).slice(1));
}

/** The text of a `## ` section of the page, up to the next one. */
function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/architecture.md has no "## ${heading}" section`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/** The unit a path inside src/ belongs to: its top folder, or the file itself at the top. */
function unitOf(path: string): string {
  return relative(src, path).split(sep)[0]!;
}

/** Every import of src/ that names another file of src/: static, re-export, dynamic with a literal, and worker URLs. */
function readImports(): Import[] {
  const files = readdirSync(src, { recursive: true, encoding: 'utf8' }).filter((f) => /\.(ts|mts|mjs)$/.test(f));
  const imports: Import[] = [];
  for (const file of files) {
    const path = resolve(src, file);
    const text = readFileSync(path, 'utf8');
    const lineAt = (pos: number) => text.slice(0, pos).split('\n').length;
    const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((f) => ({ name: f.fileName, pos: f.pos }));
    // A worker is a dependency too, though named by a URL rather than imported.
    for (const m of text.matchAll(/new URL\(\s*'(\.[^']+\.(?:ts|mts|mjs))'\s*,\s*import\.meta\.url/g))
      specifiers.push({ name: m[1]!, pos: m.index });
    for (const { name, pos } of specifiers) {
      if (!name.startsWith('.')) continue;
      const target = resolve(dirname(path), name);
      if (!target.startsWith(src + sep)) continue;
      imports.push({ from: relative(root, path), to: relative(root, target), line: lineAt(pos) });
    }
  }
  return imports;
}

const key = (i: Import) => `${i.from} -> ${i.to}`;
const describeImport = (i: Import) => `${i.from}:${i.line} imports ${i.to}`;

/** What breaks the layering: unknown units, arrows up or sideways, folders importing each other. */
function layeringViolations(imports: readonly Import[], layers: readonly string[], units: readonly string[]): string[] {
  const rank = new Map(layers.map((unit, i) => [unit, i]));
  const problems = units
    .filter((u) => !rank.has(u))
    .map((u) => `src/${u} belongs to no part: add it to the layers block of docs/architecture.md`);
  const arrows = new Map<string, Import>();
  for (const i of imports) {
    const from = unitOf(resolve(root, i.from));
    const to = unitOf(resolve(root, i.to));
    if (from === to || !rank.has(from) || !rank.has(to)) continue;
    if (!arrows.has(`${from} ${to}`)) arrows.set(`${from} ${to}`, i);
    if (rank.get(to)! < rank.get(from)!)
      problems.push(
        `${describeImport(i)}: ${from} may not import ${to}, which comes before it in docs/architecture.md`,
      );
  }
  for (const [pair, i] of arrows) {
    const [from, to] = pair.split(' ') as [string, string];
    const back = arrows.get(`${to} ${from}`);
    if (back && from < to)
      problems.push(`${from} and ${to} import each other: ${describeImport(i)}; ${describeImport(back)}`);
  }
  return problems;
}

/** The files of each import loop (a strongly connected set of two or more files), by Tarjan's algorithm. */
function fileLoops(imports: readonly Import[]): string[][] {
  const next = new Map<string, string[]>();
  for (const i of imports) next.set(i.from, [...(next.get(i.from) ?? []), i.to]);
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const loops: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file)!);
    stack.push(file);
    for (const to of next.get(file) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(file, Math.min(low.get(file)!, low.get(to)!));
      } else if (stack.includes(to)) low.set(file, Math.min(low.get(file)!, index.get(to)!));
    }
    if (low.get(file) !== index.get(file)) return;
    const loop: string[] = [];
    let member: string;
    do loop.push((member = stack.pop()!));
    while (member !== file);
    if (loop.length > 1) loops.push(loop.sort());
  };
  for (const file of next.keys()) if (!index.has(file)) visit(file);
  return loops;
}

describe('the layering of src/ (docs/architecture.md)', () => {
  const layers = readLayers(doc);
  const imports = readImports();
  const units = [
    ...new Set(
      readdirSync(src, { withFileTypes: true })
        .filter((e) => e.isDirectory() || /\.ts$/.test(e.name))
        .map((e) => e.name),
    ),
  ];

  it('reads the real imports of src/', () => {
    expect(imports.length).toBeGreaterThan(500);
    expect(imports.map(key)).toContain('src/main.ts -> src/http/create-app.ts');
    expect(layers).toContain('compiler');
  });

  it('names every unit once', () => {
    expect(layers.filter((u, i) => layers.indexOf(u) !== i)).toEqual([]);
  });

  it('names only folders and files that src/ has', () => {
    expect(layers.filter((u) => !units.includes(u))).toEqual([]);
  });

  it('describes every folder and top-level file of src/ under "The parts"', () => {
    const parts = section(doc, 'The parts');
    const named = (u: string) => parts.includes(u.endsWith('.ts') ? `\`${u}\`` : `\`${u}/\``);
    expect(units.filter((u) => !named(u))).toEqual([]);
  });

  it('has every folder of src/ in a part, and every import pointing down the list', () => {
    expect(layeringViolations(imports, layers, units)).toEqual([]);
  });

  it('has no loop of imports between files', () => {
    expect(fileLoops(imports)).toEqual([]);
  });

  it('finds a loop of imports between files', () => {
    const fake: Import[] = [
      { from: 'src/a/x.ts', to: 'src/a/y.ts', line: 1 },
      { from: 'src/a/y.ts', to: 'src/a/z.ts', line: 1 },
      { from: 'src/a/z.ts', to: 'src/a/x.ts', line: 1 },
      { from: 'src/a/z.ts', to: 'src/b/w.ts', line: 2 },
    ];
    expect(fileLoops(fake)).toEqual([['src/a/x.ts', 'src/a/y.ts', 'src/a/z.ts']]);
  });

  it('catches an import that points up, one sideways within a line, a folder in no part and two folders importing each other', () => {
    const fake: Import[] = [
      { from: 'src/store/a.ts', to: 'src/graphql/b.ts', line: 3 },
      { from: 'src/graphql/b.ts', to: 'src/store/a.ts', line: 1 },
      { from: 'src/redis/c.ts', to: 'src/db/d.ts', line: 2 },
    ];
    expect(
      layeringViolations(fake, ['graphql', 'store', 'db', 'redis'], ['graphql', 'store', 'db', 'redis', 'stray']),
    ).toEqual([
      'src/stray belongs to no part: add it to the layers block of docs/architecture.md',
      'src/store/a.ts:3 imports src/graphql/b.ts: store may not import graphql, which comes before it in docs/architecture.md',
      'src/redis/c.ts:2 imports src/db/d.ts: redis may not import db, which comes before it in docs/architecture.md',
      'graphql and store import each other: src/graphql/b.ts:1 imports src/store/a.ts; src/store/a.ts:3 imports src/graphql/b.ts',
    ]);
  });
});
