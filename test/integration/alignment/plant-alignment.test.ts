/**
 * The alignment measured on a harder case than the demo: a heating plant exported with family
 * names, tags on some elements and ports between them, against a Brick model named by an
 * integrator (heating-plant.ts). The figures go in docs/ifc-alignment.md.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTO_ACCEPT_SCORE } from '../../../src/alignment/align.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { file, postForm } from '../files/files-support.ts';
import { HEATING_PLANT_TRUTH, HEATING_PLANT_TTL, heatingPlantIfc } from './heating-plant.ts';

type Json = Record<string, any>;

const SCHEMAS = ['IFC4', 'IFC2X3'] as const;
/** The plant's site for each schema: one service reads both exports. */
const siteOf = (schema: (typeof SCHEMAS)[number]) => `plant-${schema.toLowerCase()}`;
let h: Harness;

beforeAll(async () => {
  h = await createHarness({
    sites: Object.fromEntries(SCHEMAS.map((schema) => [siteOf(schema), HEATING_PLANT_TTL])),
    env: { BKG_IFC_WORKERS: '1' },
  });
  for (const schema of SCHEMAS) {
    const response = await postForm(h, '/api/files/', {
      site_id: siteOf(schema),
      category: 'bim-source',
      file: file(heatingPlantIfc(schema), 'heating-plant.ifc'),
    });
    expect(response.status).toBe(201);
  }
  await h.services.ifc.idle();
});

afterAll(async () => {
  await h?.close();
});

describe.each(SCHEMAS)('IFC alignment on a heating plant (%s)', (schema) => {
  const site = siteOf(schema);
  let proposals: Json[];

  beforeAll(async () => {
    proposals = (await (await h.fetch(`/api/v1/sites/${site}/alignment/proposals?limit=1000`)).json()).items;
  });

  const measure = (threshold: number) => {
    const above = proposals.filter((p) => p.score >= threshold);
    const correct = above.filter((p) => HEATING_PLANT_TRUTH[p.globalId] === p.entityId).length;
    const total = Object.keys(HEATING_PLANT_TRUTH).length;
    return {
      above: above.length,
      correct,
      precision: above.length === 0 ? 1 : correct / above.length,
      recall: correct / total,
      total,
    };
  };

  it('prints precision and recall at the auto-accept threshold and over every proposal', () => {
    for (const [label, threshold] of [
      [`auto-accept (${AUTO_ACCEPT_SCORE})`, AUTO_ACCEPT_SCORE],
      ['review (0.5)', 0.5],
      ['every proposal', 0],
    ] as const) {
      const m = measure(threshold);
      console.log(
        `heating plant ${schema}, ${label}: ${m.above} proposals, ${m.correct} correct of ${m.total} links: precision ${m.precision.toFixed(3)}, recall ${m.recall.toFixed(3)}`,
      );
    }
    for (const p of proposals)
      console.log(
        `  ${p.score.toFixed(2)} ${p.ifcClass} "${p.ifcName}" -> ${p.entityId} ${HEATING_PLANT_TRUTH[p.globalId] === p.entityId ? 'right' : 'WRONG'} [${p.evidence.map((e: Json) => `${e.kind} ${e.weight}`).join(', ')}]`,
      );
    expect(measure(AUTO_ACCEPT_SCORE).precision).toBeGreaterThanOrEqual(0.9);
    // What reaches review: every link, and nothing wrong.
    expect(measure(0).precision).toBeGreaterThanOrEqual(0.9);
    expect(measure(0).recall).toBeGreaterThanOrEqual(0.8);
  });

  it('tells the two untagged boiler pumps apart by what they are piped to', () => {
    const pumps = proposals.filter((p) => p.ifcName.startsWith('Pump - Inline'));
    for (const pump of pumps) {
      expect(pump.entityId).toBe(HEATING_PLANT_TRUTH[pump.globalId]);
      expect(pump.evidence.some((e: Json) => e.kind === 'connectivity')).toBe(true);
    }
    expect(pumps).toHaveLength(2);
  });

  it("costs the demo tower's round trips and two more for feeds, as the model has ports", async () => {
    h.resetRoundTrips();
    expect((await h.fetch(`/api/v1/sites/${site}/alignment/coverage`)).status).toBe(200);
    expect(h.roundTrips()).toBe(9);
  });

  it('finds tagged equipment by its tag', () => {
    const tagged = proposals.filter((p) => p.evidence.some((e: Json) => e.kind === 'tag'));
    expect(tagged.map((p) => p.entityId).sort()).toEqual(['B-1', 'B-2', 'CP-1', 'RAD-0-01', 'RAD-0-02']);
    for (const p of tagged) expect(p.score).toBeGreaterThanOrEqual(AUTO_ACCEPT_SCORE);
  });
});
