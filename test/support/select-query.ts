/**
 * A SELECT written as text in a test, as the algebra the stores take (GraphStore.select): parsed
 * with sparqljs, with the service's prefixes declared.
 */
import sparqljs, { type SelectQuery } from 'sparqljs';
import { PREFIXES } from '../../src/rdf/sparql-serializer.ts';

const parser = new sparqljs.Parser({ prefixes: { ...PREFIXES } });

/** The PREFIX lines of the service's prefixes, for query text sent as it is. */
export const prologue = Object.entries(PREFIXES)
  .map(([prefix, ns]) => `PREFIX ${prefix}: <${ns}>`)
  .join('\n');

/** The SELECT query `text` means. */
export function selectQuery(text: string): SelectQuery {
  const parsed = parser.parse(text);
  if (parsed.type !== 'query' || parsed.queryType !== 'SELECT')
    throw new Error(`Not a SELECT query: ${text.slice(0, 80)}`);
  return parsed;
}
