import { NestingScanner, startsCharacter } from './nesting-scanner.ts';

const enum State {
  Default,
  /** After `\` outside strings and IRIs: a local name's escape (`ex:a\(`), whose byte is no bracket. */
  Escape,
  /** After `<`: `<<` opens a triple term, anything else an IRI. */
  LessThan,
  Iri,
  /** After `>`: `>>` closes a triple term. */
  GreaterThan,
  Comment,
  /** After one quote: a short string, or `""`/`''`. */
  OneQuote,
  /** After two quotes: an empty string, or a third opens a long one. */
  TwoQuotes,
  Short,
  ShortEscape,
  Long,
  LongEscape,
}

const NEWLINE = 0x0a;
const RETURN = 0x0d;
const BACKSLASH = 0x5c;
const LESS = 0x3c;
const GREATER = 0x3e;

/** Bytes an IRIREF may hold (SPARQL and Turtle: no controls, space, `<>"{}|^\``); `\` per syntax. */
function iriBytes(backslash: boolean): Uint8Array {
  const allowed = new Uint8Array(256).fill(1);
  allowed.fill(0, 0, 0x21);
  for (const c of '<>"{}|^`') allowed[c.charCodeAt(0)] = 0;
  allowed[BACKSLASH] = backslash ? 1 : 0;
  return allowed;
}
const TURTLE_IRI = iriBytes(true);
const SPARQL_IRI = iriBytes(false);
/** Bytes that mean something outside strings, IRIs and comments; the rest are passed over at once. */
const CODE_BYTES = new Uint8Array(256);
for (const c of '()[]{}<>"\'#\\') CODE_BYTES[c.charCodeAt(0)] = 1;

/**
 * Nesting of `( )`, `[ ]`, `{ }` and `<< >>` in the Turtle family (Turtle, TriG, N3, N-Triples,
 * N-Quads) and SPARQL, which share their lexical forms: strings ('…', "…", '''…''', """…""" with
 * `\` escapes), IRIs <…> and comments #… are skipped, as is a local name's escaped character.
 *
 * In SPARQL `<` is also less-than: as sparqljs's lexer does, it starts an IRI only when an IRIREF
 * follows (`<` then IRI characters then `>`); otherwise the bytes after it are scanned again as
 * code. That rescan needs the IRI's bytes, which a query has: it is scanned whole. In Turtle a `<`
 * that starts no IRI is a syntax error there, so the scan just goes on.
 */
export class TurtleNestingScanner extends NestingScanner {
  private state = State.Default;
  private quote = 0;
  private quotes = 0;
  private readonly iri: Uint8Array;

  constructor(
    syntax: string,
    limit: number,
    private readonly lessThan: boolean,
  ) {
    super(syntax, limit, '( ), [ ], { } or << >>');
    this.iri = lessThan ? SPARQL_IRI : TURTLE_IRI;
  }

  override push(chunk: Uint8Array): void {
    const { limit, iri, lessThan } = this;
    let { state, depth, line, column, quote, quotes } = this;
    // Where this chunk's IRI candidate began, for a rescan; -1 when it began in an earlier chunk.
    let iriStart = -1;
    let iriLine = 0;
    let iriColumn = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (b === NEWLINE) {
        line++;
        column = 0;
      } else if (startsCharacter(b)) column++;
      if (state === State.Default && !CODE_BYTES[b]) continue;

      if (state === State.LessThan) {
        if (b === LESS) {
          state = State.Default;
          if (++depth > limit) throw this.tooDeep(line, column - 1);
          continue;
        }
        state = State.Iri;
      }
      // Each state either consumes the byte (continue) or ends and leaves it to Default (break).
      switch (state) {
        case State.Default:
          break;
        case State.Escape:
          state = State.Default;
          continue;
        case State.Iri:
          if (b === GREATER) {
            state = State.Default;
            continue;
          }
          if (iri[b]) continue;
          state = State.Default;
          if (lessThan && iriStart >= 0) {
            i = iriStart;
            line = iriLine;
            column = iriColumn;
            continue;
          }
          break;
        case State.GreaterThan:
          state = State.Default;
          if (b === GREATER) {
            if (depth > 0) depth--;
            continue;
          }
          break;
        case State.Comment:
          if (b === NEWLINE || b === RETURN) state = State.Default;
          continue;
        case State.OneQuote:
          if (b === quote) state = State.TwoQuotes;
          else if (b === BACKSLASH) state = State.ShortEscape;
          else if (b === NEWLINE || b === RETURN) state = State.Default;
          else state = State.Short;
          continue;
        case State.TwoQuotes:
          if (b === quote) {
            state = State.Long;
            quotes = 0;
            continue;
          }
          state = State.Default;
          break;
        case State.Short:
          if (b === quote || b === NEWLINE || b === RETURN) state = State.Default;
          else if (b === BACKSLASH) state = State.ShortEscape;
          continue;
        case State.ShortEscape:
          state = State.Short;
          continue;
        case State.Long:
          if (b === quote) {
            if (++quotes === 3) state = State.Default;
          } else {
            quotes = 0;
            if (b === BACKSLASH) state = State.LongEscape;
          }
          continue;
        case State.LongEscape:
          state = State.Long;
          continue;
      }

      switch (b) {
        case 0x28: // (
        case 0x5b: // [
        case 0x7b: // {
          if (++depth > limit) throw this.tooDeep(line, column);
          break;
        case 0x29: // )
        case 0x5d: // ]
        case 0x7d: // }
          // A stray closer is the parser's syntax error; it never lowers the count below zero.
          if (depth > 0) depth--;
          break;
        case LESS:
          state = State.LessThan;
          iriStart = i;
          iriLine = line;
          iriColumn = column;
          break;
        case GREATER:
          state = State.GreaterThan;
          break;
        case 0x22: // "
        case 0x27: // '
          state = State.OneQuote;
          quote = b;
          break;
        case 0x23: // #
          state = State.Comment;
          break;
        case BACKSLASH:
          state = State.Escape;
          break;
      }
    }
    this.state = state;
    this.depth = depth;
    this.line = line;
    this.column = column;
    this.quote = quote;
    this.quotes = quotes;
  }
}
