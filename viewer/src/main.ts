/**
 * The viewer page: `/viewer?site=<id>` (the demo site when none is given). It asks for an API key
 * unless the site is the public demo, lists the site's models, loads the fragments files (and OBJ
 * or glTF models on request), and on a click shows the picked element's graph entity. A search
 * finds entities by name or class; picking one (or an entity listed in the panel) selects and
 * frames its element, or shows its panel when it has none. A storey filter, fit-to-view and the
 * alignment layer (elements coloured by their IFC ↔ graph alignment status) sit in the bar.
 * `window.__viewer` lets tests wait for the model, find an element on screen, read the selection and
 * read how the alignment layer painted an element.
 */
import { Api, ApiError, type ModelFile } from './api.ts';
import { AlignmentLayer } from './alignment-layer.ts';
import { alignmentSection } from './alignment-view.ts';
import { ENTITY_BY_ID, ENTITY_BY_IFC_ID, type EntitySummary, type GraphEntity } from './entity-query.ts';
import { modelItem, renderMessage, renderSelection, type PanelActions } from './panel.ts';
import { Scene, type Appearance, type Pick } from './scene.ts';
import { wireSearch } from './search.ts';

const DEMO_SITE = 'demo';
const KEY_STORAGE = 'bkg-viewer-key';
/** Set when the alignment layer asked for a key: the page shows the layer again once it has one. */
const ALIGNMENT_AFTER_KEY = 'bkg-viewer-alignment-after-key';
/** How often the selected entity's current values are read again. */
const REFRESH_MS = 15_000;

/** What the end-to-end test reads and calls. */
interface ViewerHook {
  ready: boolean;
  error: string | null;
  screenPosition(globalId: string): Promise<{ x: number; y: number } | null>;
  /** The GlobalId of the highlighted element, or null. */
  selected(): Promise<string | null>;
  /** How many frames the scene has drawn: it draws when something changed, not at every animation frame. */
  framesDrawn(): number;
  alignment: {
    /** Whether the alignment layer is shown. */
    on(): boolean;
    /** An element's status in the shown report, or null (layer off, or not in the report). */
    status(globalId: string): string | null;
    /** How the scene draws an element now (its paint colour and opacity), or null when no model has it. */
    appearance(globalId: string): Promise<Appearance | null>;
  };
}

declare global {
  interface Window {
    __viewer: ViewerHook;
  }
}

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const status = (text: string) => {
  $('status').textContent = text;
};

const params = new URLSearchParams(location.search);
const siteId = params.get('site') || DEMO_SITE;
const key = sessionStorage.getItem(KEY_STORAGE) ?? undefined;
const hook: ViewerHook = {
  ready: false,
  error: null,
  screenPosition: async () => null,
  selected: async () => null,
  framesDrawn: () => 0,
  alignment: { on: () => false, status: () => null, appearance: async () => null },
};
window.__viewer = hook;
$('site-name').textContent = `site ${siteId}`;

let keyFormShown = false;
/** Shows the key form (once); a key entered is kept for this tab only. */
function showKeyForm(): void {
  const form = $<HTMLFormElement>('key-form');
  form.hidden = false;
  $('demo-link').hidden = siteId === DEMO_SITE;
  if (keyFormShown) return;
  keyFormShown = true;
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const value = $<HTMLInputElement>('key-input').value.trim();
    if (value) sessionStorage.setItem(KEY_STORAGE, value);
    location.reload();
  });
}

/** Says why a key is needed and shows the key form. */
function askForKey(reason: string): void {
  status(reason);
  showKeyForm();
}

