/**
 * Finding an entity: a term is matched against names (case-insensitive substring) and, when it
 * names a class (AHU, Room, Air_Handling_Unit), against classes with their subclasses; the matches
 * are listed, those with an element in the model first, and a pick opens one.
 */
import { ApiError, type Api } from './api.ts';
import { className, el } from './dom.ts';
import {
  orderMatches,
  searchEntities,
  searchQuery,
  type EntitySummary,
  type SearchAnswer,
  type SearchBy,
} from './entity-query.ts';

/** Typing pauses this long before a search is sent. */
const DEBOUNCE_MS = 250;

async function search(api: Api, term: string, by: SearchBy): Promise<EntitySummary[]> {
  try {
    return searchEntities(await api.graphql<SearchAnswer>(searchQuery(by), { siteId: api.siteId, term }));
  } catch (error) {
    // A term that names no class (UNKNOWN_CLASS) is no error of the user's: it matches by name only.
    // Any other failure shows through the search by name, which asks at the same time.
    if (by === 'is' && error instanceof ApiError) return [];
    throw error;
  }
}

/** Entities matching a term by name or by class, each once. */
async function find(api: Api, term: string): Promise<EntitySummary[]> {
  const [byName, byClass] = await Promise.all([search(api, term, 'name'), search(api, term, 'is')]);
  return orderMatches([...byName, ...byClass]);
}

function matchItem(entity: EntitySummary, pick: (entity: EntitySummary) => void): HTMLLIElement {
  const button = el('button', { type: 'button', class: 'link', 'data-entity': entity.id }, entity.name);
  button.addEventListener('click', () => pick(entity));
  return el(
    'li',
    {},
    button,
    ' ',
    el('span', { class: 'muted class-name' }, className(entity.type)),
    !entity.ifcId && el('span', { class: 'muted' }, ' · no element'),
  );
}

/** Searches as the user types into `input`, lists matches in `results`, and hands a picked one to `pick`. */
export function wireSearch(
  input: HTMLInputElement,
  results: HTMLElement,
  api: Api,
  pick: (entity: EntitySummary) => void,
): void {
  let timer: number | undefined;
  let latest = 0;
  const run = async (term: string, request: number) => {
    const matches = term.length < 2 ? null : await find(api, term);
    if (request !== latest) return;
    if (!matches) return results.replaceChildren();
    results.replaceChildren(
      el(
        'li',
        { class: 'muted', role: 'status' },
        matches.length === 0
          ? `Nothing named or of class “${term}”.`
          : `${matches.length} match${matches.length === 1 ? '' : 'es'}`,
      ),
      ...matches.map((entity) => matchItem(entity, pick)),
    );
  };
  const schedule = (delay: number) => {
    window.clearTimeout(timer);
    const request = ++latest;
    timer = window.setTimeout(
      () =>
        void run(input.value.trim(), request).catch((error: unknown) =>
          results.replaceChildren(el('li', { class: 'error' }, error instanceof Error ? error.message : String(error))),
        ),
      delay,
    );
  };
  input.disabled = false;
  input.addEventListener('input', () => schedule(DEBOUNCE_MS));
  input.form?.addEventListener('submit', (event) => {
    event.preventDefault();
    schedule(0);
  });
}
