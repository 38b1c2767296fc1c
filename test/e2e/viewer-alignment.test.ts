/**
 * The viewer's alignment layer end to end, in headless Chromium against a real service:
 * on a site made of the demo graph with some of its IFC links stripped (and the boiler's entity
 * gone) and the demo IFC model uploaded, so that elements are mapped, proposed and unmatched,
 * turning the layer on paints each element of the coverage report in its status's colour and dims
 * the others, the legend counts are the route's, a click shows the element's status (for a
 * proposal, its candidate, score and evidence), and turning it off gives every element its own
 * colours back. A refused report (404, 401) is said plainly. Screenshots go to test-artifacts/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataFactory, Parser, Store, Writer, type Quad } from 'n3';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureViewerBuilt } from '../../scripts/build-viewer.ts';
import { projectRoot } from '../../src/config/config.ts';
import { createHarness, type Harness } from '../support/harness.ts';
import { describeNeeding } from '../support/needs.ts';
import {
  ARTIFACTS,
  launchViewerBrowser,
  pixelAt,
  type Appearance,
  type ViewerHook,
} from '../support/viewer-browser.ts';

declare const window: { __viewer: ViewerHook };

/** The layer's colours (viewer/src/alignment-view.ts) and the dimmed elements' opacity (viewer/src/scene.ts). */
const COLOURS = { mapped: '#2e9d4f', proposed: '#f0a020', unmatched: '#d93025' } as const;
const DIMMED = 0.25;
type Status = keyof typeof COLOURS;
const STATUSES = Object.keys(COLOURS) as Status[];

const DEMO = 'https://example.org/buildings/demo#';
const REF = 'https://brickschema.org/schema/Brick/ref#';
/** Entities whose IFC link the tower's graph loses: their elements are left for the alignment to propose. */
const STRIPPED = ['VAV-2-04', 'VAV-3-01', 'AHU-1', 'Room-2-01'];
/** An entity the tower's graph has not at all: its element (the IfcBoiler) has nothing to map to. */
const REMOVED = 'B-1';
const AHU_2 = '07Nck6zjD1BPZbUQpI_lrO';
const VAV_2_04 = '0PDCK_kkjD6fVQnemqqIix';
const BOILER = '2FFAh41eHDyuxPyXfNKB5t';
/** Classes the demo IFC model gives a shape: the layer's colours show on them. */
const SHAPED = new Set(['IfcAirTerminalBox', 'IfcUnitaryEquipment', 'IfcBoiler', 'IfcChiller']);
const SPARE_TTL = `@prefix brick: <https://brickschema.org/schema/Brick#> .
<https://example.org/spare#AHU-9> a brick:AHU .
`;

interface CoverageElement {
  globalId: string;
  ifcClass: string;
  name: string;
  storey: string;
  status: Status;
  entityId: string | null;
  score: number | null;
}
interface Coverage {
  elements: CoverageElement[];
  byClass: Record<string, Record<Status, number>>;
  byStorey: Record<string, Record<Status, number>>;
  entitiesWithoutElement: unknown[];
}
interface Proposal {
  globalId: string;
  entityId: string;
  entityType: string;
  score: number;
  evidence: Array<{ kind: string; detail: string; weight: number }>;
}

/** An element's entry in a coverage report (it must have one). */
function coverageOf(report: Coverage, globalId: string): CoverageElement {
  const found = report.elements.find((element) => element.globalId === globalId);
  expect(found, `${globalId} in the coverage report`).toBeDefined();
  return found!;
}

