/**
 * A small streaming Turtle writer.
 *
 * It writes one subject block at a time to a line sink, so a generator can emit millions of triples
 * without holding the document in memory: only the predicate-object pairs of the current subject are
 * buffered. Terms are plain strings already in Turtle syntax (`demo:AHU-1`, `"AHU-1"`, `42`); the helpers
 * below build them with validation and escaping. Output is deterministic: predicates appear in the order
 * they were first added, objects in the order they were added.
 */
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';

// ---------------------------------------------------------------------------------------------------
// Sinks

/** Receives the document one line at a time (without the trailing newline). */
export interface LineSink {
  write(line: string): void;
}

/** Collects lines in memory: for tests and small documents. */
export class ArrayLineSink implements LineSink {
  readonly lines: string[] = [];

  write(line: string): void {
    this.lines.push(line);
  }

  /** The document as text, each line terminated by "\n". */
  text(): string {
    return this.lines.length === 0 ? '' : `${this.lines.join('\n')}\n`;
  }
}

/**
 * Writes lines to a file through a fixed-size buffer with synchronous writes (no back-pressure to
 * manage, constant memory). The file is written under a temporary name and renamed into place on
 * close(), so a reader never sees a half-written file. Call abort() on failure to remove the temp file.
 */
export class FileLineSink implements LineSink {
  private readonly fd: number;
  private readonly tmpPath: string;
  private buffer: string[] = [];
  private bufferedChars = 0;
  private closed = false;
  bytesWritten = 0;
  linesWritten = 0;

  constructor(
    readonly path: string,
    private readonly bufferChars = 1 << 16,
  ) {
    this.tmpPath = `${path}.tmp-${process.pid}`;
    this.fd = openSync(this.tmpPath, 'w');
  }

  write(line: string): void {
    if (this.closed) throw new Error(`FileLineSink(${this.path}) is closed`);
    this.buffer.push(line, '\n');
    this.bufferedChars += line.length + 1;
    this.linesWritten++;
    if (this.bufferedChars >= this.bufferChars) this.flush();
  }

  flush(): void {
    if (this.buffer.length === 0) return;
    const chunk = this.buffer.join('');
    this.bytesWritten += writeSync(this.fd, chunk, null, 'utf8');
    this.buffer = [];
    this.bufferedChars = 0;
  }

  close(): void {
    if (this.closed) return;
    this.flush();
    closeSync(this.fd);
    this.closed = true;
    renameSync(this.tmpPath, this.path);
  }

  abort(): void {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
    rmSync(this.tmpPath, { force: true });
  }
}

// ---------------------------------------------------------------------------------------------------
// Terms

/** A Turtle term in its serialized form. */
export type Term = string;

/** An anonymous node written inline as `[ p o ; p o ]`. */
export class BlankNode {
  constructor(readonly pairs: ReadonlyArray<readonly [Term, ObjectTerm]>) {
    if (pairs.length === 0) throw new Error('BlankNode needs at least one predicate-object pair');
  }

  /** Triples this node contributes (its own pairs, recursively), not counting the triple pointing at it. */
  get tripleCount(): number {
    let n = 0;
    for (const [, o] of this.pairs) n += 1 + (o instanceof BlankNode ? o.tripleCount : 0);
    return n;
  }

  toString(): string {
    return `[ ${this.pairs.map(([p, o]) => `${p} ${String(o)}`).join(' ; ')} ]`;
  }
}

export type ObjectTerm = Term | BlankNode;

/** `[ p o ; ... ]` */
export function blank(...pairs: Array<readonly [Term, ObjectTerm]>): BlankNode {
  return new BlankNode(pairs);
}

