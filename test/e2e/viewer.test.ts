/**
 * The viewer page end to end, in headless Chromium (Debian's chromium, driven by playwright-core):
 * on the demo site it loads the fragments model the service made from the demo IFC file, and a
 * click on an element shows its graph entity with live values; a storey filter, an unmapped
 * element, and the key prompt for other sites. Screenshots go to test-artifacts/.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureViewerBuilt } from '../../scripts/build-viewer.ts';
import { projectRoot } from '../../src/config/config.ts';
import { createHarness, type Harness } from '../support/harness.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = join(projectRoot, 'test-artifacts');
const AHU_2 = '07Nck6zjD1BPZbUQpI_lrO';
const VAV_2_04 = '0PDCK_kkjD6fVQnemqqIix';
const SITE_TTL = `@prefix brick: <https://brickschema.org/schema/Brick#> .
<https://example.org/lab#AHU-9> a brick:AHU .
`;

/** The page's test hook (viewer/src/main.ts), as the browser side of `page.evaluate` sees it. */
declare const window: { __viewer: { ready: boolean; error: string | null; screenPosition(globalId: string): Promise<{ x: number; y: number } | null> } };

if (!existsSync(CHROMIUM)) console.warn(`[viewer e2e] ${CHROMIUM} not found (apt-get install chromium): the viewer tests are skipped`);

describe.skipIf(!existsSync(CHROMIUM))('the viewer page in headless Chromium', () => {
  let h: Harness;
  let browser: BrowserContext;
  let page: Page;
  let profile: string;

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
      env: { BKG_DEMO_FIXTURE: join(projectRoot, 'fixtures', 'demo.ttl'), BKG_IFC_WORKERS: '1', BKG_DEMO_BACKFILL_DAYS: '0' },
    });
    await Promise.all([h.services.ifc.idle(), h.services.simulator?.whenStarted()]);
    profile = mkdtempSync(join(tmpdir(), 'bkg-chromium-'));
    browser = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      viewport: { width: 1400, height: 850 },
      // As the machine notes say: no sandbox as root, software WebGL, and no calls home (the network is closed).
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    page = await browser.newPage();
    await page.goto(`${h.url}/viewer?site=demo`);
    await page.waitForFunction(() => window.__viewer?.ready || window.__viewer?.error, null, { timeout: 60_000 });
  });

  afterAll(async () => {
    await browser?.close();
    await h?.close();
    if (profile) rmSync(profile, { recursive: true, force: true });
  });

  it('loads the demo site’s fragments model without a key', async () => {
    expect(await page.evaluate(() => window.__viewer.error)).toBeNull();
    await expect.poll(() => page.locator('#status').textContent()).toMatch(/1 model loaded/);
    expect(await page.locator('#model-list').innerText()).toMatch(/Demo Tower\.frag[\s\S]*FRAG/);
    expect(await page.locator('#storey-select option').allTextContents()).toEqual(['All storeys', 'Floor 1', 'Floor 2', 'Floor 3', 'Floor 4', 'Roof']);
  });

  it('shows the clicked element’s entity: name, type, points with live values, upstream equipment', async () => {
    await clickElement(AHU_2, 'AHU-2');
    const panel = page.locator('#entity');
    await expect.poll(() => panel.getByTestId('entity-name').textContent()).toBe('AHU-2');
    expect(await panel.getByTestId('entity-type').textContent()).toBe('Air_Handling_Unit · Equipment');
    expect(await panel.innerText()).toMatch(/IfcUnitaryEquipment[\s\S]*Roof[\s\S]*07Nck6zjD1BPZbUQpI_lrO/);
    const supplyAir = panel.locator('tr', { hasText: 'AHU-2 Supply Air Temp' }).first().locator('td.value');
    expect(await supplyAir.textContent()).toMatch(/^-?\d+(\.\d+)? DEG_C$/);
    expect(await supplyAir.getAttribute('class')).toContain('quality-good');
    expect(await panel.innerText()).toMatch(/Upstream equipment[\s\S]*CH-1/);
    await page.screenshot({ path: join(ARTIFACTS, 'viewer-ahu-2.png') });
  });

  it('shows one storey, and says plainly when the graph maps no entity to an element', async () => {
    await page.selectOption('#storey-select', 'Floor 2');
    await expect.poll(() => page.locator('#status').textContent(), { timeout: 15_000 }).toBe('Storey Floor 2');
    await clickElement(VAV_2_04, 'VAV-2-04');
    expect(await page.locator('#entity').innerText()).toMatch(/VAV[\s\S]*Floor 2[\s\S]*Zone Air Temp/);
    const slab = await (await h.fetch(`/api/v1/sites/demo/models/5d0c8f3e-2a41-4b7e-9c55-3f1d2e8a6b10/elements?storey=Floor%202&limit=100`)).json();
    const slabId = (slab.results as Array<{ ifc_id: string; ifc_class: string }>).find((e) => e.ifc_class === 'IfcSlab')!.ifc_id;
    await clickElement(slabId, /Not mapped/);
    expect(await page.getByTestId('unmapped').textContent()).toBe(`Not mapped: the knowledge graph has no entity for this IfcSlab (GlobalId ${slabId}).`);
    await page.screenshot({ path: join(ARTIFACTS, 'viewer-unmapped-slab.png') });
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
    expect(before).toEqual([expect.objectContaining({ name: 'Demo Tower.frag', source_ifc: '5d0c8f3e-2a41-4b7e-9c55-3f1d2e8a6b10' })]);
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
