/** Start-up could not complete: one line per problem, each naming what failed and why. */
export class StartupError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`Start-up failed:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'StartupError';
  }
}

/** An error and its causes on one line ("Redis is unavailable: connect ECONNREFUSED 127.0.0.1:6379"). */
export function describeFailure(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  while (current !== undefined && parts.length < 4) {
    const message = current instanceof Error ? current.message || current.name : String(current);
    const line = message.replace(/\s+/g, ' ').trim();
    if (line && !parts.some((part) => part.includes(line))) parts.push(line.replace(/\.$/, ''));
    current = current instanceof Error ? current.cause : undefined;
  }
  return parts.join(': ') || 'unknown error';
}
