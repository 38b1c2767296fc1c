/**
 * What the viewer's end-to-end tests share: Debian's Chromium driven by playwright-core (headless,
 * software WebGL, no calls home), the page's test hook as the browser side sees it, and reading the
 * colour of a pixel of the page as drawn.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { projectRoot } from '../../src/config/config.ts';

const CHROMIUM = '/usr/bin/chromium';
/** Where the tests put their screenshots. */
export const ARTIFACTS = join(projectRoot, 'test-artifacts');

/** How the scene draws an element over its own material (viewer/src/scene.ts). */
export interface Appearance {
  readonly colour: string | null;
  readonly opacity: number;
}

/** The page's test hook (viewer/src/main.ts). */
export interface ViewerHook {
  ready: boolean;
  error: string | null;
  screenPosition(globalId: string): Promise<{ x: number; y: number } | null>;
  selected(): Promise<string | null>;
  framesDrawn(): number;
  alignment: {
    on(): boolean;
    status(globalId: string): string | null;
    appearance(globalId: string): Promise<Appearance | null>;
  };
}

/** A Chromium with a profile of its own, removed on close. */
export async function launchViewerBrowser(): Promise<{ browser: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'bkg-chromium-'));
  const browser = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1400, height: 850 },
    // As the machine notes say: no sandbox as root, software WebGL, and no calls home (the network is closed).
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    browser,
    async close() {
      await browser.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The colour of the page's pixel at a point (client coordinates), as a screenshot shows it. */
export async function pixelAt(page: Page, at: { x: number; y: number }): Promise<{ r: number; g: number; b: number }> {
  const png = (
    await page.screenshot({ clip: { x: Math.round(at.x), y: Math.round(at.y), width: 1, height: 1 } })
  ).toString('base64');
  // The page decodes the PNG: the browser has the codec, the test process has none.
  return page.evaluate(async (data) => {
    const image = new Image();
    image.src = `data:image/png;base64,${data}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = canvas.height = 1;
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const [r, g, b] = context.getImageData(0, 0, 1, 1).data;
    return { r: r!, g: g!, b: b! };
  }, png);
}
