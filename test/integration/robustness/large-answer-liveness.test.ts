// While the largest answer of one site is computed and written, the service goes on serving
// everyone else: /healthz and a small query on another site answer, again and again,
// before the large one has finished. The large answer's work runs in slices of the main thread
// (src/limits/main-thread.ts); this asserts the order of events, not timings.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../support/harness.ts';

const POINTS = 40_000;

/** A site of `POINTS` points on 400 VAVs, each point with a name, a unit and a timeseries id. */
function bigSite(): string {
  const lines = [
    '@prefix brick: <https://brickschema.org/schema/Brick#> .',
    '@prefix ref: <https://brickschema.org/schema/Brick/ref#> .',
    '@prefix unit: <http://qudt.org/vocab/unit/> .',
    '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
    '@prefix : <https://big.example/> .',
  ];
  for (let p = 0; p < POINTS; p++) {
    const vav = `:VAV-${Math.floor(p / 100)}`;
    lines.push(
      `:P-${p} a brick:Zone_Air_Temperature_Sensor ; rdfs:label "Point ${p}" ; brick:isPointOf ${vav} ; brick:hasUnit unit:DEG_C ;`,
    );
    lines.push(`  ref:hasExternalReference [ ref:hasTimeseriesId "ts-${p}" ] .`);
  }
  for (let v = 0; v < POINTS / 100; v++) lines.push(`:VAV-${v} a brick:VAV ; rdfs:label "VAV ${v}" .`);
  return lines.join('\n');
}

const SMALL = `@prefix brick: <https://brickschema.org/schema/Brick#> .
<https://small.example/AHU-1> a brick:AHU ; brick:hasPoint <https://small.example/SAT> .
<https://small.example/SAT> a brick:Supply_Air_Temperature_Sensor .`;

let h: Harness;
/** The large request: settled before the harness closes, whatever an assertion does. */
let inFlight: Promise<unknown> | undefined;
beforeAll(async () => {
  // The store's two threads, as a service starts with: the small site's query may run on the other.
  h = await createHarness({ sites: { big: bigSite(), small: SMALL }, env: { BKG_STORE_THREADS: '2' } });
});
afterAll(async () => {
  await inFlight?.catch(() => undefined);
  await h?.close();
});

it(`answers /healthz and a small query on another site while ${POINTS.toLocaleString('en')} points are answered`, async () => {
  let largeDone = false;
  const large = h
    .graphql('{ point(siteId: "big") { id name type unit timeseriesId } }')
    .finally(() => (largeDone = true));
  inFlight = large;
  let answeredMeanwhile = 0;
  while (!largeDone) {
    const [health, small] = await Promise.all([
      fetch(`${h.url}/healthz`),
      h.graphql('{ equipment(siteId: "small") { id points { id } } }'),
    ]);
    expect(health.status).toBe(200);
    expect(small.data?.equipment).toEqual([{ id: 'AHU-1', points: [{ id: 'SAT' }] }]);
    if (!largeDone) answeredMeanwhile++;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const answer = await large;
  expect(answer.errors).toBeUndefined();
  expect(answer.data.point).toHaveLength(POINTS);
  expect(answer.data.point[0]).toEqual({
    id: 'P-0',
    name: 'Point 0',
    type: 'Zone_Air_Temperature_Sensor',
    unit: 'DEG_C',
    timeseriesId: 'ts-0',
  });
  expect(answeredMeanwhile).toBeGreaterThanOrEqual(3);
});
