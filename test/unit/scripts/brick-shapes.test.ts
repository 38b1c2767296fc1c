// The shapes the validator checks (ontology/brick-shapes.ttl), against what scripts/lib/brick-shapes.ts
// selects from the full Brick 1.4.4 file when it is beside the repository.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import N3 from 'n3';
import { beforeAll, describe, expect, it } from 'vitest';
import { SH, selectBrickShapes } from '../../../scripts/lib/brick-shapes.ts';
import { FULL_BRICK_PATH } from '../ontology/derived-ontology.ts';

const SHAPES_PATH = fileURLToPath(new URL('../../../ontology/brick-shapes.ttl', import.meta.url));
const BRICK = 'https://brickschema.org/schema/Brick#';
const BSH = 'https://brickschema.org/schema/BrickShape#';
const parse = (path: string) =>
  new N3.Store(new N3.Parser({ format: 'text/turtle' }).parse(readFileSync(path, 'utf8')));
/** Triples without blank nodes, as text: blank node labels differ between the two. */
const ground = (quads: Iterable<N3.Quad>) =>
  [...quads]
    .filter((q) => q.subject.termType !== 'BlankNode' && q.object.termType !== 'BlankNode')
    .map((q) => `${q.subject.id} ${q.predicate.id} ${q.object.id}`)
    .sort();

let shipped: N3.Store;
beforeAll(() => {
  shipped = parse(SHAPES_PATH);
});

describe('ontology/brick-shapes.ttl', () => {
  it('holds the Brick shapes the validator needs, with explicit class targets', () => {
    expect(shipped.getObjects(`${BSH}hasLocationShape`, `${SH}class`, null).map((t) => t.value)).toEqual([
      `${BRICK}Location`,
    ]);
    expect(
      shipped.has(
        N3.DataFactory.quad(
          N3.DataFactory.namedNode(`${BRICK}Entity`),
          N3.DataFactory.namedNode(`${SH}targetClass`),
          N3.DataFactory.namedNode(`${BRICK}Entity`),
        ),
      ),
    ).toBe(true);
    expect(
      shipped.has(
        N3.DataFactory.quad(
          N3.DataFactory.namedNode(`${BRICK}Entity`),
          N3.DataFactory.namedNode(`${SH}property`),
          N3.DataFactory.namedNode(`${BSH}hasLocationShape`),
        ),
      ),
    ).toBe(true);
  });

  it('leaves out rules, SHACL-SPARQL and shapes that check nothing', () => {
    for (const p of ['rule', 'sparql', 'target', 'select', 'construct'])
      expect(shipped.countQuads(null, `${SH}${p}`, null, null), p).toBe(0);
    expect(shipped.countQuads(`${BSH}feedsShape`, null, null, null)).toBe(0);
  });

  it.skipIf(!existsSync(FULL_BRICK_PATH))(
    `is what the selection gives from the full Brick.ttl, npm run build:ontology (needs ${FULL_BRICK_PATH})`,
    () => {
      const selected = selectBrickShapes(parse(FULL_BRICK_PATH));
      expect(selected.length).toBe(shipped.size);
      expect(ground(selected)).toEqual(ground(shipped.getQuads(null, null, null, null)));
    },
  );
});
