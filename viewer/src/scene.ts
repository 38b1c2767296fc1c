/**
 * The 3D side of the viewer: a That Open Engine world (scene, camera, renderer), fragments models
 * by model file id, OBJ and glTF models beside them, picking, highlighting, showing one storey,
 * fitting the view to everything or to one element, finding an element by GlobalId, painting elements
 * in colours of their own (a layer such as the alignment's: every other element dimmed), and
 * projecting an element to the screen and reading its paint (the end-to-end test's hooks).
 */
import * as OBC from '@thatopen/components';
import { RenderedFaces, type FragmentsModel, type MaterialDefinition } from '@thatopen/fragments';
// The fragments worker ships with this build (a hashed asset): nothing is fetched from a CDN.
import workerUrl from '@thatopen/fragments/worker?url';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { OBJLoader } from 'three/examples/jsm/loaders/OBJLoader.js';

/** An element under the pointer: its model (a model file id) and GlobalId. */
export interface Pick {
  readonly modelId: string;
  readonly globalId: string;
  readonly localId: number;
}

/** How an element is drawn over its own material: a colour, or none (its own), and an opacity. */
export interface Appearance {
  readonly colour: string | null;
  readonly opacity: number;
}

const solid = (colour: string): MaterialDefinition => ({
  color: new THREE.Color(colour),
  renderedFaces: RenderedFaces.TWO,
  opacity: 1,
  transparent: false,
});
const HIGHLIGHT = solid('#ffd21f');
/** How long after a change fragments' view updates are drawn: its worker applies a change over the next few. */
const SETTLING_MS = 2000;
/** The opacity of the elements a paint leaves out: their own colour, faded. */
const DIMMED_OPACITY = 0.25;

/** A paint as applied to one model: the material of each painted element (by local id). */
type ModelPaint = Map<number, MaterialDefinition>;

export class Scene {
  private readonly components = new OBC.Components();
  private readonly world: OBC.SimpleWorld<OBC.SimpleScene, OBC.OrthoPerspectiveCamera, OBC.SimpleRenderer>;
  private readonly fragments: OBC.FragmentsManager;
  private readonly meshes = new Map<string, THREE.Object3D>();
  private selected: { model: FragmentsModel; localId: number } | undefined;
  /** The colours painted (GlobalId → CSS colour), and their materials per model; undefined when none. */
  private paintColours: ReadonlyMap<string, string> | undefined;
  private readonly painted = new Map<string, ModelPaint>();
  /** Says the scene changed: the next animation frame is drawn, and the view updates of the next moments. */
  private readonly changed: () => void;
  /** Until when fragments' view updates are drawn (after the last change). */
  private changedUntil = 0;
  private drawn = 0;

  constructor(private readonly container: HTMLElement) {
    const worlds = this.components.get(OBC.Worlds);
    this.world = worlds.create<OBC.SimpleScene, OBC.OrthoPerspectiveCamera, OBC.SimpleRenderer>();
    this.world.scene = new OBC.SimpleScene(this.components);
    this.world.scene.setup();
    this.world.scene.three.background = new THREE.Color('#eef1f5');
    const renderer = new OBC.SimpleRenderer(this.components, container);
    this.world.renderer = renderer;
    this.world.camera = new OBC.OrthoPerspectiveCamera(this.components);
    // Drawn when something changed, not at every animation frame: a still view drew 60 frames a
    // second, a core's worth of work on a machine without a GPU (software WebGL) and a laptop's battery.
    renderer.mode = OBC.RendererMode.MANUAL;
    const redraw = () => {
      renderer.needsUpdate = true;
    };
    const changed = () => {
      this.changedUntil = performance.now() + SETTLING_MS;
      redraw();
    };
    this.changed = changed;
    renderer.onAfterUpdate.add(() => this.drawn++);
    renderer.onResize.add(changed);
    this.world.camera.controls.addEventListener('update', changed);
    this.components.init();
    this.fragments = this.components.get(OBC.FragmentsManager);
    this.fragments.init(workerUrl);
    // Fragments culls and picks levels of detail for the camera: refresh when it comes to rest.
    this.world.camera.controls.addEventListener('rest', () => void this.refresh());
    this.fragments.list.onItemSet.add(({ value: model }) => {
      model.useCamera(this.world.camera.three);
      this.world.scene.three.add(model.object);
      // Its tiles and materials change in the fragments worker and land over its next view updates:
      // those are drawn for a while after a change (fragments runs one several times a second,
      // changed or not, so not all of them).
      model.onViewUpdated.add(() => {
        if (performance.now() < this.changedUntil) redraw();
      });
      model.tiles.onItemSet.add(redraw);
      model.tiles.onItemDeleted.add(redraw);
      void this.refresh();
    });
  }

