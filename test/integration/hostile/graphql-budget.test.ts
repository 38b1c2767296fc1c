// A GraphQL request whose answer explodes: nested lists multiply (every point of every equipment,
// the equipment of each point, its points again …), so a request of a kilobyte that passes depth,
// alias, cost and token limits asked for a 125 MB answer and, with six aliases, ran the process out
// of memory. The budget counts each entity as often as it appears in the answer, before the next
// level is fetched, and refuses the request in well under a second (src/query/answer-cost.ts).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../support/harness.ts';
import { PROMPT_MS, duringAttack } from './hostile-support.ts';

const demo = readFileSync(new URL('../../../fixtures/demo.ttl', import.meta.url), 'utf8');
const tenant = readFileSync(new URL('../../../fixtures/small/equipment.ttl', import.meta.url), 'utf8');

/** `equipment { id points { id equipment { id points { … } } } }`, `levels` pairs deep, on the demo site. */
const nested = (levels: number) =>
  `equipment(siteId: "demo") { id ${'points { id equipment { id '.repeat(levels)}${' } }'.repeat(levels)} }`;
/** The attack: `aliases` copies of the nested selection (depth 11 at five levels, ~1.2 KB). */
const attack = (aliases: number, levels = 5) =>
  `{ ${Array.from({ length: aliases }, (_, i) => `a${i}: ${nested(levels)}`).join(' ')} }`;

let h: Harness;
let small: Harness;

beforeAll(async () => {
  [h, small] = await Promise.all([
    createHarness({ sites: { demo, tenant } }),
    createHarness({ sites: { demo }, env: { BKG_BUDGET_ENTITIES: '2000', BKG_BUDGET_RESPONSE_BYTES: '20000000' } }),
  ]);
}, 120_000);

afterAll(async () => {
  await Promise.all([h?.close(), small?.close()]);
});

const innocent = async () => {
  const res = await h.graphql(
    '{ equipment(siteId: "tenant", name: "AHU-1", nameMatch: EXACT) { name points { name } } }',
  );
  expect(res.errors).toBeUndefined();
  expect(res.data.equipment).toHaveLength(1);
  return res;
};

describe('a request whose answer explodes', () => {
  it('is refused to an anonymous caller with QUERY_TOO_LARGE after a few levels, while another site answers', async () => {
    // Warm: the site's profile is read by its first query.
    await Promise.all([h.graphql('{ equipment(siteId: "demo", name: "AHU-1") { id } }', undefined, null), innocent()]);
    let ms = Infinity;
    const timed = async () => {
      const started = performance.now();
      const res = await h.graphql(attack(6), undefined, null);
      ms = performance.now() - started;
      return res;
    };
    const { attack: res } = await duringAttack(timed, innocent);
    expect(res.errors?.length).toBeGreaterThan(0);
    for (const error of res.errors!) expect(error.extensions?.code).toBe('QUERY_TOO_LARGE');
    expect(res.errors![0]!.message).toMatch(/more than 20,000 entities in the answer.*anonymous.*API key/);
    expect(res.errors![0]!.extensions).toMatchObject({ exceeded: 'entities', limit: 20_000, tier: 'anonymous' });
    // ~0.25 s on an idle 2-core machine (docs/security.md); the bound leaves room for a CI machine
    // running suites side by side. Unrefused, one alias alone took 18 s and 1.2 GB.
    expect(ms).toBeLessThan(PROMPT_MS);
    // The process is whole: the same caller's ordinary query answers.
    const after = await h.graphql(
      '{ equipment(siteId: "demo", name: "AHU-1", nameMatch: EXACT) { name } }',
      undefined,
      null,
    );
    expect(after.data.equipment).toEqual([{ name: 'AHU-1' }]);
  });

  it('counts an entity as often as the answer repeats it: one nested alias costs its whole tree', async () => {
    // One level answers; the tree below multiplies by the points of each equipment at every level.
    const flat = await small.graphql(`{ ${nested(1)} }`);
    expect(flat.errors).toBeUndefined();
    const tree = (equipment: Array<{ points: Array<{ equipment: unknown }> }>) =>
      equipment.reduce((n, e) => n + 1 + e.points.length * 2, 0);
    expect(tree(flat.data.equipment)).toBeLessThan(2000);
    const deep = await small.graphql(`{ ${nested(3)} }`);
    expect(deep.errors?.[0]?.extensions).toMatchObject({
      code: 'QUERY_TOO_LARGE',
      exceeded: 'entities',
      limit: 2000,
      tier: 'client',
    });
    expect(deep.errors![0]!.message).not.toMatch(/anonymous/);
  });

  it('refuses an answer over its byte budget, naming it', async () => {
    const bytes = await createHarness({ sites: { demo }, env: { BKG_BUDGET_RESPONSE_BYTES: '4096' } });
    try {
      const res = await bytes.graphql('{ point(siteId: "demo") { id name type typeHierarchy unit timeseriesId } }');
      expect(res.errors?.[0]?.extensions).toMatchObject({
        code: 'QUERY_TOO_LARGE',
        exceeded: 'responseBytes',
        limit: 4096,
      });
      expect(res.errors![0]!.message).toMatch(/more than 4,096 bytes of answer/);
      const one = await bytes.graphql(
        '{ point(siteId: "demo", name: "AHU-1 Supply Air Temp", nameMatch: EXACT) { id name } }',
      );
      expect(one.errors).toBeUndefined();
    } finally {
      await bytes.close();
    }
  });

  it('answers an ordinary large query of the demo site to an anonymous caller in full', async () => {
    const res = await h.graphql(
      '{ equipment(siteId: "demo") { id name type points { id name unit timeseriesId } } }',
      undefined,
      null,
    );
    expect(res.errors).toBeUndefined();
    expect(res.data.equipment.length).toBeGreaterThan(30);
  });
});
