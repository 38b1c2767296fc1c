/** A Turtle or TriG prefix declaration (`@prefix ex: <…> .` or SPARQL-style `PREFIX ex: <…>`). */
const DECLARATION = /(?:^|[\s.;])(?:@prefix|PREFIX)\s+([A-Za-z][\w.-]*)?:\s*<([^<>"{}|^`\\\s]*)>/gi;

/** How much of a chunk's end is read again with the next, so a declaration cut in two is still seen. */
const CARRY = 1024;

/**
 * Collects the prefix declarations of a Turtle document as its bytes go by, without parsing it: only
 * chunks that hold "prefix" are looked at. A later declaration of a prefix wins, as in Turtle.
 * (Text inside a long string literal that reads like a declaration would be taken too: a rare
 * document's odd prefix, never a wrong triple.)
 */
export class PrefixDeclarations {
  readonly prefixes = new Map<string, string>();
  private carry = '';

  push(chunk: Buffer): void {
    const text = this.carry + chunk.toString('latin1');
    this.carry = text.slice(-CARRY);
    if (!/prefix/i.test(text)) return;
    for (const match of text.matchAll(DECLARATION)) {
      // Read as latin1 for speed; an IRI with non-ASCII characters is decoded properly here.
      this.prefixes.set(match[1] ?? '', Buffer.from(match[2]!, 'latin1').toString('utf8'));
    }
  }
}
