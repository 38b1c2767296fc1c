/**
 * What an answer costs as it is built, counted against the request's budget (src/limits/): each
 * entity as often as it appears in the answer. The plan builds each level once for all its parents
 * (a child shared by several parents is one object), but the answer repeats a child under every
 * parent, and a nested selection multiplies: so each object carries the number of places it takes
 * in the answer, and a level costs its children times their parents' places. The count is made
 * before the next level is fetched, so a selection whose answer would explode is refused after
 * the first level that passes the budget, long before it is written out.
 */
import type { RequestWork } from '../limits/request-work.ts';
import type { EntityObject } from './shape-entity.ts';

/** The places an object takes in the answer, kept on the object: a Map of every object grew in steps that held the main thread. */
const PLACES = Symbol('places');
type Placed = object & { [PLACES]?: number };

export class AnswerCost {
  constructor(private readonly work: RequestWork | undefined) {}

  /** A root entity: one place. */
  root(object: EntityObject): void {
    this.place(1, object);
  }

  /** Children put under `parent` (an entity's list field or single one, or a value's list, such as a reference's fields). */
  children(parent: object, children: readonly object[]): void {
    const times = (parent as Placed)[PLACES] ?? 1;
    for (const child of children) this.place(times, child);
  }

  /** Rows the triplestore handed over. */
  storeRows(count: number): void {
    this.work?.spend('storeRows', count);
  }

  /** Most rows the next store query may return within the budget (one more tells it was exceeded). */
  rowLimit(): number | undefined {
    return this.work ? this.work.left('storeRows') + 1 : undefined;
  }

  private place(times: number, object: Placed): void {
    object[PLACES] = (object[PLACES] ?? 0) + times;
    this.work?.spend('entities', times);
    this.work?.spend('responseBytes', times * sizeOf(object));
  }
}

/** The JSON size of an object's own values, near enough: keys, strings, numbers, lists of strings. */
function sizeOf(object: object): number {
  let bytes = 2;
  for (const key in object) {
    if (key.startsWith('__')) continue;
    const value = (object as Record<string, unknown>)[key];
    bytes += key.length + 4;
    if (typeof value === 'string') bytes += value.length;
    else if (Array.isArray(value)) for (const item of value) bytes += typeof item === 'string' ? item.length + 3 : 0;
    else if (value !== null && typeof value !== 'object') bytes += 8;
  }
  return bytes;
}