  /** Brings fragments' tiles and materials up to date with the camera and the changes made, then draws them. */
  private async refresh(): Promise<void> {
    await this.fragments.core.update(true);
    this.changed();
  }

  /** How many frames have been drawn. */
  get framesDrawn(): number {
    return this.drawn;
  }

  /** The canvas the world renders into. */
  get canvas(): HTMLCanvasElement {
    return this.world.renderer!.three.domElement;
  }

  /** Loads a fragments file as model `modelId`. */
  async loadFragments(modelId: string, bytes: ArrayBuffer): Promise<void> {
    const model = await this.fragments.core.load(bytes, { modelId });
    if (this.paintColours) await this.applyPaint(modelId, model, this.paintColours);
    await this.refresh();
  }

  /** Loads an OBJ or glTF binary model as `modelId` (shown, not pickable: it has no GlobalIds). */
  async loadMesh(modelId: string, format: 'obj' | 'glb', bytes: ArrayBuffer): Promise<void> {
    const object =
      format === 'obj'
        ? new OBJLoader().parse(new TextDecoder().decode(bytes))
        : (await new GLTFLoader().parseAsync(bytes, '')).scene;
    this.meshes.set(modelId, object);
    this.world.scene.three.add(object);
    this.changed();
  }

  /** Removes a loaded model. */
  async unload(modelId: string): Promise<void> {
    const mesh = this.meshes.get(modelId);
    if (mesh) {
      this.world.scene.three.remove(mesh);
      this.meshes.delete(modelId);
    }
    this.painted.delete(modelId);
    if (this.selected?.model.modelId === modelId) this.selected = undefined;
    if (this.fragments.list.has(modelId)) await this.fragments.core.disposeModel(modelId);
    this.changed();
  }

  /** The element under a point of the page (client coordinates), if any. */
  async pick(clientX: number, clientY: number): Promise<Pick | null> {
    const hit = await this.fragments.raycast({
      camera: this.world.camera.three,
      mouse: new THREE.Vector2(clientX, clientY),
      dom: this.canvas,
    });
    if (!hit) return null;
    const [globalId] = await hit.fragments.getGuidsByLocalIds([hit.localId]);
    return globalId ? { modelId: hit.fragments.modelId, globalId, localId: hit.localId } : null;
  }

  /** Highlights one element (or none). */
  async select(pick: Pick | null): Promise<void> {
    if (this.selected) await this.restore(this.selected.model, this.selected.localId);
    this.selected = undefined;
    const model = pick && this.fragments.list.get(pick.modelId);
    if (pick && model) {
      await model.highlight([pick.localId], HIGHLIGHT);
      this.selected = { model, localId: pick.localId };
    }
    await this.refresh();
  }

  /**
   * Paints these elements (GlobalId → CSS colour) and dims every other one; null takes the paint
   * off, so every element shows its own material again. The selection stays highlighted.
   */
  async paint(colours: ReadonlyMap<string, string> | null): Promise<void> {
    this.paintColours = colours ?? undefined;
    this.painted.clear();
    for (const [modelId, model] of this.fragments.list) {
      await model.resetHighlight();
      if (colours) await this.applyPaint(modelId, model, colours);
    }
    if (this.selected) await this.selected.model.highlight([this.selected.localId], HIGHLIGHT);
    await this.refresh();
  }

  /** How an element is drawn now: the colour and opacity over its own material, or null when no model has it. */
  async appearance(globalId: string): Promise<Appearance | null> {
    const pick = await this.find(globalId);
    const model = pick && this.fragments.list.get(pick.modelId);
    if (!pick || !model) return null;
    const [definition] = await model.getHighlight([pick.localId]);
    if (!definition) return { colour: null, opacity: 1 };
    // The definition comes from the fragments worker: its colour, when it sets one, is a plain { r, g, b }.
    const colour = (definition as Partial<MaterialDefinition>).color;
    return {
      colour: colour ? `#${new THREE.Color(colour.r, colour.g, colour.b).getHexString()}` : null,
      opacity: definition.opacity ?? 1,
    };
  }

