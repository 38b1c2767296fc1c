/**
 * What a load (PUT, POST) changed, as a patch: the graph's N-Triples before and after compared
 * line by line, so its version keeps what changed, not a copy of the graph. The lines before are
 * counted by a hash (a 53-bit number each, not their text); a line after that was not there
 * before is added, a line before with no match after is removed. Blank nodes are compared by their
 * triples alone (their labels differ from one export to the next): a triple naming one is keyed
 * with its labels blanked out. Runs in slices of the main thread (it is as long as the graph).
 */
import { MainThreadSlices } from '../limits/main-thread.ts';
import type { GraphPatch, TripleText } from '../rdf/rdf-patch.ts';

/** A line's key: 53 bits of two FNV-1a hashes of its text, blank node labels left out. */
function key(line: string): number {
  let a = 0x811c9dc5;
  let b = 0x01000193;
  let blank = false;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    // `_:label` is keyed as `_:`: a label runs to the next space.
    if (blank) {
      if (c !== 0x20) continue;
      blank = false;
    } else if (c === 0x5f && line.charCodeAt(i + 1) === 0x3a && (i === 0 || line.charCodeAt(i - 1) === 0x20)) {
      blank = true;
      i++;
    }
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}

/** Each line of N-Triples text (one triple a line) as a triple, without its final ` .`. */
function* lines(nTriples: string): Generator<TripleText> {
  for (let at = 0; at < nTriples.length;) {
    let end = nTriples.indexOf('\n', at);
    if (end < 0) end = nTriples.length;
    const line = nTriples.slice(at, end).trim();
    at = end + 1;
    if (line === '' || line.startsWith('#')) continue;
    yield line.endsWith('.') ? line.slice(0, -1).trimEnd() : line;
  }
}

/** The change from `before` to `after` (both N-Triples as the store exports them). */
export async function diffNTriples(before: string, after: string, signal?: AbortSignal): Promise<GraphPatch> {
  const slices = new MainThreadSlices(signal);
  const counts = new Map<number, number>();
  for (const line of lines(before)) {
    const pause = slices.step();
    if (pause) await pause;
    const k = key(line);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  const add: TripleText[] = [];
  for (const line of lines(after)) {
    const pause = slices.step();
    if (pause) await pause;
    const k = key(line);
    const left = counts.get(k) ?? 0;
    if (left === 0) add.push(line);
    else if (left === 1) counts.delete(k);
    else counts.set(k, left - 1);
  }
  const remove: TripleText[] = [];
  if (counts.size > 0)
    for (const line of lines(before)) {
      const pause = slices.step();
      if (pause) await pause;
      const k = key(line);
      const left = counts.get(k);
      if (left === undefined) continue;
      remove.push(line);
      if (left === 1) counts.delete(k);
      else counts.set(k, left - 1);
    }
  return { remove, add };
}