/** The demo graph without the IFC links of `STRIPPED` and without `REMOVED`'s own triples. */
function towerGraph(): string {
  const store = new Store(new Parser().parse(readFileSync(join(projectRoot, 'fixtures', 'demo.ttl'), 'utf8')));
  const hasReference = DataFactory.namedNode(`${REF}hasExternalReference`);
  const ifcReference = DataFactory.namedNode(`${REF}IFCReference`);
  const RDF_TYPE = DataFactory.namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type');
  const drop = (quads: Quad[]) => quads.forEach((quad) => store.delete(quad));
  for (const name of STRIPPED) {
    const entity = DataFactory.namedNode(`${DEMO}${name}`);
    for (const link of store.getObjects(entity, hasReference, null)) {
      if (store.getQuads(link, RDF_TYPE, ifcReference, null).length === 0) continue;
      drop(store.getQuads(link, null, null, null));
      drop(store.getQuads(entity, hasReference, link, null));
    }
  }
  const removed = DataFactory.namedNode(`${DEMO}${REMOVED}`);
  for (const quad of store.getQuads(removed, null, null, null)) {
    if (quad.object.termType === 'BlankNode') drop(store.getQuads(quad.object, null, null, null));
    store.delete(quad);
  }
  drop(store.getQuads(null, null, removed, null));
  const writer = new Writer({ prefixes: { demo: DEMO, ref: REF } });
  writer.addQuads(store.getQuads(null, null, null, null));
  let text = '';
  writer.end((error, result) => {
    if (error) throw error;
    text = result;
  });
  return text;
}

