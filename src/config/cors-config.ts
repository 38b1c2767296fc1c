/** Which web pages on other origins may call the service from a browser. */
export interface CorsConfig {
  /**
   * `*`: any origin, without credentials (the default). Otherwise only these origins
   * (`scheme://host[:port]`, as browsers send them), and they may send credentials.
   */
  readonly origins: '*' | readonly string[];
}

/** An origin as browsers write it in `Origin`, from an operator's spelling of one; undefined if it is not one. */
function originOf(text: string): string | undefined {
  try {
    const url = new URL(text);
    const bare =
      url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === '';
    return bare && (url.protocol === 'https:' || url.protocol === 'http:') ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

/** `BKG_CORS_ORIGINS`: unset, empty or `*` for any origin without credentials, or a comma-separated list of origins. */
export function corsConfig(env: Record<string, string | undefined>, problems: string[]): CorsConfig {
  const raw = env.BKG_CORS_ORIGINS?.trim() ?? '';
  if (raw === '' || raw === '*') return Object.freeze({ origins: '*' });
  const origins: string[] = [];
  for (const item of raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '')) {
    const origin = originOf(item);
    if (origin) origins.push(origin);
    else
      problems.push(
        `BKG_CORS_ORIGINS must be "*" or a comma-separated list of origins such as https://app.example.com (http or https, a host, an optional port, no path), got "${item}"`,
      );
  }
  return Object.freeze({ origins: Object.freeze(origins) });
}
