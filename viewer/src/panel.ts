/**
 * The selection panel: what the service knows of the clicked element (IFC class, storey) and of its
 * graph entity (name, type, points with their current values, upstream equipment), or plainly that
 * the graph maps no entity to it. Built with DOM nodes and textContent only: names come from users.
 */
import type { ModelElement } from './api.ts';
import type { EntityPoint, EntitySummary, GraphEntity } from './entity-query.ts';

type Child = Node | string | null | undefined | false;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

const facts = (pairs: Array<[string, string]>) => el('dl', {}, ...pairs.flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)]));

/** A reading as the panel shows it: number and unit, or why there is none. */
function valueText(point: EntityPoint): string {
  const value = point.currentValue;
  if (!value || value.value === null) return value?.quality === 'stale' ? 'stale' : 'no live value';
  const rounded = Number.isInteger(value.value) ? String(value.value) : value.value.toFixed(2);
  return point.unit ? `${rounded} ${point.unit}` : rounded;
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
          el('td', {}, el('div', {}, point.name), el('div', { class: 'muted' }, point.type)),
          el('td', { class: `value quality-${point.currentValue?.quality ?? 'none'}`, title: point.currentValue?.timestamp ?? '' }, valueText(point)),
        ),
      ),
    ),
  );
}

const entityList = (entities: readonly EntitySummary[]) =>
  entities.length === 0 ? el('p', { class: 'muted' }, 'None.') : el('ul', {}, ...entities.map((e) => el('li', {}, `${e.name} `, el('span', { class: 'muted' }, e.type))));

/** Renders the panel for an element and its entity (null: unmapped). */
export function renderSelection(panel: HTMLElement, element: ModelElement, entity: GraphEntity | null): void {
  const elementFacts = facts([
    ['IFC class', element.ifc_class],
    ['Name', element.name || '—'],
    ['Storey', element.storey || '—'],
    ['GlobalId', element.ifc_id],
  ]);
  if (!entity) {
    panel.replaceChildren(
      el('h2', {}, 'Selection'),
      el('p', { class: 'unmapped', 'data-testid': 'unmapped' }, `Not mapped: the knowledge graph has no entity for this ${element.ifc_class} (GlobalId ${element.ifc_id}).`),
      elementFacts,
    );
    return;
  }
  const sections: HTMLElement[] = [
    el('h2', { 'data-testid': 'entity-name' }, entity.name),
    el('p', { class: 'muted', 'data-testid': 'entity-type' }, `${entity.type} · ${entity.__typename}`),
    elementFacts,
  ];
  if (entity.points) sections.push(el('h3', {}, `Points (${entity.points.length})`), pointsTable(entity.points));
  if (entity.upstream) sections.push(el('h3', {}, 'Upstream equipment'), entityList(entity.upstream));
  panel.replaceChildren(...sections);
}

/** Renders a message (loading, an error) in the panel. */
export function renderMessage(panel: HTMLElement, message: string, error = false): void {
  panel.replaceChildren(el('h2', {}, 'Selection'), el('p', { class: error ? 'error' : 'muted' }, message));
}

/** One model in the models list, with a checkbox when the viewer can show it. */
export function modelItem(label: string, detail: string, checkbox?: { checked: boolean; onChange: (checked: boolean) => void }): HTMLLIElement {
  const box = checkbox && el('input', { type: 'checkbox' });
  if (box && checkbox) {
    box.checked = checkbox.checked;
    box.addEventListener('change', () => checkbox.onChange(box.checked));
  }
  return el('li', {}, el('label', {}, box, ` ${label}`), el('div', { class: 'muted' }, detail));
}
