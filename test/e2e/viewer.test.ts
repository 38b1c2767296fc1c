/**
 * The viewer page end to end, in headless Chromium (Debian's chromium, driven by playwright-core):
 * on the demo site it loads the fragments model the service made from the demo IFC file, and a
 * click on an element shows its graph entity with live values (unit symbols, when and how good);
 * a storey filter, an unmapped element, a search that selects and frames an element, links in the
 * panel, and the key prompt for other sites; the service's icon, and GraphiQL's titled example tabs.
 * Screenshots go to test-artifacts/.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ensureViewerBuilt } from '../../scripts/build-viewer.ts';
import { projectRoot } from '../../src/config/config.ts';
import { createHarness, type Harness } from '../support/harness.ts';
import { describeNeeding } from '../support/needs.ts';
import { ARTIFACTS, launchViewerBrowser, pixelAt, type ViewerHook } from '../support/viewer-browser.ts';
const AHU_2 = '07Nck6zjD1BPZbUQpI_lrO';
const VAV_2_04 = '0PDCK_kkjD6fVQnemqqIix';
const CH_1 = '2HWO$XNpf9huQctQuMQBVs';
/** The scene's background, #eef1f5 (viewer/src/scene.ts). */
const BACKGROUND = { r: 238, g: 241, b: 245 };
const SITE_TTL = `@prefix brick: <https://brickschema.org/schema/Brick#> .
<https://example.org/lab#AHU-9> a brick:AHU .
`;

/** The page's test hook (viewer/src/main.ts), as the browser side of `page.evaluate` sees it. */
declare const window: { __viewer: ViewerHook };