const PN_PREFIX = /^([A-Za-z][A-Za-z0-9_.-]*[A-Za-z0-9_-]|[A-Za-z]?)$/;
/** ASCII subset of Turtle's PN_LOCAL: letters, digits, `_`, `-`, inner `.`; may start with a digit. */
const PN_LOCAL_ASCII = /^[A-Za-z0-9_]([A-Za-z0-9_.-]*[A-Za-z0-9_-])?$/;
const IRI_FORBIDDEN = /[\u0000-\u0020<>"{}|^`\\]/;

export function isValidPrefixName(prefix: string): boolean {
  return PN_PREFIX.test(prefix);
}

/** True when `local` can be written as a prefixed name's local part without escapes. */
export function isValidLocalName(local: string): boolean {
  return PN_LOCAL_ASCII.test(local);
}

/** `<iri>`; throws on characters Turtle does not allow in an IRIREF. */
export function iriRef(iri: string): Term {
  if (IRI_FORBIDDEN.test(iri)) throw new Error(`IRI has characters not allowed in Turtle: ${JSON.stringify(iri)}`);
  return `<${iri}>`;
}

/** Escape a string for a double-quoted Turtle literal. */
export function escapeString(value: string): string {
  let out = '';
  for (const ch of value) {
    const c = ch.codePointAt(0) as number;
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (c < 0x20 || c === 0x7f) out += `\\u${c.toString(16).toUpperCase().padStart(4, '0')}`;
    else out += ch;
  }
  return out;
}

/** `"text"` or `"text"@lang` */
export function stringLiteral(value: string, lang?: string): Term {
  if (lang !== undefined && !/^[A-Za-z]+(-[A-Za-z0-9]+)*$/.test(lang)) throw new Error(`Bad language tag: ${lang}`);
  return `"${escapeString(value)}"${lang ? `@${lang}` : ''}`;
}

/** `"lexical"^^datatype` (datatype is a term, e.g. `xsd:decimal`). */
export function typedLiteral(lexical: string, datatype: Term): Term {
  return `"${escapeString(lexical)}"^^${datatype}`;
}

/** A bare integer (xsd:integer). */
export function integerLiteral(value: number | bigint): Term {
  if (typeof value === 'number' && !Number.isSafeInteger(value)) throw new RangeError(`Not a safe integer: ${value}`);
  return String(value);
}

/** A bare boolean (xsd:boolean). */
export function booleanLiteral(value: boolean): Term {
  return value ? 'true' : 'false';
}

/** The lexical form of an xsd:decimal with a fixed number of fraction digits ("42.0"). */
export function decimalLexical(value: number, fractionDigits = 1): string {
  if (!Number.isFinite(value)) throw new RangeError(`Not a finite number: ${value}`);
  return value.toFixed(Math.max(1, fractionDigits));
}

// ---------------------------------------------------------------------------------------------------
// Writer

export type PrefixMap = Readonly<Record<string, string>>;

export interface TurtleWriterOptions {
  /** Objects of one predicate go on one line while the line stays under this width. */
  maxInlineObjectsWidth?: number;
  indent?: string;
}

export class TurtleWriter {
  private triples = 0;
  private subjects = 0;
  private open: SubjectBlock | null = null;
  readonly indent: string;
  readonly maxInlineObjectsWidth: number;

  constructor(
    private readonly sink: LineSink,
    readonly prefixes: PrefixMap,
    options: TurtleWriterOptions = {},
  ) {
    for (const [p, iri] of Object.entries(prefixes)) {
      if (!isValidPrefixName(p)) throw new Error(`Bad prefix name: ${p}`);
      iriRef(iri);
    }
    this.indent = options.indent ?? '    ';
    this.maxInlineObjectsWidth = options.maxInlineObjectsWidth ?? 100;
  }

  /** Number of triples written so far (including those inside blank nodes). */
  get tripleCount(): number {
    return this.triples;
  }

  /** Number of subject blocks written so far. */
  get subjectCount(): number {
    return this.subjects;
  }

  /** `@prefix` lines for every prefix, in the map's order, followed by an empty line. */
  writePrefixes(): void {
    for (const [p, iri] of Object.entries(this.prefixes)) this.sink.write(`@prefix ${p}: ${iriRef(iri)} .`);
    this.sink.write('');
  }

  /** `# text` (multi-line text becomes several comment lines). */
  comment(text: string): void {
    for (const line of text.split('\n')) this.sink.write(line === '' ? '#' : `# ${line}`);
  }

  blankLine(): void {
    this.sink.write('');
  }

  /** A prefixed name `prefix:local`, or the full `<iri>` when `local` is not a valid local name. */
  name(prefix: string, local: string): Term {
    const base = this.prefixes[prefix];
    if (base === undefined) throw new Error(`Unknown prefix: ${prefix}`);
    return isValidLocalName(local) ? `${prefix}:${local}` : iriRef(base + local);
  }

  /** A function making names in one namespace: `const demo = w.ns('demo'); demo('AHU-1')`. */
  ns(prefix: string): (local: string) => Term {
    return (local) => this.name(prefix, local);
  }

  /** Start a subject block; add pairs, then call end(). Only one block can be open at a time. */
  subject(subject: Term): SubjectBlock {
    if (this.open) throw new Error(`Subject block ${this.open.subject} is still open`);
    const block = new SubjectBlock(this, subject);
    this.open = block;
    return block;
  }

  /** Write one triple as its own statement. */
  triple(subject: Term, predicate: Term, object: ObjectTerm): void {
    this.subject(subject).add(predicate, object).end();
  }

  /** @internal called by SubjectBlock.end() */
  emitBlock(block: SubjectBlock, pairs: ReadonlyMap<Term, ObjectTerm[]>): void {
    if (this.open !== block) throw new Error(`Subject block ${block.subject} is not the open block`);
    this.open = null;
    if (pairs.size === 0) return;
    const entries = [...pairs.entries()];
    const lines: string[] = [];
    entries.forEach(([predicate, objects], i) => {
      const terminator = i === entries.length - 1 ? ' .' : ' ;';
      const rendered = objects.map((o) => String(o));
      for (const o of objects) this.triples += 1 + (o instanceof BlankNode ? o.tripleCount : 0);
      const lead = i === 0 ? `${block.subject} ${predicate} ` : `${this.indent}${predicate} `;
      const inline = rendered.join(', ');
      if (rendered.length === 1 || lead.length + inline.length <= this.maxInlineObjectsWidth) {
        lines.push(lead + inline + terminator);
      } else {
        lines.push(`${lead}${rendered[0]},`);
        rendered.slice(1).forEach((o, j) => {
          lines.push(`${this.indent}${this.indent}${o}${j === rendered.length - 2 ? terminator : ','}`);
        });
      }
    });
    this.subjects++;
    for (const line of lines) this.sink.write(line);
  }
}

/** The predicate-object pairs of one subject, buffered until end(). */
export class SubjectBlock {
  private readonly pairs = new Map<Term, ObjectTerm[]>();
  private readonly seen = new Map<Term, Set<string>>();
  private ended = false;

  constructor(
    private readonly writer: TurtleWriter,
    readonly subject: Term,
  ) {}

  /** `a type1, type2` */
  a(...types: Term[]): this {
    return this.add('a', ...types);
  }

  /** Add objects for a predicate; duplicates (same serialized term) are written once. */
  add(predicate: Term, ...objects: ObjectTerm[]): this {
    if (this.ended) throw new Error(`Subject block ${this.subject} has ended`);
    if (objects.length === 0) return this;
    let list = this.pairs.get(predicate);
    let seen = this.seen.get(predicate);
    if (!list || !seen) {
      list = [];
      seen = new Set();
      this.pairs.set(predicate, list);
      this.seen.set(predicate, seen);
    }
    for (const o of objects) {
      const s = String(o);
      if (!seen.has(s)) {
        seen.add(s);
        list.push(o);
      }
    }
    return this;
  }

  /** Number of objects added so far for a predicate. */
  count(predicate: Term): number {
    return this.pairs.get(predicate)?.length ?? 0;
  }

  end(): void {
    if (this.ended) throw new Error(`Subject block ${this.subject} has ended`);
    this.ended = true;
    this.writer.emitBlock(this, this.pairs);
  }
}
