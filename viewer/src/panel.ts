/**
 * The selection panel: what the service knows of the selected element (IFC class, storey) and of its
 * graph entity (name, type, points with their current readings, upstream equipment), or plainly that
 * the graph maps no entity to it. Entities in its lists open in it (and in 3D, when they have an
 * element).
 */
import type { ModelElement } from './api.ts';
import { className, el } from './dom.ts';
import type { EntityPoint, EntitySummary, GraphEntity } from './entity-query.ts';

/** What the panel's links do. */
export interface PanelActions {
  /** Opens an entity of a list: its element in 3D when it has one, else its panel. */
  open(entity: EntitySummary): void;
  /** Selects and frames an element in 3D. */
  showElement(globalId: string): void;
}

const facts = (pairs: Array<[string, string | Node]>) =>
  el('dl', {}, ...pairs.flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)]));

/** A reading's number with its unit's symbol (the code when QUDT has no symbol), or why there is none. */
function valueText(point: EntityPoint): string {
  const value = point.currentValue;
  if (!value || value.value === null) return value?.quality === 'stale' ? 'stale' : 'no live value';
  const rounded = Number.isInteger(value.value) ? String(value.value) : value.value.toFixed(2);
  const unit = point.unitSymbol ?? point.unit;
  return unit ? `${rounded} ${unit}` : rounded;
}

/** A reading's time in the browser's time zone: the time of day for today's, with the date before. */
function takenAt(taken: Date): string {
  const today = taken.toDateString() === new Date().toDateString();
  return today
    ? taken.toLocaleTimeString()
    : taken.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
}

/** When a reading was taken and its quality. */
function readingMeta(point: EntityPoint): HTMLElement | null {
  const value = point.currentValue;
  if (!value?.timestamp) return null;
  const taken = new Date(value.timestamp);
  return el(
    'div',
    { class: 'reading', 'data-testid': 'reading' },
    el('time', { datetime: value.timestamp, title: taken.toString() }, takenAt(taken)),
    ' · ',
    el('span', { class: 'quality' }, value.quality),
  );
}

function pointsTable(points: readonly EntityPoint[]): HTMLElement {
  if (points.length === 0) return el('p', { class: 'muted' }, 'No points.');
  return el(
    'table',
    { class: 'points' },
    el(
      'tbody',
      {},
      ...points.map((point) =>
        el(
          'tr',
          { 'data-point': point.id },
          el('td', {}, el('div', {}, point.name), el('div', { class: 'muted class-name' }, className(point.type))),
          el(
            'td',
            { class: `value quality-${point.currentValue?.quality ?? 'none'}` },
            el('div', { class: 'current' }, valueText(point)),
            readingMeta(point),
          ),
        ),
      ),
    ),
  );
}

/** Entities as links that open them. */
function entityList(entities: readonly EntitySummary[], actions: PanelActions): HTMLElement {
  if (entities.length === 0) return el('p', { class: 'muted' }, 'None.');
  return el(
    'ul',
    { class: 'entities' },
    ...entities.map((entity) => {
      const link = el(
        'button',
        {
          type: 'button',
          class: 'link',
          'data-entity': entity.id,
          title: entity.ifcId ? 'Show in 3D' : 'Show its panel (no element in the model)',
        },
        entity.name,
      );
      link.addEventListener('click', () => actions.open(entity));
      return el('li', {}, link, ' ', el('span', { class: 'muted class-name' }, className(entity.type)));
    }),
  );
}

/**
 * Renders the panel for an element and its entity (null: unmapped), or for an entity reached without
 * its element; `extra` (the alignment layer's section) follows the element's facts.
 */
export function renderSelection(
  panel: HTMLElement,
  element: ModelElement | null,
  entity: GraphEntity | null,
  actions: PanelActions,
  extra?: HTMLElement,
): void {
  const elementFacts =
    element &&
    facts([
      ['IFC class', className(element.ifc_class)],
      ['Name', element.name || '—'],
      ['Storey', element.storey || '—'],
      ['GlobalId', element.ifc_id],
    ]);
  if (!entity) {
    if (!element || !elementFacts) return renderMessage(panel, 'Nothing selected.');
    panel.replaceChildren(
      el('h2', {}, 'Selection'),
      el(
        'p',
        { class: 'unmapped', 'data-testid': 'unmapped' },
        `Not mapped: the knowledge graph has no entity for this ${element.ifc_class} (GlobalId ${element.ifc_id}).`,
      ),
      elementFacts,
      ...(extra ? [extra] : []),
    );
    return;
  }
  const sections: HTMLElement[] = [
    el('h2', { 'data-testid': 'entity-name' }, entity.name),
    el(
      'p',
      { class: 'muted class-name', 'data-testid': 'entity-type' },
      className(entity.type),
      ` · ${entity.__typename}`,
    ),
    elementFacts ?? elementLink(entity, actions),
    ...(extra ? [extra] : []),
  ];
  if (entity.points) sections.push(el('h3', {}, `Points (${entity.points.length})`), pointsTable(entity.points));
  if (entity.upstream) sections.push(el('h3', {}, 'Upstream equipment'), entityList(entity.upstream, actions));
  panel.replaceChildren(...sections);
}

/** For an entity shown without its element: a link to the element, or that it has none. */
function elementLink(entity: GraphEntity, actions: PanelActions): HTMLElement {
  const globalId = entity.ifcId;
  if (!globalId) return el('p', { class: 'muted', 'data-testid': 'no-element' }, 'No element in the model.');
  const link = el('button', { type: 'button', class: 'link', 'data-testid': 'show-element' }, 'Show in 3D');
  link.addEventListener('click', () => actions.showElement(globalId));
  return el('p', {}, link);
}

/** Renders a message (loading, an error) in the panel. */
export function renderMessage(panel: HTMLElement, message: string, error = false): void {
  panel.replaceChildren(el('h2', {}, 'Selection'), el('p', { class: error ? 'error' : 'muted' }, message));
}

/** One model in the models list, with a checkbox when the viewer can show it. */
export function modelItem(
  label: string,
  detail: string,
  checkbox?: { checked: boolean; onChange: (checked: boolean) => void },
): HTMLLIElement {
  const box = checkbox && el('input', { type: 'checkbox' });
  if (box && checkbox) {
    box.checked = checkbox.checked;
    box.addEventListener('change', () => checkbox.onChange(box.checked));
  }
  return el('li', {}, el('label', {}, box, ` ${label}`), el('div', { class: 'muted' }, detail));
}
