/**
 * Bracket nesting counted in one linear pass over a document, before a recursive parser reads it.
 * Oxigraph's parsers and query engine, run as WebAssembly, recurse on nesting and trap past a depth
 * their fixed stack holds (a trap leaves the instance unusable); sparqljs recurses too. A scan
 * that counts brackets outside strings, IRIs and comments, in constant memory, refuses such a
 * document first, whether it comes whole or in chunks.
 */

/** A document nested deeper than its syntax's limit; names the limit and where it was passed. */
export class NestingTooDeep extends Error {
  constructor(
    readonly syntax: string,
    readonly limit: number,
    readonly line: number,
    readonly column: number,
    brackets: string,
  ) {
    super(`${syntax} nesting deeper than ${limit} levels of ${brackets} at line ${line} column ${column}`);
    this.name = 'NestingTooDeep';
  }
}

/**
 * Counts nesting across the chunks of one document, fed in order; `push` throws NestingTooDeep
 * at the first bracket past the limit. Lines and columns (in characters) are 1-based.
 */
export abstract class NestingScanner {
  protected depth = 0;
  protected line = 1;
  protected column = 0;

  constructor(
    readonly syntax: string,
    readonly limit: number,
    private readonly brackets: string,
  ) {}

  /** Scans the next chunk of UTF-8 bytes. */
  abstract push(chunk: Uint8Array): void;

  /** Scans a whole text as one chunk (a SPARQL scan needs the whole text to look back). */
  scan(text: string): void {
    this.push(Buffer.from(text, 'utf8'));
  }

  protected tooDeep(line: number, column: number): NestingTooDeep {
    return new NestingTooDeep(this.syntax, this.limit, line, column, this.brackets);
  }
}

/** Code points start at every byte but UTF-8's continuation bytes (10xxxxxx). */
export const startsCharacter = (byte: number) => (byte & 0xc0) !== 0x80;
