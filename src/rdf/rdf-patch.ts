/**
 * A change of one graph as triples removed and added, and its text form, RDF Patch (the change
 * format of Apache Jena's RDF Delta): one row per triple, `D` for a removal, `A` for an addition,
 * rows in order, `TX .` … `TC .` around a transaction (`TA .` aborts it), `PA p: <iri> .` declaring
 * a prefix its rows may use, `H` rows a header.
 *
 * A patch here is the net change: a triple removed and added again is in `add` only, and the
 * other way round in `remove` only (the last row of a triple decides). Its triples are N-Triples
 * terms without the final dot. Blank node labels mean something within one patch only: a blank
 * node added is a new one, and a blank node removed stands for any blank node that matches every
 * removed triple naming it (the store's own names for blank nodes are not stable; docs/changing-a-graph.md,
 * "Blank nodes").
 */
import oxigraph from 'oxigraph';
import type { RdfTerm } from './result-row.ts';

/** A triple as N-Triples terms, without the final ` .`: `<s> <p> "o"`. */
export type TripleText = string;

/** What a change does to a graph: the triples it removes and those it adds, none in both. */
export interface GraphPatch {
  readonly remove: readonly TripleText[];
  readonly add: readonly TripleText[];
}

export const EMPTY_PATCH: GraphPatch = { remove: [], add: [] };

/** A patch that could not be read: `line` is the row (1-based) that is wrong. */
export class RdfPatchError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/** The triple of a parsed quad, as N-Triples terms. */
export const tripleText = (quad: oxigraph.Quad): TripleText =>
  `${quad.subject.toString()} ${quad.predicate.toString()} ${quad.object.toString()}`;

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';

/** A term of a query's answer as N-Triples; a blank node keeps the store's name (letters and digits of it). */
export function rowTermText(term: RdfTerm): string {
  if (term.type === 'uri') return oxigraph.namedNode(term.value).toString();
  if (term.type === 'bnode') return `_:s${term.value.replace(/[^A-Za-z0-9]/g, '')}`;
  const language = term['xml:lang'];
  const datatype = term.datatype && term.datatype !== XSD_STRING ? oxigraph.namedNode(term.datatype) : undefined;
  return oxigraph.literal(term.value, language || datatype).toString();
}

/** Whether a triple names a blank node. */
export const namesBlankNode = (triple: TripleText): boolean => triple.startsWith('_:') || / _:[^ ]+$/.test(triple);

/** The triples of an N-Triples document, as N-Triples terms (written as Oxigraph writes them; blank node labels kept). */
export const triplesOfNTriples = (nTriples: string): TripleText[] =>
  oxigraph.parse(nTriples, { format: 'application/n-triples' }).map(tripleText);

/** The net change of rows in order: the last row of each triple decides whether it is removed or added. */
export function netPatch(rows: Iterable<readonly ['A' | 'D', TripleText]>): GraphPatch {
  const last = new Map<TripleText, 'A' | 'D'>();
  for (const [op, triple] of rows) {
    last.delete(triple);
    last.set(triple, op);
  }
  const remove: TripleText[] = [];
  const add: TripleText[] = [];
  for (const [triple, op] of last) (op === 'A' ? add : remove).push(triple);
  return { remove, add };
}

/** Patches as asked for, one after another, as one (the last row of a triple decides). */
export function composePatches(patches: Iterable<GraphPatch>): GraphPatch {
  return netPatch(
    (function* () {
      for (const patch of patches) {
        for (const triple of patch.remove) yield ['D', triple] as const;
        for (const triple of patch.add) yield ['A', triple] as const;
      }
    })(),
  );
}

/**
 * Changes as made (a triple removed was there, one added was not), one after another, as one: a
 * triple added and then removed, or removed and then added, is as it was, so in neither list.
 */
export function composeChanges(changes: Iterable<GraphPatch>): GraphPatch {
  const net = new Map<TripleText, 'A' | 'D'>();
  const step = (triple: TripleText, op: 'A' | 'D') => {
    const before = net.get(triple);
    if (before !== undefined && before !== op) net.delete(triple);
    else net.set(triple, op);
  };
  for (const change of changes) {
    for (const triple of change.remove) step(triple, 'D');
    for (const triple of change.add) step(triple, 'A');
  }
  const remove: TripleText[] = [];
  const add: TripleText[] = [];
  for (const [triple, op] of net) (op === 'A' ? add : remove).push(triple);
  return { remove, add };
}

/** The patch that undoes `patch`. */
export const invertPatch = (patch: GraphPatch): GraphPatch => ({ remove: patch.add, add: patch.remove });

/** RDF Patch text of a patch: one transaction, removals first. */
export function writeRdfPatch(patch: GraphPatch): string {
  const rows = ['TX .', ...patch.remove.map((t) => `D ${t} .`), ...patch.add.map((t) => `A ${t} .`), 'TC .'];
  return `${rows.join('\n')}\n`;
}

const ROW = /^\s*(A|D|PA|PD|H|TX|TC|TA)(?=\s|$)\s*(.*)$/;

/**
 * Reads RDF Patch text. Rows of an aborted transaction (`TA`) are dropped; a row naming a graph
 * (a quad) is refused, since a patch here changes one graph, the one it is sent to.
 */
export function parseRdfPatch(text: string): GraphPatch {
  const lines = text.split(/\r?\n/);
  // The rows' triples as one Turtle document, line for line, so the parser's line numbers are the patch's.
  const turtle: string[] = [];
  const ops: Array<{ op: 'A' | 'D'; line: number; transaction: number }> = [];
  let transaction = 0;
  const aborted = new Set<number>();
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '' || raw.trimStart().startsWith('#')) {
      turtle.push('');
      return;
    }
    const row = ROW.exec(raw);
    if (!row) throw new RdfPatchError(`line ${line}: a row starts with A, D, PA, PD, H, TX, TC or TA`, line);
    const [, code, rest] = row as unknown as [string, string, string];
    switch (code) {
      case 'A':
      case 'D':
        ops.push({ op: code, line, transaction });
        turtle.push(rest.trimEnd().endsWith('.') ? rest : `${rest} .`);
        return;
      case 'PA':
        turtle.push(`@prefix ${rest.replace(/\s*\.\s*$/, '')} .`);
        return;
      case 'TA':
        aborted.add(transaction++);
        break;
      case 'TC':
        transaction++;
        break;
    }
    turtle.push('');
  });
  let quads: oxigraph.Quad[];
  try {
    quads = oxigraph.parse(turtle.join('\n'), { format: 'text/turtle' });
  } catch (error) {
    const message = (error as Error).message;
    const line = Number(/line (\d+)/i.exec(message)?.[1] ?? 0);
    throw new RdfPatchError(
      `${message} (each A or D row holds one triple of the graph the patch is sent to, in N-Triples or Turtle terms, and names no graph)`,
      line,
    );
  }
  if (quads.length !== ops.length) {
    const at = ops[Math.min(quads.length, ops.length - 1)]?.line ?? 0;
    throw new RdfPatchError(`line ${at}: each A or D row holds exactly one triple`, at);
  }
  return netPatch(
    ops.flatMap(({ op, transaction: t }, i) => (aborted.has(t) ? [] : [[op, tripleText(quads[i]!)] as const])),
  );
}
