/**
 * Progress lines for long-running generators: "N triples written, R triples/s", at most once per
 * interval, so a 5M-triple run tells where it is without flooding stderr.
 */
import { groupDigits } from './counts.ts';

export class TripleProgress {
  private readonly started = performance.now();
  private lastReport = this.started;

  constructor(
    private readonly log: (message: string) => void,
    /** Total expected, when known (adds a percentage). */
    private readonly target?: number,
    private readonly intervalMs = 1000,
  ) {}

  /** Milliseconds since construction. */
  elapsedMs(): number {
    return performance.now() - this.started;
  }

  /** Reports `triples` written so far if the interval has passed (or `force`). */
  update(triples: number, detail = '', force = false): void {
    const now = performance.now();
    if (!force && now - this.lastReport < this.intervalMs) return;
    this.lastReport = now;
    this.log(this.line(triples, detail));
  }

  /** The summary line for the whole run. */
  line(triples: number, detail = ''): string {
    const seconds = this.elapsedMs() / 1000;
    const rate = seconds > 0 ? triples / seconds : 0;
    const share = this.target ? ` (${((100 * triples) / this.target).toFixed(0)}%)` : '';
    return `${groupDigits(triples)} triples written${share}, ${groupDigits(rate)} triples/s, ${seconds.toFixed(1)} s${detail ? `, ${detail}` : ''}`;
  }
}
