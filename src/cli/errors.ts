/** Errors the CLI reports as one line on stderr, each with its exit code. */
export abstract class CliError extends Error {
  abstract readonly exitCode: number;
}

/** The command line itself is wrong: an unknown command or option, a missing argument. Exit 1. */
export class UsageError extends CliError {
  readonly exitCode = 1;
  /** The command whose help the message points to (`bkg sites create --help`), if any. */
  constructor(
    message: string,
    readonly helpFor?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Anything else that stops a command before or after the service answered (an unreadable file). Exit 1. */
export class CommandError extends CliError {
  readonly exitCode = 1;
  constructor(message: string) {
    super(message);
    this.name = 'CommandError';
  }
}

/** The service answered with an error status. Exit 1. */
export class ApiError extends CliError {
  readonly exitCode = 1;
  constructor(
    readonly status: number,
    message: string,
    /** The parsed JSON body, when there was one. */
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** No answer from the service: refused, unknown host, timed out, reset. Exit 2. */
export class UnreachableError extends CliError {
  readonly exitCode = 2;
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`Cannot reach the service at ${url} (${reason}). Is it running? Set --url or BKG_URL.`);
    this.name = 'UnreachableError';
  }
}

/**
 * The one line shown for an error body: DRF-style field errors (`{"id": ["A slug…"]}`) as
 * `id: A slug…; name: …`, or `detail`; anything else by its status.
 */
export function describeErrorBody(status: number, statusText: string, body: unknown, text: string): string {
  const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim();
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const record = body as Record<string, unknown>;
    if (typeof record.detail === 'string') return oneLine(record.detail);
    const fields = Object.entries(record).filter(([, v]) => Array.isArray(v) || typeof v === 'string');
    if (fields.length > 0) {
      // Each message is a sentence ("This field is required."): fields follow one another as sentences.
      const sentence = (m: unknown) => {
        const text = oneLine(String(m));
        return /[.!?]$/.test(text) ? text : `${text}.`;
      };
      return fields
        .map(([field, messages]) => {
          const text = (Array.isArray(messages) ? messages : [messages]).map(sentence).join(' ');
          return field === 'non_field_errors' ? text : `${field}: ${text}`;
        })
        .join(' ');
    }
  }
  if (Array.isArray(body) && body.length > 0) return body.map((m) => oneLine(String(m))).join('; ');
  const snippet = oneLine(text).slice(0, 200);
  return snippet && !snippet.startsWith('<')
    ? `${statusText || `HTTP ${status}`}: ${snippet}`
    : statusText || `HTTP ${status}`;
}
