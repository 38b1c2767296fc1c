import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IFC_BRICK_CLASSES } from '../../../src/alignment/ifc-brick-classes.ts';

// docs/ifc-alignment.md renders the class table between markers: the page and the data cannot drift.
const doc = readFileSync(new URL('../../../docs/ifc-alignment.md', import.meta.url), 'utf8');

/** The table as the page renders it. */
const render = () =>
  [
    '| IFC class | Brick classes (and their subclasses) | group |',
    '|---|---|---|',
    ...IFC_BRICK_CLASSES.map(
      (e) =>
        `| ${e.ifc}${e.generic ? ' (IFC 2x3, generic)' : ''} | ${e.brick.map((b) => `\`${b}\``).join(', ')} | ${e.group} |`,
    ),
  ].join('\n');

describe('docs/ifc-alignment.md', () => {
  it('renders the IFC class ↔ Brick class table the engine ships', () => {
    const block = /<!-- class-table -->\n([\s\S]*?)\n<!-- \/class-table -->/.exec(doc);
    expect(block, 'the page has no class-table block').not.toBeNull();
    expect(block![1]).toBe(render());
  });
});
