/** What the command-line client (src/cli/) reads of its environment, parsed in one place. */
export interface CliConfig {
  /** The service's base URL (`BKG_URL`); unset: the client's default. */
  readonly url: string | undefined;
  /** The bearer token (`BKG_TOKEN`, else `BKG_ADMIN_KEY`). */
  readonly token: string | undefined;
  /** Print the stack trace of an unexpected error (`BKG_DEBUG`). */
  readonly debug: boolean;
}

/** The CLI's settings from its environment. */
export function cliConfig(env: Readonly<Record<string, string | undefined>>): CliConfig {
  return {
    url: env.BKG_URL || undefined,
    token: env.BKG_TOKEN || env.BKG_ADMIN_KEY || undefined,
    debug: Boolean(env.BKG_DEBUG),
  };
}
