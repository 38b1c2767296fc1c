/**
 * The triples a `DELETE/INSERT … WHERE` removes and adds: its templates filled in with each
 * solution of its WHERE, as SPARQL 1.1 Update says (a template triple with a variable the solution
 * leaves unbound, or that would not be a triple, such as a literal subject, is left out; a blank
 * node of the INSERT template is a new one per solution).
 */
import type { Term, Triple } from 'sparqljs';
import { badUserInput } from '../errors/app-error.ts';
import { netPatch, rowTermText, type GraphPatch, type TripleText } from '../rdf/rdf-patch.ts';
import type { SparqlRow } from '../rdf/result-row.ts';
import { templateBlank, termText } from '../sparql-endpoint/confine-update.ts';

type Position = 'subject' | 'predicate' | 'object';

/** One template triple filled in, or undefined when it leaves a variable unbound or is no triple. */
function fill(triple: Triple, row: SparqlRow, blank: (term: Term) => string, adding: boolean): TripleText | undefined {
  const parts: string[] = [];
  for (const position of ['subject', 'predicate', 'object'] as Position[]) {
    const term = triple[position] as Term;
    if (term.termType !== 'Variable') {
      parts.push(term.termType === 'BlankNode' ? blank(term) : termText(term, ''));
      continue;
    }
    const bound = row[term.value];
    if (!bound) return undefined;
    if (bound.type === 'bnode' && adding)
      throw badUserInput(
        `The INSERT template puts ?${term.value}, bound to a blank node of the graph, in a triple it adds: the service cannot tell that blank node apart in every copy of the graph. Give the node an IRI, or replace it whole.`,
      );
    const literal = bound.type === 'literal' || bound.type === 'typed-literal';
    if ((literal && position !== 'object') || (bound.type === 'bnode' && position === 'predicate')) return undefined;
    parts.push(rowTermText(bound));
  }
  return parts.join(' ');
}

/** The net change of filling `remove` and `add` with every solution (`label` keeps each step's new blank nodes apart). */
export function fillTemplates(
  remove: readonly Triple[],
  add: readonly Triple[],
  rows: readonly SparqlRow[],
  label: string,
): GraphPatch {
  // Every removal before any addition: a triple one solution removes and another adds is there after.
  const changes: Array<readonly ['A' | 'D', TripleText]> = [];
  for (const row of rows)
    for (const t of remove) {
      const text = fill(t, row, () => '', false);
      if (text) changes.push(['D', text]);
    }
  rows.forEach((row, n) => {
    for (const t of add) {
      const text = fill(t, row, (term) => templateBlank(term as never, label, n), true);
      if (text) changes.push(['A', text]);
    }
  });
  return netPatch(changes);
}
