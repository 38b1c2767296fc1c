import { NestingScanner, startsCharacter } from './nesting-scanner.ts';

const enum State {
  Default,
  String,
  Escape,
}

/** Nesting of JSON's objects and arrays (`{ }`, `[ ]`), strings ("…" with `\` escapes) skipped. */
export class JsonNestingScanner extends NestingScanner {
  private state = State.Default;

  constructor(syntax: string, limit: number) {
    super(syntax, limit, '{ } or [ ]');
  }

  override push(chunk: Uint8Array): void {
    const { limit } = this;
    let { state, depth, line, column } = this;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]!;
      if (b === 0x0a) {
        line++;
        column = 0;
      } else if (startsCharacter(b)) column++;

      if (state === State.String) {
        if (b === 0x22) state = State.Default;
        else if (b === 0x5c) state = State.Escape;
      } else if (state === State.Escape) {
        state = State.String;
      } else if (b === 0x22) {
        state = State.String;
      } else if (b === 0x7b || b === 0x5b) {
        if (++depth > limit) throw this.tooDeep(line, column);
      } else if ((b === 0x7d || b === 0x5d) && depth > 0) {
        depth--;
      }
    }
    this.state = state;
    this.depth = depth;
    this.line = line;
    this.column = column;
  }
}
