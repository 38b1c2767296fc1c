/**
 * A line of N-Triples as a number: 53 bits of two FNV-1a hashes of its text, to count or compare
 * large documents' triples without keeping their text. With `blankLabels: false`, `_:label` is
 * hashed as `_:` (a store's names for its blank nodes differ from one export to the next).
 */
export function lineHash(line: string, blankLabels = true): number {
  return rangeHash(line, 0, line.length, blankLabels);
}

/** The hash of `text` from `start` to `end` (exclusive), as `lineHash` of that slice, without making it. */
export function rangeHash(text: string, start: number, end: number, blankLabels = true): number {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  let blank = false;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    // `_:label` without its label: a label runs to the next space.
    if (blank) {
      if (c !== 0x20) continue;
      blank = false;
    } else if (
      !blankLabels &&
      c === 0x5f &&
      text.charCodeAt(i + 1) === 0x3a &&
      (i === start || text.charCodeAt(i - 1) === 0x20)
    ) {
      blank = true;
      i++;
    }
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}
