/** What an IRI must be to be written into SPARQL: IRIREF's characters and RFC 3987's grammar. */
// IRIREF forbids these characters outright (escapes are not allowed in IRIs).
const IRI_FORBIDDEN = /[\u0000-\u0020<>"{}|^`\\]/;
const ABSOLUTE_IRI = /^[A-Za-z][A-Za-z0-9+.-]*:/;

// Characters RFC 3987 does not allow anywhere in an IRI: DEL and C1 controls, non-characters, private use.
const IRI_NOT_ALLOWED = /[\u007f-\u009f\ufdd0-\ufdef\ufffe\uffff\ue000-\uf8ff]/;
const BAD_PERCENT = /%(?![0-9A-Fa-f]{2})/;

/** RFC 3987 `ucschar` for non-ASCII code points (private use, allowed only in queries, is refused outright). */
function isIriChar(cp: number): boolean {
  if (cp < 0x80) return true;
  if (cp >= 0xa0 && cp <= 0xd7ff) return true;
  if ((cp >= 0xf900 && cp <= 0xfdcf) || (cp >= 0xfdf0 && cp <= 0xffef)) return true;
  return cp >= 0x10000 && cp <= 0xefffd && (cp & 0xffff) <= 0xfffd && !(cp >= 0xe0000 && cp <= 0xe0fff);
}

/** True when the string is an absolute IRI a SPARQL parser accepts (IRIREF's characters and RFC 3987's grammar). */
export function isAbsoluteIri(value: string): boolean {
  if (!ABSOLUTE_IRI.test(value) || IRI_FORBIDDEN.test(value) || IRI_NOT_ALLOWED.test(value) || BAD_PERCENT.test(value))
    return false;
  for (const char of value) if (!isIriChar(char.codePointAt(0)!)) return false;
  if (value.indexOf('#') !== value.lastIndexOf('#')) return false;
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(value)?.[1];
  const rest = authority === undefined ? value : value.slice(value.indexOf('//') + 2 + authority.length);
  if (/[[\]]/.test(rest)) return false;
  if (authority !== undefined) {
    const host = authority.slice(authority.lastIndexOf('@') + 1);
    const ipLiteral = /^\[[0-9A-Fa-f:.]+\](?::(\d*))?$/.exec(host);
    if (!ipLiteral) {
      if (/[[\]]/.test(host)) return false;
      const port = host.includes(':') ? host.slice(host.lastIndexOf(':') + 1) : '';
      if (!/^\d*$/.test(port)) return false;
    }
  }
  return true;
}