  /** The element with this GlobalId in any loaded fragments model, or null. */
  async find(globalId: string): Promise<Pick | null> {
    for (const [modelId, model] of this.fragments.list) {
      const [localId] = await model.getLocalIdsByGuids([globalId]);
      if (localId !== null && localId !== undefined) return { modelId, globalId, localId };
    }
    return null;
  }

  /** Moves the camera so one element fills the view. */
  async frame(pick: Pick): Promise<void> {
    await this.world.camera.fitToItems({ [pick.modelId]: new Set([pick.localId]) });
    await this.refresh();
  }

  /** Shows only these elements of each fragments model (by GlobalId); null shows everything. */
  async showOnly(globalIds: ReadonlyMap<string, readonly string[]> | null): Promise<void> {
    for (const [modelId, model] of this.fragments.list) {
      await model.resetVisible();
      const ids = globalIds?.get(modelId);
      if (!globalIds) continue;
      await model.setVisible(undefined, false);
      if (ids && ids.length > 0) await model.setVisible(await this.localIds(model, ids), true);
    }
    await this.refresh();
  }

  /** Moves the camera so the visible elements fill the view. */
  async fit(): Promise<void> {
    const visible: OBC.ModelIdMap = {};
    for (const [modelId, model] of this.fragments.list)
      visible[modelId] = new Set(await model.getItemsByVisibility(true));
    await this.world.camera.fitToItems(visible);
    await this.refresh();
  }

  /** Where an element's bounding-box centre is on the page (client coordinates), or null when no model has it. */
  async screenPosition(globalId: string): Promise<{ x: number; y: number } | null> {
    const pick = await this.find(globalId);
    const model = pick && this.fragments.list.get(pick.modelId);
    if (!pick || !model) return null;
    const centre = (await model.getMergedBox([pick.localId])).getCenter(new THREE.Vector3());
    const ndc = centre.project(this.world.camera.three);
    const rect = this.canvas.getBoundingClientRect();
    return { x: rect.left + ((ndc.x + 1) / 2) * rect.width, y: rect.top + ((1 - ndc.y) / 2) * rect.height };
  }

  /** The highlighted element's GlobalId, or null. */
  async selectedGlobalId(): Promise<string | null> {
    if (!this.selected) return null;
    const [globalId] = await this.selected.model.getGuidsByLocalIds([this.selected.localId]);
    return globalId ?? null;
  }

  /** Paints one model: each colour's elements in it, and every other element dimmed. */
  private async applyPaint(
    modelId: string,
    model: FragmentsModel,
    colours: ReadonlyMap<string, string>,
  ): Promise<void> {
    const byColour = new Map<string, string[]>();
    for (const [globalId, colour] of colours) byColour.set(colour, [...(byColour.get(colour) ?? []), globalId]);
    const paint: ModelPaint = new Map();
    for (const [colour, globalIds] of byColour) {
      const localIds = await this.localIds(model, globalIds);
      if (localIds.length === 0) continue;
      const material = solid(colour);
      await model.highlight(localIds, material);
      for (const localId of localIds) paint.set(localId, material);
    }
    // Only the others are dimmed: an opacity set on a painted element would fade its colour too.
    const others = (await model.getItemsIdsWithGeometry()).filter((localId) => !paint.has(localId));
    if (others.length > 0) await model.setOpacity(others, DIMMED_OPACITY);
    this.painted.set(modelId, paint);
  }

  /** Draws an element as the paint has it (its colour, or dimmed), or with its own material when there is no paint. */
  private async restore(model: FragmentsModel, localId: number): Promise<void> {
    await model.resetHighlight([localId]);
    if (!this.paintColours) return;
    const material = this.painted.get(model.modelId)?.get(localId);
    if (material) await model.highlight([localId], material);
    else await model.setOpacity([localId], DIMMED_OPACITY);
  }

  private async localIds(model: FragmentsModel, globalIds: readonly string[]): Promise<number[]> {
    return (await model.getLocalIdsByGuids([...globalIds])).filter((id): id is number => id !== null);
  }
}
