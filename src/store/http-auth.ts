/**
 * Credentials for the SPARQL endpoint: HTTP Basic, or Digest (RFC 7616: MD5, SHA-256 and their
 * `-sess` variants, `qop=auth`). Digest is written here rather than taken from a package: the
 * maintained ones wrap a particular client (fetch, axios) where the store uses undici's
 * dispatcher, and the part needed is a few hashes.
 */
import { createHash, randomBytes } from 'node:crypto';

export interface Credentials {
  readonly user: string;
  readonly password: string;
  readonly scheme: 'basic' | 'digest';
}

interface Challenge {
  readonly realm: string;
  readonly nonce: string;
  readonly opaque: string | undefined;
  readonly algorithm: string;
  readonly qop: string | undefined;
}

const hashOf: Record<string, string> = { MD5: 'md5', 'MD5-SESS': 'md5', 'SHA-256': 'sha256', 'SHA-256-SESS': 'sha256' };

/** The parameters of a `Digest` challenge in a WWW-Authenticate header, or undefined. */
export function parseDigestChallenge(header: string): Challenge | undefined {
  const at = header.search(/digest\s/i);
  if (at < 0) return undefined;
  const params = new Map<string, string>();
  const pattern = /([a-z0-9_-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,]+))/gi;
  for (const match of header.slice(at + 7).matchAll(pattern)) {
    params.set(match[1]!.toLowerCase(), match[2] !== undefined ? match[2].replace(/\\(.)/g, '$1') : match[3]!);
  }
  const nonce = params.get('nonce');
  if (nonce === undefined) return undefined;
  const algorithm = (params.get('algorithm') ?? 'MD5').toUpperCase();
  if (!(algorithm in hashOf)) return undefined;
  const qops = params
    .get('qop')
    ?.split(',')
    .map((q) => q.trim());
  return {
    realm: params.get('realm') ?? '',
    nonce,
    opaque: params.get('opaque'),
    algorithm,
    qop: qops?.includes('auth') ? 'auth' : undefined,
  };
}

const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

/** Computes Authorization headers for one endpoint; a Digest challenge is kept and reused. */
export class HttpAuth {
  private challenge: Challenge | undefined;
  private count = 0;

  constructor(private readonly credentials: Credentials) {}

  /** The Authorization header for a request, or undefined while Digest has no challenge yet. */
  header(method: string, url: URL): string | undefined {
    const { user, password, scheme } = this.credentials;
    if (scheme === 'basic') return `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    const c = this.challenge;
    if (!c) return undefined;
    const h = (text: string) => createHash(hashOf[c.algorithm]!).update(text).digest('hex');
    const uri = url.pathname + url.search;
    const cnonce = randomBytes(12).toString('hex');
    const nc = (++this.count).toString(16).padStart(8, '0');
    let ha1 = h(`${user}:${c.realm}:${password}`);
    if (c.algorithm.endsWith('-SESS')) ha1 = h(`${ha1}:${c.nonce}:${cnonce}`);
    const ha2 = h(`${method}:${uri}`);
    const response = c.qop ? h(`${ha1}:${c.nonce}:${nc}:${cnonce}:${c.qop}:${ha2}`) : h(`${ha1}:${c.nonce}:${ha2}`);
    const parts = [
      `username=${quoted(user)}`,
      `realm=${quoted(c.realm)}`,
      `nonce=${quoted(c.nonce)}`,
      `uri=${quoted(uri)}`,
      `algorithm=${c.algorithm}`,
      `response=${quoted(response)}`,
    ];
    if (c.qop) parts.push(`qop=${c.qop}`, `nc=${nc}`, `cnonce=${quoted(cnonce)}`);
    if (c.opaque !== undefined) parts.push(`opaque=${quoted(c.opaque)}`);
    return `Digest ${parts.join(', ')}`;
  }

  /**
   * Takes the WWW-Authenticate header of a 401; true when a retry can succeed (a first or a
   * stale Digest challenge), false when the credentials themselves were refused.
   */
  accept(wwwAuthenticate: string | undefined, hadAuthorization: boolean): boolean {
    if (this.credentials.scheme !== 'digest' || !wwwAuthenticate) return false;
    const challenge = parseDigestChallenge(wwwAuthenticate);
    if (!challenge) return false;
    const stale = /stale\s*=\s*"?true/i.test(wwwAuthenticate);
    this.challenge = challenge;
    this.count = 0;
    return !hadAuthorization || stale;
  }
}
