import { formatBytes, formatDuration, groupDigits } from './format.ts';

/** Where progress is drawn: stderr, or a stand-in in tests. */
export interface ProgressStream {
  write(text: string): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

/**
 * Upload progress on stderr. On a terminal, one bar redrawn in place at most 10 times a second
 * (`[#####-----]  45%  12.3 MiB / 27.1 MiB  8.2 MiB/s  ETA 2s`); otherwise a plain line every
 * `intervalMs`, so logs of non-interactive runs stay readable.
 */
export class UploadProgress {
  private readonly started = performance.now();
  private lastDraw = this.started;
  private bytes = 0;
  private drawn = false;

  constructor(
    private readonly out: ProgressStream,
    private readonly label: string,
    private readonly total: number,
    private readonly intervalMs = 2000,
  ) {}

  private get tty(): boolean {
    return this.out.isTTY === true;
  }

  /** Whether the progress is drawn in place (a terminal). */
  get isTty(): boolean {
    return this.tty;
  }

  /** Records `n` more bytes sent; redraws when it is time. */
  add(n: number): void {
    this.bytes += n;
    const now = performance.now();
    if (now - this.lastDraw < (this.tty ? 100 : this.intervalMs)) return;
    this.lastDraw = now;
    this.draw();
  }

  /** On a terminal, the full bar and a newline; elsewhere nothing (the caller's summary follows). */
  finish(): void {
    if (!this.tty) return;
    this.draw();
    this.out.write('\n');
  }

  /** "62.3 MiB in 1.4 s (45.0 MiB/s)": the upload so far. */
  summary(): string {
    const seconds = this.elapsedSeconds();
    return `${formatBytes(this.bytes)} in ${seconds.toFixed(1)} s (${formatBytes(seconds > 0 ? this.bytes / seconds : 0)}/s)`;
  }

  /** Clears a half-drawn bar, so an error message starts on its own line. */
  abandon(): void {
    if (this.tty && this.drawn) this.out.write('\r\x1b[2K');
  }

  /** Seconds since the start. */
  elapsedSeconds(): number {
    return (performance.now() - this.started) / 1000;
  }

  private draw(): void {
    const seconds = this.elapsedSeconds();
    const rate = seconds > 0 ? this.bytes / seconds : 0;
    const share = this.total > 0 ? Math.min(1, this.bytes / this.total) : 1;
    const percent = `${Math.floor(share * 100)}%`.padStart(4);
    const amounts = `${formatBytes(this.bytes)} / ${formatBytes(this.total)}`;
    const speed = `${formatBytes(rate)}/s`;
    this.drawn = true;
    if (!this.tty) {
      this.out.write(`uploading ${this.label}: ${percent.trim()}, ${amounts}, ${speed}\n`);
      return;
    }
    const eta =
      share < 1 && rate > 0 && seconds >= 1
        ? `  ETA ${formatDuration((this.total - this.bytes) / rate)}`
        : share < 1
          ? ''
          : `  ${formatDuration(seconds)}`;
    const tail = ` ${percent}  ${amounts}  ${speed}${eta}`;
    const width = Math.max(10, Math.min(40, (this.out.columns ?? 80) - tail.length - this.label.length - 4));
    const filled = Math.round(share * width);
    const bar = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]`;
    const label = this.label.length > 30 ? `…${this.label.slice(-29)}` : this.label;
    this.out.write(`\r\x1b[2K${label} ${bar}${tail}`);
  }
}

/** How far the service is with a document it parses (`GET …/graph/load`, GraphLoadStatus): only what the note draws. */
export interface ServiceProgress {
  readonly bytesParsed: number;
  readonly bytesTotal: number | null;
  readonly bytesPerSecond: number | null;
  readonly triplesParsed?: number | null;
  readonly triplesPerSecond?: number | null;
}

/**
 * The service's own progress after an upload, asked of it once a second by `poll` (undefined when
 * it cannot tell: an older service, another process): on a terminal a line redrawn in place
 * (`the service is parsing hq.ttl: 2,100,000 triples (151,000/s), 61%, 120 MiB / 196 MiB, 14.2 MiB/s, 9s`), otherwise a line every
 * `intervalMs`. Cleared by the returned function.
 */
export function serviceProgressNote(
  out: ProgressStream,
  label: string,
  poll: () => Promise<ServiceProgress | undefined>,
  intervalMs = 5000,
): () => void {
  const started = performance.now();
  let latest: ServiceProgress | undefined;
  let stopped = false;
  let lastLine = -Infinity;
  const text = () => {
    const elapsed = formatDuration((performance.now() - started) / 1000);
    if (!latest || latest.bytesParsed === 0) return `the service is loading ${label}… ${elapsed}`;
    const share = latest.bytesTotal
      ? `${Math.min(100, Math.floor((latest.bytesParsed / latest.bytesTotal) * 100))}%, `
      : '';
    const amounts = latest.bytesTotal
      ? `${formatBytes(latest.bytesParsed)} / ${formatBytes(latest.bytesTotal)}`
      : formatBytes(latest.bytesParsed);
    const rate = latest.bytesPerSecond ? `, ${formatBytes(latest.bytesPerSecond)}/s` : '';
    const triples = latest.triplesParsed
      ? `${groupDigits(latest.triplesParsed)} triples${latest.triplesPerSecond ? ` (${groupDigits(latest.triplesPerSecond)}/s)` : ''}, `
      : '';
    return `the service is parsing ${label}: ${triples}${share}${amounts}${rate}, ${elapsed}`;
  };
  const draw = () => {
    if (out.isTTY === true) out.write(`\r\x1b[2K${text()}`);
    else if (performance.now() - lastLine >= intervalMs) {
      lastLine = performance.now();
      out.write(`${text()}\n`);
    }
  };
  draw();
  const timer = setInterval(() => {
    void poll()
      .then(
        (progress) => (latest = progress ?? latest),
        () => undefined,
      )
      .then(() => {
        if (!stopped) draw();
      });
  }, 1000);
  return () => {
    stopped = true;
    clearInterval(timer);
    if (out.isTTY === true) out.write('\r\x1b[2K');
  };
}
