/**
 * Names as the alignment compares them: "VAV 2-03", "VAV-2-03" and "vav_2_3" are the same name.
 * A name becomes words (lower case) and numbers (without leading zeros), split at every other
 * character and between letters and digits; a name's numbers must agree for it to match at all
 * (VAV-2-03 is not VAV-2-04, however alike the words).
 */

/** A name read as words and numbers. */
export interface NameTokens {
  readonly words: readonly string[];
  readonly numbers: readonly string[];
  /** Words and numbers in order, joined by one space: equal keys are equal names. */
  readonly key: string;
}

const PIECES = /[a-z]+|[0-9]+/g;

/** The words and numbers of a name. */
export function nameTokens(name: string): NameTokens {
  const words: string[] = [];
  const numbers: string[] = [];
  const all: string[] = [];
  for (const [piece] of name.toLowerCase().matchAll(PIECES)) {
    if (piece.charCodeAt(0) <= 57) {
      const number = piece.replace(/^0+(?=.)/, '');
      numbers.push(number);
      all.push(number);
    } else {
      words.push(piece);
      all.push(piece);
    }
  }
  return { words, numbers, key: all.join(' ') };
}

/** The initials of consecutive words ("air handling unit" → "ahu"), so an abbreviation matches its words. */
function withInitials(words: readonly string[]): Set<string> {
  const set = new Set(words);
  if (words.length >= 2) set.add(words.map((w) => w[0]).join(''));
  return set;
}

/** Revit's and others' `Family: Type: 123456` names: the family is the name, the type and element id are not. */
const FAMILY_TYPE_ID = /^([^:]+):[^:]*:\s*\d+\s*$/;

/** The words and numbers of an IFC element's name: a `Family: Type: Id` name is read as its family. */
export function elementNameTokens(name: string): NameTokens {
  const family = FAMILY_TYPE_ID.exec(name);
  return nameTokens(family ? family[1]! : name);
}

/** How much two names agree, and why. */
export interface NameMatch {
  /** 0..1: 1 for the same name. */
  readonly similarity: number;
  readonly detail: string;
}

/**
 * The agreement of two names: 1 when their keys are equal; otherwise the words' overlap (Dice, an
 * abbreviation counting as its words), raised when both have the same numbers, halved when only one
 * has numbers, 0 when both have numbers and they differ.
 */
export function compareNames(a: NameTokens, b: NameTokens): NameMatch {
  if (a.key === '' || b.key === '') return { similarity: 0, detail: 'no name' };
  if (a.key === b.key) return { similarity: 1, detail: 'same name' };
  const bothNumbered = a.numbers.length > 0 && b.numbers.length > 0;
  if (bothNumbered && a.numbers.join('.') !== b.numbers.join('.'))
    return { similarity: 0, detail: `numbers differ (${a.numbers.join('-')} / ${b.numbers.join('-')})` };
  const wa = withInitials(a.words);
  const wb = withInitials(b.words);
  let shared = 0;
  for (const word of wa) if (wb.has(word)) shared++;
  const words = wa.size + wb.size === 0 ? (bothNumbered ? 1 : 0) : (2 * shared) / (wa.size + wb.size);
  const similarity = bothNumbered
    ? 0.4 + 0.6 * words
    : a.numbers.length > 0 !== b.numbers.length > 0
      ? 0.5 * words
      : words;
  return {
    similarity,
    detail: bothNumbered
      ? `same numbers (${a.numbers.join('-')}), words ${Math.round(words * 100)}% alike`
      : `words ${Math.round(words * 100)}% alike`,
  };
}
