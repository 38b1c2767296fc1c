/** DOM building for the viewer's panels: nodes and textContent only, since names come from users. */

export type Child = Node | string | null | undefined | false;

/** An element with attributes and children (null, undefined and false children are left out). */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

/**
 * A Brick or IFC class name that may wrap after its underscores (`Supply_Air_Temperature_Sensor`),
 * not in the middle of a word: an underscore is no break opportunity of its own.
 */
export function className(name: string): DocumentFragment {
  const fragment = document.createDocumentFragment();
  name.split(/(?<=_)/).forEach((part, i) => {
    if (i > 0) fragment.append(document.createElement('wbr'));
    fragment.append(part);
  });
  return fragment;
}