describeNeeding(['chromium'], 'the viewer page in headless Chromium', () => {
  let h: Harness;
  let browser: BrowserContext;
  let closeBrowser: () => Promise<void>;
  let page: Page;

  /** Clicks the element's bounding-box centre as the viewer projects it, and waits for the panel to name `name`. */
  const clickElement = async (globalId: string, name: string | RegExp) => {
    const at = await page.evaluate((id) => window.__viewer.screenPosition(id), globalId);
    expect(at, `${globalId} on screen`).not.toBeNull();
    await page.mouse.click(at!.x, at!.y);
    await page.locator('#entity').getByText(name).first().waitFor({ timeout: 15_000 });
  };

  beforeAll(async () => {
    await ensureViewerBuilt();
    mkdirSync(ARTIFACTS, { recursive: true });
    h = await createHarness({
      sites: { lab: SITE_TTL },
      env: {
        BKG_DEMO_FIXTURE: join(projectRoot, 'fixtures', 'demo.ttl'),
        BKG_IFC_WORKERS: '1',
        BKG_DEMO_BACKFILL_DAYS: '0',
      },
    });
    await Promise.all([h.services.ifc.idle(), h.services.simulator?.whenStarted()]);
    ({ browser, close: closeBrowser } = await launchViewerBrowser());
    page = await browser.newPage();
    await page.goto(`${h.url}/viewer?site=demo`);
    await page.waitForFunction(() => window.__viewer?.ready || window.__viewer?.error, null, { timeout: 60_000 });
  });

  afterAll(async () => {
    await closeBrowser?.();
    await h?.close();
  });

  it('loads the demo site’s fragments model without a key', async () => {
    expect(await page.evaluate(() => window.__viewer.error)).toBeNull();
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/1 model loaded/);
    expect(await page.locator('#model-list').innerText()).toMatch(/Demo Tower\.frag[\s\S]*FRAG/);
    expect(await page.locator('#storey-select option').allTextContents()).toEqual([
      'All storeys',
      'Floor 1',
      'Floor 2',
      'Floor 3',
      'Floor 4',
      'Roof',
    ]);
  });

  it('draws a still view once, not at every animation frame, and again when the camera moves', async () => {
    // Wait for the view to settle (tiles arriving after the fit draw frames), then watch a second of it.
    let drawn = -1;
    await expect
      .poll(
        async () => {
          const before = drawn;
          drawn = await page.evaluate(() => window.__viewer.framesDrawn());
          return drawn - before;
        },
        { interval: 500, timeout: 15_000 },
      )
      .toBe(0);
    await page.waitForTimeout(1000);
    expect(await page.evaluate(() => window.__viewer.framesDrawn())).toBe(drawn);
    // A wheel over the canvas zooms the camera out: frames are drawn while it moves. Fit to view
    // then puts the camera back for the tests after this one.
    const box = (await page.locator('#viewport canvas').boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 200);
    await expect.poll(() => page.evaluate(() => window.__viewer.framesDrawn())).toBeGreaterThan(drawn);
    await page.locator('#fit-button').click();
  });

  it('shows the clicked element’s entity: name, type, points with live values, upstream equipment', async () => {
    await clickElement(AHU_2, 'AHU-2');
    const panel = page.locator('#entity');
    await expect.poll(() => panel.getByTestId('entity-name').textContent()).toBe('AHU-2');
    expect(await panel.getByTestId('entity-type').textContent()).toBe('Air_Handling_Unit · Equipment');
    expect(await panel.innerText()).toMatch(/IfcUnitaryEquipment[\s\S]*Roof[\s\S]*07Nck6zjD1BPZbUQpI_lrO/);
    const supplyAir = panel.locator('tr', { hasText: 'AHU-2 Supply Air Temp' }).first().locator('td.value');
    // The unit as QUDT writes its symbol, not its code (DEG_C); beside it, when the reading was taken and its quality.
    expect(await supplyAir.locator('.current').textContent()).toMatch(/^-?\d+(\.\d+)? °C$/);
    expect(await supplyAir.getAttribute('class')).toContain('quality-good');
    const reading = supplyAir.getByTestId('reading');
    expect(await reading.locator('.quality').textContent()).toBe('good');
    const taken = Date.parse((await reading.locator('time').getAttribute('datetime'))!);
    expect(Math.abs(Date.now() - taken)).toBeLessThan(10 * 60_000);
    expect((await reading.locator('time').textContent())!.trim()).not.toBe('');
    expect(await panel.innerText()).toMatch(/Upstream equipment[\s\S]*CH-1/);
    await page.screenshot({ path: join(ARTIFACTS, 'viewer-ahu-2.png') });
  });

  it('wraps class names after their underscores, never mid-word', async () => {
    const type = page.locator('#entity tr', { hasText: 'AHU-2 Supply Air Temp' }).first().locator('.class-name');
    expect(await type.textContent()).toBe('Supply_Air_Temperature_Sensor');
    // Break opportunities after each underscore, and the CSS no longer breaks anywhere (break-all / anywhere).
    expect(await type.evaluate((node) => node.querySelectorAll('wbr').length)).toBe(3);
    expect(
      await type.evaluate((node) => [getComputedStyle(node).wordBreak, getComputedStyle(node).overflowWrap]),
    ).toEqual(['normal', 'break-word']);
    // Where a class name wraps in the panel (AHU-2's points have long ones), every line starts at a
    // word: the text before it ends with "_".
    const lineStarts = await page.locator('#entity .class-name').evaluateAll((nodes) =>
      nodes.map((node) => {
        const text = node.textContent ?? '';
        const range = document.createRange();
        const starts: string[] = [];
        let top = -Infinity;
        let offset = 0;
        for (const child of node.childNodes) {
          const length = child.nodeType === Node.TEXT_NODE ? (child.textContent ?? '').length : 0;
          for (let i = 0; i < length; i++) {
            range.setStart(child, i);
            range.setEnd(child, i + 1);
            const rect = range.getBoundingClientRect();
            if (rect.top > top + 1) starts.push(text.slice(0, offset + i));
            top = Math.max(top, rect.top);
          }
          offset += length;
        }
        return starts.slice(1);
      }),
    );
    expect(lineStarts.flat().length, 'some class name wraps').toBeGreaterThan(0);
    for (const before of lineStarts.flat()) expect(before, `a line starts after "${before}"`).toMatch(/_$/);
  });

  it('shows one storey, and says plainly when the graph maps no entity to an element', async () => {
    await page.selectOption('#storey-select', 'Floor 2');
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 15_000 }).toBe('Storey Floor 2');
    await clickElement(VAV_2_04, 'VAV-2-04');
    expect(await page.locator('#entity').innerText()).toMatch(/VAV[\s\S]*Floor 2[\s\S]*Zone Air Temp/);
    const slab = await (
      await h.fetch(
        `/api/v1/sites/demo/models/5d0c8f3e-2a41-4b7e-9c55-3f1d2e8a6b10/elements?storey=Floor%202&limit=100`,
      )
    ).json();
    const slabId = (slab.results as Array<{ ifc_id: string; ifc_class: string }>).find(
      (e) => e.ifc_class === 'IfcSlab',
    )!.ifc_id;
    await clickElement(slabId, /Not mapped/);
    expect(await page.getByTestId('unmapped').textContent()).toBe(
      `Not mapped: the knowledge graph has no entity for this IfcSlab (GlobalId ${slabId}).`,
    );
    await page.screenshot({ path: join(ARTIFACTS, 'viewer-unmapped-slab.png') });
  });

  it('finds an entity by name, and a pick selects, highlights and frames its element (on every storey)', async () => {
    // The storey filter still shows Floor 2 (above); AHU-2 stands on the roof.
    await page.fill('#search-input', 'AHU-2');
    const match = page.locator('#search-results button', { hasText: 'AHU-2' }).first();
    await match.waitFor({ timeout: 15_000 });
    await match.click();
    await expect.poll(() => page.evaluate(() => window.__viewer.selected()), { timeout: 15_000 }).toBe(AHU_2);
    await expect.poll(() => page.getByTestId('entity-name').textContent(), { timeout: 15_000 }).toBe('AHU-2');
    expect(await page.locator('#entity').innerText()).toContain(AHU_2);
    expect(await page.locator('#storey-select').inputValue()).toBe('');
    // Framed: the element sits in the middle of the 3D view.
    const canvas = (await page.locator('#viewport canvas').boundingBox())!;
    const at = (await page.evaluate((id) => window.__viewer.screenPosition(id), AHU_2))!;
    expect(Math.abs(at.x - (canvas.x + canvas.width / 2))).toBeLessThan(canvas.width * 0.1);
    expect(Math.abs(at.y - (canvas.y + canvas.height / 2))).toBeLessThan(canvas.height * 0.1);
    await page.screenshot({ path: join(ARTIFACTS, 'viewer-search-ahu-2.png') });
  });

  it('finds entities by class too, and says which have no element', async () => {
    await page.fill('#search-input', 'Chilled_Water_System');
    const match = page.locator('#search-results li', { hasText: 'CHW-SYS' }).first();
    await match.waitFor({ timeout: 15_000 });
    expect(await match.innerText()).toContain('no element');
    await match.locator('button').click();
    await expect.poll(() => page.getByTestId('entity-name').textContent(), { timeout: 15_000 }).toBe('CHW-SYS');
    expect(await page.getByTestId('no-element').textContent()).toBe('No element in the model.');
    expect(await page.evaluate(() => window.__viewer.selected())).toBeNull();
  });

  it('opens an upstream entity from the panel: its panel, and its element selected in 3D', async () => {
    await page.fill('#search-input', 'AHU-2');
    await page.locator('#search-results button', { hasText: 'AHU-2' }).first().click();
    await expect.poll(() => page.getByTestId('entity-name').textContent(), { timeout: 15_000 }).toBe('AHU-2');
    // CH-1 feeds AHU-2's coil; the IFC model has an element for it.
    await page.locator('#entity ul.entities button', { hasText: 'CH-1' }).click();
    await expect.poll(() => page.getByTestId('entity-name').textContent(), { timeout: 15_000 }).toBe('CH-1');
    expect(await page.getByTestId('entity-type').textContent()).toBe('Chiller · Equipment');
    await expect.poll(() => page.evaluate(() => window.__viewer.selected())).toBe(CH_1);
    const panel = await page.locator('#entity').innerText();
    expect(panel).toContain(CH_1);
    expect(panel).toMatch(/Points \(\d+\)[\s\S]*Upstream equipment[\s\S]*CWP-1/);
    await page.screenshot({ path: join(ARTIFACTS, 'viewer-upstream-ch-1.png') });
  });

  it('takes a fragments model off the view when it is unticked, and shows it again when ticked', async () => {
    const model = page.locator('#model-list li', { hasText: 'Demo Tower.frag' }).locator('input');
    // CH-1, selected above: its element is drawn in the highlight's yellow, nothing of the scene's background.
    const at = (await page.evaluate((id) => window.__viewer.screenPosition(id), CH_1))!;
    expect(await pixelAt(page, at)).not.toEqual(BACKGROUND);
    await model.uncheck();
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 15_000 }).toBe('0 models shown');
    await expect.poll(() => pixelAt(page, at), { timeout: 5_000 }).toEqual(BACKGROUND);
    await model.check();
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 15_000 }).toBe('1 model shown');
    await expect.poll(() => pixelAt(page, at), { timeout: 5_000 }).not.toEqual(BACKGROUND);
  });

  it('loads an OBJ model on request', async () => {
    await page.locator('#model-list li', { hasText: 'Floor 2 massing.obj' }).locator('input').check();
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 15_000 }).toBe('2 models shown');
    expect(await page.evaluate(() => window.__viewer.error)).toBeNull();
  });

  it('keeps the fragments model across a demo reset', async () => {
    const before = await (await h.fetch('/api/v1/sites/demo/models?file_format=frag')).json();
    await h.services.demo!.reset();
    expect(await (await h.fetch('/api/v1/sites/demo/models?file_format=frag')).json()).toEqual(before);
    expect(before).toEqual([
      expect.objectContaining({ name: 'Demo Tower.frag', source_ifc: '5d0c8f3e-2a41-4b7e-9c55-3f1d2e8a6b10' }),
    ]);
  });

  it('shows the service’s icon', async () => {
    const icon = await page.evaluate(async () => {
      const href = (document.querySelector('link[rel="icon"]') as HTMLLinkElement).href;
      const res = await fetch(href);
      return { href: new URL(href).pathname, status: res.status, type: res.headers.get('content-type') };
    });
    expect(icon).toEqual({ href: '/favicon.svg', status: 200, type: expect.stringContaining('image/svg+xml') });
  });

  it('GraphiQL titles each example tab by its operation, none <untitled>', async () => {
    const graphiql = await browser.newPage();
    await graphiql.goto(`${h.url}/graphql`);
    await graphiql.getByText('ChilledWaterChain').first().waitFor({ timeout: 60_000 });
    const body = await graphiql.locator('body').innerText();
    for (const name of [
      'DemoAhus',
      'WhatFeedsAZone',
      'BuildingLocations',
      'ZoneTemperatures',
      'EntityOfAnIfcElement',
      'ChilledWaterChain',
    ])
      expect(body).toContain(name);
    expect(body).not.toContain('<untitled>');
    await graphiql.screenshot({ path: join(ARTIFACTS, 'graphiql-tabs.png') });
    await graphiql.close();
  });

  it('asks for a key on another site, and uses it', async () => {
    const other = await browser.newPage();
    await other.goto(`${h.url}/viewer?site=lab`);
    await other.locator('#key-form').waitFor();
    expect(await other.locator('#status').textContent()).toBe('Site "lab" needs an API key.');
    const key = (await h.services.keys.create({ name: 'viewer', sites: ['lab'], write: false, admin: false })).secret;
    await other.fill('#key-input', key);
    await other.click('#key-form button');
    await other.waitForFunction(() => window.__viewer?.ready || window.__viewer?.error, null, { timeout: 30_000 });
    expect(await other.locator('#model-list').innerText()).toContain('This site has no model files yet.');
    await other.close();
  });
});
