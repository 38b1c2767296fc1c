/**
 * The alignment layer (issue #23): a toggle in the bar that reads the site's coverage report and
 * paints each element that should map by its status (mapped, proposed, unmatched), dims the others,
 * and shows a legend with the counts; off, every element shows its own colours again. While it is
 * on, a clicked element's status (and, for a proposal, its candidates with score and evidence) is
 * at hand for the panel. A refusal of the report (401, 403, 404) is said in the legend's place.
 */
import { ApiError, type Api, type CoverageElement, type Proposal } from './api.ts';
import { renderLegend, renderLegendError, STATUS_COLOURS } from './alignment-view.ts';
import type { Scene } from './scene.ts';

/** What the panel shows of an element while the layer is on. */
export interface AlignmentDetail {
  /** Its entry in the coverage report; undefined when the report leaves it out (a wall, a slab). */
  readonly element: CoverageElement | undefined;
  /** The open proposals for it, best first (only for a proposed element). */
  readonly proposals: readonly Proposal[];
}

export interface AlignmentLayerOptions {
  /** Called after the layer turned on or off (the panel shows the selection again). */
  readonly onChange: () => void;
  /** Called when the report needs a key the page does not have (the key form). */
  readonly needsKey: () => void;
  /** The model's storeys, in order (the legend's rows follow it). */
  readonly storeys: () => readonly string[];
}

/** Why the report was refused, in the user's terms, with the service's own words. */
function refusal(error: ApiError, siteId: string, hasKey: boolean): string {
  const detail = error.message.replace(/\.$/, '');
  if (error.status === 401) {
    return hasKey
      ? `The alignment layer could not be shown: the API key was not accepted (${detail}). Enter another key.`
      : `The alignment layer needs an API key for site "${siteId}": enter one above.`;
  }
  if (error.status === 403)
    return `The alignment layer could not be shown: this key may not read the alignment of site "${siteId}" (${detail}).`;
  return `The alignment layer could not be shown: site "${siteId}" has no alignment report (${detail}).`;
}

export class AlignmentLayer {
  private elements: ReadonlyMap<string, CoverageElement> | undefined;
  /** Open proposals by IFC class and storey, asked once per layer shown. */
  private proposals = new Map<string, Promise<Proposal[]>>();
  /** Counts the toggles, so an answer to an earlier one is dropped. */
  private generation = 0;

  constructor(
    private readonly api: Api,
    private readonly scene: Scene,
    private readonly toggle: HTMLInputElement,
    private readonly legend: HTMLElement,
    private readonly options: AlignmentLayerOptions,
  ) {
    toggle.disabled = false;
    toggle.addEventListener('change', () => void (toggle.checked ? this.show() : this.hide()));
  }

  /** Whether the layer is shown (its report is loaded). */
  get on(): boolean {
    return this.elements !== undefined;
  }

  /** Reads the report, paints the elements and shows the legend; a refusal is shown instead. */
  async show(): Promise<void> {
    const generation = ++this.generation;
    this.toggle.checked = true;
    this.legend.setAttribute('aria-busy', 'true');
    try {
      const coverage = await this.api.coverage();
      if (generation !== this.generation) return;
      await this.scene.paint(
        new Map(coverage.elements.map((element) => [element.globalId, STATUS_COLOURS[element.status]])),
      );
      if (generation !== this.generation) return;
      this.elements = new Map(coverage.elements.map((element) => [element.globalId, element]));
      this.proposals = new Map();
      renderLegend(this.legend, coverage, this.options.storeys());
      this.options.onChange();
    } catch (error) {
      if (generation !== this.generation) return;
      this.toggle.checked = false;
      await this.scene.paint(null);
      const refused = error instanceof ApiError && [401, 403, 404].includes(error.status);
      const message = refused
        ? refusal(error, this.api.siteId, this.api.hasKey)
        : `The alignment layer could not be shown: ${error instanceof Error ? error.message : String(error)}`;
      renderLegendError(this.legend, message);
      if (error instanceof ApiError && error.status === 401) this.options.needsKey();
    } finally {
      if (generation === this.generation) this.legend.removeAttribute('aria-busy');
    }
  }

  /** Takes the paint off and hides the legend. */
  async hide(): Promise<void> {
    ++this.generation;
    const wasOn = this.on;
    this.toggle.checked = false;
    this.elements = undefined;
    this.legend.hidden = true;
    this.legend.removeAttribute('aria-busy');
    await this.scene.paint(null);
    if (wasOn) this.options.onChange();
  }

  /** An element's status in the report, or undefined when the layer is off or the report leaves it out. */
  statusOf(globalId: string): CoverageElement['status'] | undefined {
    return this.elements?.get(globalId)?.status;
  }

  /** What the panel shows of an element; undefined while the layer is off. */
  async detail(globalId: string): Promise<AlignmentDetail | undefined> {
    const element = this.elements?.get(globalId);
    if (!this.elements) return undefined;
    if (element?.status !== 'proposed') return { element, proposals: [] };
    const key = `${element.ifcClass}\u0000${element.storey}`;
    let page = this.proposals.get(key);
    if (!page) {
      page = this.api.proposals(element.ifcClass, element.storey);
      this.proposals.set(key, page);
      page.catch(() => this.proposals.delete(key));
    }
    return { element, proposals: (await page).filter((proposal) => proposal.globalId === globalId) };
  }
}