async function start(): Promise<void> {
  if (!key && siteId !== DEMO_SITE) return askForKey(`Site "${siteId}" needs an API key.`);
  const api = new Api(siteId, key);
  let models: ModelFile[];
  try {
    models = await api.models();
  } catch (error) {
    if (error instanceof ApiError && (error.status === 401 || error.status === 404))
      return askForKey(`No access to site "${siteId}" with this key: ${error.message}`);
    throw error;
  }

  const scene = new Scene($('viewport'));
  hook.screenPosition = (globalId) => scene.screenPosition(globalId);
  hook.selected = () => scene.selectedGlobalId();
  hook.framesDrawn = () => scene.framesDrawn;
  const list = $('model-list');
  const fragments = models.filter((m) => m.format === 'frag');
  const loaded = new Set<string>();

  const load = async (model: ModelFile) => {
    status(`Loading ${model.name}…`);
    const bytes = await api.download(model);
    if (model.format === 'frag') await scene.loadFragments(model.id, bytes);
    else await scene.loadMesh(model.id, model.format as 'obj' | 'glb', bytes);
    loaded.add(model.id);
  };
  const toggle = async (model: ModelFile, show: boolean) => {
    if (show) await load(model);
    else {
      await scene.unload(model.id);
      loaded.delete(model.id);
    }
    status(`${loaded.size} model${loaded.size === 1 ? '' : 's'} shown`);
  };

  for (const model of models) {
    if (model.format === 'ifc') {
      const converted = fragments.find((f) => f.source_ifc === model.id);
      list.append(
        modelItem(model.name, converted ? `IFC source of ${converted.name}` : 'IFC: not converted (yet); reload later'),
      );
    } else {
      const size = model.size_bytes < 1024 ? `${model.size_bytes} B` : `${(model.size_bytes / 1024).toFixed(0)} kB`;
      const detail = [model.format.toUpperCase(), model.storey, size].filter(Boolean).join(' · ');
      list.append(
        modelItem(model.name, detail, {
          checked: model.format === 'frag',
          onChange: (show) => void toggle(model, show).catch(fail),
        }),
      );
    }
  }
  if (models.length === 0) list.append(modelItem('No models', 'This site has no model files yet.'));

  for (const model of fragments) await load(model);

  // Storeys come from the IFC files the fragments files were made from.
  const storeyModels = new Map<string, string[]>();
  for (const model of fragments.filter((f) => f.source_ifc)) {
    for (const storey of await api.storeys(model.id).catch(() => []))
      storeyModels.set(storey.name, [...(storeyModels.get(storey.name) ?? []), model.id]);
  }
  const select = $<HTMLSelectElement>('storey-select');
  for (const name of storeyModels.keys()) select.append(new Option(name, name));
  select.disabled = storeyModels.size === 0;
  select.addEventListener('change', () => {
    void (async () => {
      const storey = select.value;
      if (!storey) await scene.showOnly(null);
      else {
        status(`Showing ${storey}…`);
        const shown = new Map<string, string[]>();
        for (const modelId of storeyModels.get(storey) ?? [])
          shown.set(modelId, await api.storeyGlobalIds(modelId, storey));
        await scene.showOnly(shown);
      }
      await scene.fit();
      status(storey ? `Storey ${storey}` : 'All storeys');
    })().catch(fail);
  });
  // An element found from the graph may stand on a storey the filter hides: show them all first.
  const showAllStoreys = async () => {
    if (!select.value) return;
    select.value = '';
    await scene.showOnly(null);
    status('All storeys');
  };

  const fit = $<HTMLButtonElement>('fit-button');
  fit.disabled = false;
  fit.addEventListener('click', () => void scene.fit().catch(fail));

  const alignment = new AlignmentLayer(api, scene, $<HTMLInputElement>('alignment-toggle'), $('alignment-legend'), {
    onChange: () => selection.refresh(),
    needsKey: () => {
      sessionStorage.setItem(ALIGNMENT_AFTER_KEY, '1');
      showKeyForm();
    },
    storeys: () => [...storeyModels.keys()],
  });
  hook.alignment = {
    on: () => alignment.on,
    status: (globalId) => alignment.statusOf(globalId) ?? null,
    appearance: (globalId) => scene.appearance(globalId),
  };
  const selection = wireSelection(scene, api, showAllStoreys, alignment);
  const actions = selection.actions;
  if (key && sessionStorage.getItem(ALIGNMENT_AFTER_KEY)) {
    sessionStorage.removeItem(ALIGNMENT_AFTER_KEY);
    await alignment.show();
  }
  wireSearch($<HTMLInputElement>('search-input'), $('search-results'), api, (entity) => actions.open(entity));
  await scene.fit();
  status(
    fragments.length > 0
      ? `${loaded.size} model${loaded.size === 1 ? '' : 's'} loaded: click an element`
      : 'No fragments model to show yet',
  );
  hook.ready = true;
}

