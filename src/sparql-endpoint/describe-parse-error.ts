/** The parser state sparqljs (a Jison parser) attaches to a syntax error as `hash`. */
interface JisonErrorHash {
  /** The offending token's text ('' at the end), and its kind ('EOF', 'INVALID' for text no token matches). */
  readonly text: string;
  readonly token: string;
  /** Where the last token read before it is: 1-based lines, 0-based columns. */
  readonly loc?: { readonly last_line: number; readonly last_column: number };
  /** The token kinds the grammar would have taken, quoted: "'VAR'". */
  readonly expected?: readonly string[];
}

/** How many expected tokens a message lists: enough to point the way, short of the grammar's 80. */
const SHOWN_EXPECTED = 8;

const isHash = (value: unknown): value is JisonErrorHash =>
  typeof value === 'object' && value !== null && typeof (value as JisonErrorHash).token === 'string';

/**
 * A sparqljs error as one line that says where and what: `line 3, column 14: found ")", expected
 * one of IRIREF, VAR, … (40 kinds)`. Its own message spans lines (an excerpt, a caret, every token
 * the grammar expected), and its first line alone says only "Parse error on line 1:".
 */
export function describeParseError(error: unknown, query: string): string {
  const hash = (error as { hash?: unknown } | null)?.hash;
  if (!isHash(hash) || hash.loc === undefined) {
    // A semantic error ("Unknown prefix: foo", "Projection of ungrouped variable (?x)") is one line already.
    return String((error as Error)?.message ?? error)
      .replace(/\s+/g, ' ')
      .trim()
      .replace(/\.$/, '')
      .slice(0, 300);
  }
  // The offending token starts after the last one read, past any white space.
  const lines = query.split('\n');
  let offset =
    lines.slice(0, hash.loc.last_line - 1).reduce((sum, line) => sum + line.length + 1, 0) + hash.loc.last_column;
  while (offset < query.length && /\s/.test(query[offset]!)) offset += 1;
  const before = query.slice(0, offset).split('\n');
  const where = `line ${before.length}, column ${before.at(-1)!.length + 1}`;
  const found = hash.token === 'EOF' ? 'the end of the query' : `"${(hash.text || hash.token).slice(0, 40)}"`;
  const expected = (hash.expected ?? []).map((kind) => kind.replace(/^'|'$/g, '')).filter((kind) => kind !== 'INVALID');
  const listed =
    expected.length === 0
      ? ''
      : `, expected ${expected.length === 1 ? '' : 'one of '}${expected.slice(0, SHOWN_EXPECTED).join(', ')}${expected.length > SHOWN_EXPECTED ? `, … (${expected.length} kinds)` : ''}`;
  return `${where}: found ${found}${listed}`;
}
