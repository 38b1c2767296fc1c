// Model validation under one tenant's large models (#16): a long validation on one site leaves
// another site's small one prompt; a model that runs its validator thread out of memory ends that
// thread and fails alone; a validation past its deadline is stopped; either way the site is served
// again afterwards.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generatePortfolioText } from '../../../scripts/generate-portfolio.ts';
import { createHarness, type Harness } from '../../support/harness.ts';

const VALID = readFileSync(new URL('../../../fixtures/validation/valid.ttl', import.meta.url), 'utf8');
// Seconds of SHACL on any machine (a 150k-triple model takes 1.5 min).
const LARGE = generatePortfolioText({ targetTriples: 12_000 }).text;
// About 2.4 kB of heap a triple: some 240 MB with the ontology, past the threads' heap below.
const HUGE = generatePortfolioText({ targetTriples: 80_000 }).text;
// Three times LARGE, for the deadline (a 1 s deadline left LARGE, at 1.7 s, little room on a fast machine).
const PAST_DEADLINE = generatePortfolioText({ targetTriples: 36_000 }).text;
/** Far under PAST_DEADLINE's time, far over a small model's first validation on a new thread (0.1–0.5 s, more under load). */
const DEADLINE_MS = 2000;
// Room for the ontology, the shapes and LARGE; not for HUGE.
const MEMORY_MB = 160;

type Json = any;

/** POST …/graph/validate with the model as the body: status, report, time to answer. */
async function validate(
  h: Harness,
  site: string,
  body: string,
): Promise<{ status: number; body: Json; ms: number; at: number }> {
  const started = performance.now();
  const res = await h.fetch(`/api/v1/sites/${site}/graph/validate`, {
    method: 'POST',
    headers: { 'content-type': 'text/turtle' },
    body,
  });
  const json = await res.json();
  const at = performance.now();
  return { status: res.status, body: json, ms: at - started, at };
}

describe('validations of one site and another’s', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      sites: { large: VALID, small: VALID, huge: VALID },
      env: { BKG_VALIDATION_MEMORY_MB: String(MEMORY_MB) },
    });
    // Both validator threads started and loaded, as on a service that has validated before.
    await Promise.all([validate(h, 'small', VALID), validate(h, 'large', VALID)]);
  });
  afterAll(async () => {
    await h?.close();
  });

  it('answers a small validation promptly while a large one runs on another site', async () => {
    const large = validate(h, 'large', LARGE);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const small = await validate(h, 'small', VALID);
    expect(small.status).toBe(200);
    expect(small.body).toMatchObject({ conforms: true, triples: 17 });
    expect(small.ms, 'the small validation, in ms').toBeLessThan(2000);
    const done = await large;
    expect(done.status).toBe(200);
    expect(done.body.triples).toBeGreaterThan(11_000);
    expect(small.at, 'the small validation answered first').toBeLessThan(done.at);
  });

  it('fails only the validation whose model runs its thread out of memory; the site is served again afterwards', async () => {
    const huge = validate(h, 'huge', HUGE);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const small = await validate(h, 'small', VALID);
    expect(small).toMatchObject({ status: 200, body: { conforms: true } });
    const crashed = await huge;
    expect(crashed.status).toBe(400);
    expect(crashed.body).toMatchObject({ code: 'QUERY_TOO_LARGE', exceeded: 'memory', limitMb: MEMORY_MB });
    expect(await validate(h, 'huge', VALID)).toMatchObject({ status: 200, body: { conforms: true } });
  });
});

describe('a validation past its deadline', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ sites: { large: VALID }, env: { BKG_VALIDATION_TIMEOUT_MS: String(DEADLINE_MS) } });
  });
  afterAll(async () => {
    await h?.close();
  });

  it('is stopped with a 400 that says so, and the site’s next validation is answered', async () => {
    const stopped = await validate(h, 'large', PAST_DEADLINE);
    expect(stopped.status).toBe(400);
    expect(stopped.body).toMatchObject({
      code: 'QUERY_TOO_COMPLEX',
      detail: expect.stringMatching(/validation ran longer than 2 s/),
    });
    expect(await validate(h, 'large', VALID)).toMatchObject({ status: 200, body: { conforms: true } });
  });
});