/** The selection's wiring: the panel's actions, and showing the selection again. */
interface Selection {
  readonly actions: PanelActions;
  /** Renders the selection's panel again (the alignment layer turned on or off). */
  refresh(): void;
}

/**
 * What selects: clicks (not drags) on the canvas, and entities opened from the search or the panel.
 * The panel shows the selection (with its alignment status while that layer is on) and reads its
 * current values again while it stays selected.
 */
function wireSelection(
  scene: Scene,
  api: Api,
  showAllStoreys: () => Promise<void>,
  alignment: AlignmentLayer,
): Selection {
  const panel = $('entity');
  let down: { x: number; y: number } | undefined;
  let refresh: number | undefined;
  let current = 0;
  let shown: ((request: number) => Promise<void>) | undefined;

  const showError = (error: unknown) =>
    renderMessage(panel, error instanceof Error ? error.message : String(error), true);

  /** Runs `render` now and again every REFRESH_MS until the next selection; errors show in the panel. */
  const selection = (render: (request: number) => Promise<void>) => {
    const request = ++current;
    shown = render;
    window.clearInterval(refresh);
    void (async () => {
      renderMessage(panel, 'Looking it up…');
      await render(request);
      refresh = window.setInterval(() => void render(request).catch(() => undefined), REFRESH_MS);
    })().catch(showError);
  };

  const showPick = (pick: Pick) =>
    selection(async (request) => {
      const [element, data, aligned] = await Promise.all([
        api.element(pick.modelId, pick.globalId),
        api.graphql<{ entityByIfcId: GraphEntity | null }>(ENTITY_BY_IFC_ID, {
          siteId: api.siteId,
          ifcId: pick.globalId,
        }),
        alignment.detail(pick.globalId),
      ]);
      const extra = aligned && alignmentSection(aligned.element, aligned.proposals);
      if (request === current) renderSelection(panel, element, data.entityByIfcId, actions, extra);
    });

  /** Selects, highlights and frames an element; false when no loaded model has it. */
  const focus = async (globalId: string): Promise<boolean> => {
    const pick = await scene.find(globalId);
    if (!pick) return false;
    await showAllStoreys();
    await scene.select(pick);
    await scene.frame(pick);
    showPick(pick);
    return true;
  };

  const showEntity = (entity: EntitySummary) =>
    selection(async (request) => {
      const variables =
        entity.__typename === 'System'
          ? { siteId: api.siteId, name: entity.name }
          : { siteId: api.siteId, id: entity.id };
      const data = await api.graphql<{ entities?: GraphEntity[]; entity?: GraphEntity | null }>(
        ENTITY_BY_ID[entity.__typename],
        variables,
      );
      const found = data.entity ?? data.entities?.find((e) => e.id === entity.id) ?? null;
      if (request !== current) return;
      if (found) renderSelection(panel, null, found, actions);
      else renderMessage(panel, `${entity.name} is no longer in the graph.`, true);
    });

  const actions: PanelActions = {
    open: (entity) =>
      void (async () => {
        if (entity.ifcId && (await focus(entity.ifcId))) return;
        await scene.select(null);
        showEntity(entity);
      })().catch(showError),
    showElement: (globalId) =>
      void focus(globalId)
        .then((found) => found || renderMessage(panel, `Element ${globalId} is in no model shown.`, true))
        .catch(showError),
  };

  scene.canvas.addEventListener('pointerdown', (event) => {
    down = { x: event.clientX, y: event.clientY };
  });
  scene.canvas.addEventListener('pointerup', (event) => {
    if (!down || Math.hypot(event.clientX - down.x, event.clientY - down.y) > 4) return;
    void (async () => {
      const pick = await scene.pick(event.clientX, event.clientY);
      await scene.select(pick);
      if (pick) return showPick(pick);
      ++current;
      shown = undefined;
      window.clearInterval(refresh);
      renderMessage(panel, 'Nothing there. Click an element of the model.');
    })().catch(showError);
  });
  return { actions, refresh: () => shown && selection(shown) };
}

function fail(error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  hook.error = message;
  status(`Error: ${message}`);
  console.error(error);
}

start().catch(fail);