describeNeeding(['chromium'], 'the viewer’s alignment layer in headless Chromium', () => {
  let h: Harness;
  let browser: BrowserContext;
  let closeBrowser: () => Promise<void>;
  let page: Page;
  let key: string;
  let modelId: string;
  let coverage: Coverage;
  /** Every element of the tower's model (GlobalId → IFC class), and how each was drawn before the layer. */
  let classes: Map<string, string>;
  let before: Record<string, Appearance | null>;

  const hook = {
    status: (globalId: string) => page.evaluate((id) => window.__viewer.alignment.status(id), globalId),
    appearances: (globalIds: string[]) =>
      page.evaluate(
        async (ids) =>
          Object.fromEntries(
            await Promise.all(ids.map(async (id) => [id, await window.__viewer.alignment.appearance(id)] as const)),
          ),
        globalIds,
      ),
    screenPosition: (globalId: string) => page.evaluate((id) => window.__viewer.screenPosition(id), globalId),
  };

  /** Opens the viewer on a site with a key (through the key form, as a user does). */
  const openSite = async (target: Page, siteId: string, secret: string) => {
    await target.goto(`${h.url}/viewer?site=${siteId}`);
    await target.fill('#key-input', secret);
    await target.click('#key-form button');
    await target.waitForFunction(() => window.__viewer?.ready || window.__viewer?.error, null, { timeout: 60_000 });
    expect(await target.evaluate(() => window.__viewer.error)).toBeNull();
  };

  /** Shows only the element's storey and clicks it; waits for the panel's alignment section. */
  const clickElement = async (element: CoverageElement) => {
    await page.selectOption('#storey-select', element.storey);
    await expect
      .poll(() => page.locator('#status').textContent(), { timeout: 15_000 })
      .toBe(`Storey ${element.storey}`);
    const at = await hook.screenPosition(element.globalId);
    expect(at, `${element.name} on screen`).not.toBeNull();
    await page.mouse.click(at!.x, at!.y);
    await expect.poll(() => page.locator('#entity').innerText(), { timeout: 15_000 }).toContain(element.globalId);
    await page.getByTestId('alignment-status').waitFor({ timeout: 15_000 });
  };

  const coverageElement = (globalId: string) => coverageOf(coverage, globalId);

  beforeAll(async () => {
    await ensureViewerBuilt();
    mkdirSync(ARTIFACTS, { recursive: true });
    h = await createHarness({
      sites: { tower: towerGraph(), spare: SPARE_TTL },
      env: {
        BKG_DEMO_FIXTURE: join(projectRoot, 'fixtures', 'demo.ttl'),
        BKG_IFC_WORKERS: '1',
        BKG_DEMO_BACKFILL_DAYS: '0',
      },
    });
    // The demo IFC model, uploaded to the tower as its BIM source: the service reads it and makes its fragments.
    const form = new FormData();
    form.set('site_id', 'tower');
    form.set('category', 'bim-source');
    form.set(
      'file',
      new Blob([readFileSync(join(projectRoot, 'fixtures', 'demo-files', 'demo-tower.ifc'))], {
        type: 'application/x-step',
      }),
      'Tower.ifc',
    );
    const upload = await h.fetch('/api/files/', { method: 'POST', body: form });
    expect(upload.status, await upload.clone().text()).toBe(201);
    modelId = ((await upload.json()) as { id: string }).id;
    await Promise.all([h.services.ifc.idle(), h.services.simulator?.whenStarted()]);
    const elements = (await (await h.fetch(`/api/v1/sites/tower/models/${modelId}/elements?limit=1000`)).json()) as {
      results: Array<{ ifc_id: string; ifc_class: string }>;
    };
    classes = new Map(elements.results.map((element) => [element.ifc_id, element.ifc_class]));

    const response = await h.fetch('/api/v1/sites/tower/alignment/coverage');
    expect(response.status, await response.clone().text()).toBe(200);
    coverage = (await response.json()) as Coverage;

    key = (await h.services.keys.create({ name: 'tower viewer', sites: ['tower'], write: false, admin: false })).secret;
    ({ browser, close: closeBrowser } = await launchViewerBrowser());
    page = await browser.newPage();
    await openSite(page, 'tower', key);
    before = await hook.appearances([...classes.keys()]);
  });

  afterAll(async () => {
    await closeBrowser?.();
    await h?.close();
  });

  it('has mapped, proposed and unmatched elements on a graph that lost some of its IFC links', () => {
    expect(coverageElement(AHU_2).status).toBe('mapped');
    expect(coverageElement(VAV_2_04)).toMatchObject({
      status: 'proposed',
      entityId: expect.stringContaining('VAV-2-04'),
    });
    expect(coverageElement(BOILER)).toMatchObject({ status: 'unmatched', entityId: null });
    // Walls, slabs and ducts are not in the report; every element without a layer paint showed its own colours.
    expect(
      coverage.elements.filter((element) => ['IfcWall', 'IfcSlab', 'IfcDuctSegment'].includes(element.ifcClass)),
    ).toEqual([]);
    expect(Object.values(before).every((appearance) => appearance?.colour === null && appearance.opacity === 1)).toBe(
      true,
    );
  });

  it('paints each element of the report in its status’s colour and dims the rest', async () => {
    const pixelBefore = await pixelAt(page, (await hook.screenPosition(AHU_2))!);
    await page.check('#alignment-toggle');
    await page.getByTestId('count-mapped').waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => window.__viewer.alignment.on())).toBe(true);

    const painted = await hook.appearances([...classes.keys()]);
    const shown: Record<Status, number> = { mapped: 0, proposed: 0, unmatched: 0 };
    for (const element of coverage.elements) {
      expect(await hook.status(element.globalId), element.name).toBe(element.status);
      if (!SHAPED.has(element.ifcClass)) continue;
      expect(painted[element.globalId], `${element.name} (${element.status})`).toEqual({
        colour: COLOURS[element.status],
        opacity: 1,
      });
      shown[element.status] += 1;
    }
    for (const status of STATUSES) expect(shown[status], `elements shown ${status}`).toBeGreaterThan(0);
    // Elements outside the report (walls, slabs, ducts) keep their colour, faded.
    const reported = new Set(coverage.elements.map((element) => element.globalId));
    const others = [...classes].filter(
      ([globalId, ifcClass]) => !reported.has(globalId) && ['IfcWall', 'IfcSlab', 'IfcDuctSegment'].includes(ifcClass),
    );
    expect(others.length).toBeGreaterThan(0);
    for (const [globalId, ifcClass] of others)
      expect(painted[globalId], ifcClass).toEqual({ colour: null, opacity: DIMMED });

    // As drawn: AHU-2 (mapped), blue in the model, turned green on the screen.
    const pixel = await pixelAt(page, (await hook.screenPosition(AHU_2))!);
    const green = (p: { r: number; g: number; b: number }) => p.g > p.r + 40 && p.g > p.b + 40;
    expect(green(pixelBefore), `AHU-2 before the layer ${JSON.stringify(pixelBefore)}`).toBe(false);
    expect(green(pixel), `AHU-2 with the layer ${JSON.stringify(pixel)}`).toBe(true);
    await page.screenshot({ path: join(ARTIFACTS, 'viewer-alignment-layer.png') });
  });

  it('shows in the legend the route’s counts, per status and per storey', async () => {
    const legend = page.locator('#alignment-legend');
    for (const status of STATUSES) {
      const count = coverage.elements.filter((element) => element.status === status).length;
      expect(await legend.getByTestId(`count-${status}`).textContent(), status).toBe(String(count));
      // The per-class counts of the route add up to the same.
      expect(Object.values(coverage.byClass).reduce((sum, counts) => sum + counts[status], 0)).toBe(count);
    }
    const rows = await legend
      .locator('tr[data-storey]')
      .evaluateAll((trs) =>
        trs.map((tr) => [
          tr.getAttribute('data-storey'),
          Object.fromEntries(
            [...tr.querySelectorAll('td[data-status]')].map((td) => [
              td.getAttribute('data-status'),
              Number(td.textContent),
            ]),
          ),
        ]),
      );
    expect(Object.fromEntries(rows)).toEqual(coverage.byStorey);
    // Rows follow the storeys as the viewer lists them (bottom up); elements on no storey come last.
    const storeys = (await page.locator('#storey-select option').allTextContents()).slice(1);
    const order = rows.map(([storey]) => storey);
    expect(order).toEqual([
      ...storeys.filter((storey) => storey in coverage.byStorey),
      ...('' in coverage.byStorey ? [''] : []),
    ]);
    expect(await legend.getByTestId('entities-without-element').textContent()).toMatch(
      new RegExp(`^${coverage.entitiesWithoutElement.length} graph entit`),
    );
  });

  it('shows a clicked element’s status, and for a proposal its candidate entity, score and evidence', async () => {
    const vav = coverageElement(VAV_2_04);
    const query = new URLSearchParams({ ifcClass: vav.ifcClass, storey: vav.storey, status: 'proposed', limit: '100' });
    const proposals = (
      (await (await h.fetch(`/api/v1/sites/tower/alignment/proposals?${query}`)).json()) as { items: Proposal[] }
    ).items.filter((p) => p.globalId === VAV_2_04);
    expect(proposals.length).toBeGreaterThan(0);

    await clickElement(vav);
    const panel = page.locator('#entity');
    expect(await panel.getByTestId('alignment-status').getAttribute('data-status')).toBe('proposed');
    const shown = panel.locator('ul.proposals > li');
    expect(await shown.count()).toBe(proposals.length);
    const best = shown.first();
    expect(await best.getByTestId('candidate').textContent()).toBe(proposals[0]!.entityId);
    expect(await best.getByTestId('score').textContent()).toBe(`Score ${Math.round(proposals[0]!.score * 100)} %`);
    const evidence = await best
      .locator('[data-testid="evidence"] > li')
      .evaluateAll((items) => items.map((item) => item.getAttribute('data-kind')));
    expect(evidence).toEqual(proposals[0]!.evidence.map((e) => e.kind));
    expect(await best.innerText()).toContain(proposals[0]!.evidence[0]!.detail);
    await page.screenshot({ path: join(ARTIFACTS, 'viewer-alignment-proposal.png') });

    await clickElement(coverageElement(BOILER));
    expect(await panel.getByTestId('alignment-status').getAttribute('data-status')).toBe('unmatched');
    await clickElement(coverageElement(AHU_2));
    expect(await panel.getByTestId('alignment-status').getAttribute('data-status')).toBe('mapped');
    expect(await panel.getByTestId('entity-name').textContent()).toBe('AHU-2');
    // The selection is highlighted over the layer; selecting another element paints the last one again.
    await page.selectOption('#storey-select', '');
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 15_000 }).toBe('All storeys');
    expect(await hook.appearances([BOILER, VAV_2_04])).toEqual({
      [BOILER]: { colour: COLOURS.unmatched, opacity: 1 },
      [VAV_2_04]: { colour: COLOURS.proposed, opacity: 1 },
    });
  });

  it('gives every element its own colours back when turned off', async () => {
    await page.uncheck('#alignment-toggle');
    await expect.poll(() => page.locator('#alignment-legend').isHidden()).toBe(true);
    expect(await page.evaluate(() => window.__viewer.alignment.on())).toBe(false);
    expect(await hook.status(AHU_2)).toBeNull();
    const after = await hook.appearances([...classes.keys()]);
    // AHU-2 is still selected (highlighted); every other element is drawn as before the layer.
    expect({ ...after, [AHU_2]: null }).toEqual({ ...before, [AHU_2]: null });
    expect(await page.evaluate(() => window.__viewer.selected())).toBe(AHU_2);
    // The panel shows the selection again, without the layer's section.
    await expect.poll(() => page.getByTestId('alignment').count(), { timeout: 15_000 }).toBe(0);
    expect(await page.getByTestId('entity-name').textContent()).toBe('AHU-2');
  });

  it('asks for a key on the demo site, whose report needs one, and then shows its layer', async () => {
    const demo = await browser.newPage();
    await demo.goto(`${h.url}/viewer?site=demo`);
    await demo.waitForFunction(() => window.__viewer?.ready || window.__viewer?.error, null, { timeout: 60_000 });
    await demo.click('#alignment-toggle');
    const error = demo.getByTestId('alignment-error');
    await error.waitFor({ timeout: 15_000 });
    expect(await error.textContent()).toBe('The alignment layer needs an API key for site "demo": enter one above.');
    expect(await demo.locator('#alignment-toggle').isChecked()).toBe(false);
    expect(await demo.locator('#key-form').isVisible()).toBe(true);
    // Any key reads the demo site; the page reloads with it and shows the layer asked for.
    await demo.fill('#key-input', key);
    await demo.click('#key-form button');
    await demo.waitForFunction(() => window.__viewer?.ready || window.__viewer?.error, null, { timeout: 60_000 });
    await demo.getByTestId('count-mapped').waitFor({ timeout: 15_000 });
    expect(await demo.locator('#alignment-toggle').isChecked()).toBe(true);
    const demoCoverage = (await (await h.fetch('/api/v1/sites/demo/alignment/coverage')).json()) as Coverage;
    for (const status of STATUSES) {
      expect(await demo.getByTestId(`count-${status}`).textContent(), status).toBe(
        String(demoCoverage.elements.filter((element) => element.status === status).length),
      );
    }
    expect(await demo.evaluate((id) => window.__viewer.alignment.appearance(id), AHU_2)).toEqual({
      colour: COLOURS[coverageOf(demoCoverage, AHU_2).status],
      opacity: 1,
    });
    await demo.screenshot({ path: join(ARTIFACTS, 'viewer-alignment-demo.png') });
    await demo.close();
  });

  it('says so when the report is refused: a site gone (404), a key revoked (401)', async () => {
    const spareKey = await h.services.keys.create({
      name: 'spare viewer',
      sites: ['spare'],
      write: false,
      admin: false,
    });
    const spare = await browser.newPage();
    await openSite(spare, 'spare', spareKey.secret);
    expect((await h.fetch('/api/v1/sites/spare', { method: 'DELETE' })).status).toBe(204);
    // A click, not check(): the box unticks itself when the report is refused.
    await spare.click('#alignment-toggle');
    const error = spare.getByTestId('alignment-error');
    await error.waitFor({ timeout: 15_000 });
    expect(await error.textContent()).toBe(
      'The alignment layer could not be shown: site "spare" has no alignment report (Site "spare" not found).',
    );
    expect(await spare.locator('#alignment-toggle').isChecked()).toBe(false);

    expect((await h.fetch(`/api/v1/keys/${spareKey.record.id}`, { method: 'DELETE' })).status).toBeLessThan(300);
    await spare.click('#alignment-toggle');
    await expect
      .poll(() => error.textContent(), { timeout: 15_000 })
      .toBe(
        'The alignment layer could not be shown: the API key was not accepted (The API key is not valid or was revoked). Enter another key.',
      );
    expect(await spare.locator('#key-form').isVisible()).toBe(true);
    await spare.screenshot({ path: join(ARTIFACTS, 'viewer-alignment-refused.png') });
    await spare.close();
  });
});
