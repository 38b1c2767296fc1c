/**
 * The longest text each filter argument takes. A filter is matched against every candidate entity
 * (a name filter is a substring test per entity), so its length multiplies the store's work: a
 * 5 MB name cost a large site the whole request deadline. No building has a name or an IRI near
 * these lengths; longer text is refused before anything is planned or sent to the store.
 */
import { badUserInput } from '../errors/app-error.ts';

/** Names and values: longer than any label or property value a building model holds. */
export const MAX_NAME_LENGTH = 1_000;
/** Ids, classes, predicates and media, each a local name, a prefixed name or a full IRI. */
export const MAX_IRI_LENGTH = 2_048;

/** The limit of each filter argument, by the name GraphQL gives it (the same name on every field). */
export const FILTER_TEXT_LIMITS = {
  name: MAX_NAME_LENGTH,
  locationName: MAX_NAME_LENGTH,
  propertyValue: MAX_NAME_LENGTH,
  id: MAX_IRI_LENGTH,
  locationId: MAX_IRI_LENGTH,
  equipmentId: MAX_IRI_LENGTH,
  zoneId: MAX_IRI_LENGTH,
  systemId: MAX_IRI_LENGTH,
  pointIds: MAX_IRI_LENGTH,
  ifcId: MAX_IRI_LENGTH,
  is: MAX_IRI_LENGTH,
  equipmentIs: MAX_IRI_LENGTH,
  hasProperty: MAX_IRI_LENGTH,
  medium: MAX_IRI_LENGTH,
} as const satisfies Record<string, number>;

export type FilterArgument = keyof typeof FILTER_TEXT_LIMITS;

/** Whether an argument of that name is a filter with a limit. */
export const isFilterArgument = (argument: string): argument is FilterArgument =>
  Object.hasOwn(FILTER_TEXT_LIMITS, argument);

/**
 * Refuses a filter's text (or any text of a list of them) longer than the limit of `filter`:
 * BAD_USER_INPUT naming `argument` (the caller's name for it, `filter`'s by default) and the limit.
 */
export function checkFilterText(filter: FilterArgument, value: unknown, argument: string = filter): void {
  const maxLength = FILTER_TEXT_LIMITS[filter];
  const texts = Array.isArray(value) ? value : [value];
  for (const text of texts) {
    if (typeof text !== 'string' || text.length <= maxLength) continue;
    const length = text.length.toLocaleString('en');
    throw badUserInput(
      `Argument "${argument}" is ${length} characters long, over its limit of ${maxLength.toLocaleString('en')}: ` +
        'no name or IRI in a building model is that long.',
      { argument, maxLength },
    );
  }
}
