import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// The documentation is a site: README.md is its front door and docs/ its pages. A reader who follows
// a link must land on a file of the repository, and on the heading the link names; nothing may send
// them to a file the repository does not hold.

const root = resolve(import.meta.dirname, '../../..');

/** The Markdown a reader meets: the README, every page of docs/ and bench/, and the folders' READMEs. */
function markdownFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(resolve(root, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) return walk(path);
      return entry.name.endsWith('.md') ? [path] : [];
    });
  return ['README.md', 'fixtures/README.md', 'ontology/README.md', ...walk('docs'), ...walk('bench')];
}

/** The text outside fenced code blocks, one entry per line (code lines blanked, so line numbers hold). */
function proseLines(markdown: string): string[] {
  let fence: string | undefined;
  return markdown.split('\n').map((line) => {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (marker && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined;
      return '';
    }
    return fence === undefined ? line : '';
  });
}

/** GitHub's anchor for a heading: lowercase, punctuation removed, spaces to '-'. */
export function headingSlug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link shows its text
    .trim();
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** Every anchor a page offers: one per heading, repeats numbered as GitHub numbers them. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = headingSlug(heading);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

interface Link {
  readonly file: string;
  readonly line: number;
  readonly target: string;
}

/** The inline links of a page's prose (code spans and blocks are examples, not links). */
function linksOf(file: string, markdown: string): Link[] {
  return proseLines(markdown).flatMap((text, index) =>
    [...text.replace(/`[^`]*`/g, '').matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => ({
      file,
      line: index + 1,
      target: m[1]!,
    })),
  );
}

/** Why a link does not land, or undefined when it does. */
function brokenBecause(link: Link): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(link.target)) return undefined; // http:, https:, mailto:
  const [path, anchor] = link.target.split('#', 2) as [string, string | undefined];
  const target = path === '' ? resolve(root, link.file) : resolve(root, dirname(link.file), decodeURI(path));
  const inRepo = relative(root, target);
  if (inRepo.startsWith('..') || inRepo.split(sep)[0] === '..') return 'points outside the repository';
  if (!existsSync(target)) return 'no such file';
  if (anchor === undefined) return undefined;
  if (statSync(target).isDirectory() || !target.endsWith('.md')) return 'an anchor on a file that is not Markdown';
  const anchors = anchorsOf(readFileSync(target, 'utf8'));
  return anchors.has(anchor) ? undefined : `no heading "${anchor}" in ${relative(root, target)}`;
}

/** Files that are not in the repository, which pages once pointed readers to. */
const outsideReferences: readonly RegExp[] = [
  /\bMAPPING(\.md|'s)?\b/,
  /\bINFRA(\.md)?\b/,
  /\bSPEC(\.md)?\b/,
  /(^|[\s(`'"])(\.\.\/)+shared\//,
  /\/work\/shared\b/,
];

describe('the documentation', () => {
  const files = markdownFiles();

  it('covers the README and every page of docs/', () => {
    expect(files).toContain('README.md');
    expect(files).toContain('docs/README.md');
    expect(files).toContain('docs/architecture.md');
  });

  it.each(files)('%s: every relative link reaches a file of the repository and its heading', (file) => {
    const markdown = readFileSync(resolve(root, file), 'utf8');
    const broken = linksOf(file, markdown)
      .map((link) => ({ link, why: brokenBecause(link) }))
      .filter(({ why }) => why !== undefined)
      .map(({ link, why }) => `${link.file}:${link.line}: ${link.target}: ${why}`);
    expect(broken).toEqual([]);
  });

  it.each(files)('%s: refers to no file outside the repository', (file) => {
    const lines = readFileSync(resolve(root, file), 'utf8').split('\n');
    const found = lines.flatMap((line, index) =>
      outsideReferences.filter((pattern) => pattern.test(line)).map(() => `${file}:${index + 1}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it('every page of docs/ is reachable from the README or the docs index', () => {
    const linked = new Set(
      ['README.md', 'docs/README.md'].flatMap((file) =>
        linksOf(file, readFileSync(resolve(root, file), 'utf8')).map((link) =>
          relative(root, resolve(root, dirname(file), link.target.split('#')[0]!)),
        ),
      ),
    );
    const pages = files.filter((file) => file.startsWith('docs/') && file !== 'docs/README.md');
    expect(pages.filter((page) => !linked.has(page))).toEqual([]);
  });
});

describe('headingSlug', () => {
  it('follows GitHub: lowercase, punctuation removed, spaces to hyphens', () => {
    expect(headingSlug("Restarts, restores and the embedded store's ceiling")).toBe(
      'restarts-restores-and-the-embedded-stores-ceiling',
    );
    expect(headingSlug('Command line: `bkg`')).toBe('command-line-bkg');
    expect(headingSlug('IFC models: storeys, elements, fragments')).toBe('ifc-models-storeys-elements-fragments');
    expect(headingSlug('What the service made of it: the load report')).toBe(
      'what-the-service-made-of-it-the-load-report',
    );
    expect(headingSlug('snake_case and a [link](x.md)')).toBe('snake_case-and-a-link');
  });
});
