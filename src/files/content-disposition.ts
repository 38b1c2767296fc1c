import { withoutBidiControls } from './file-name.ts';

/**
 * `attachment` with the file name twice (RFC 6266): `filename` as a plain-ASCII fallback and
 * `filename*` as UTF-8 (RFC 8187), which every current browser prefers.
 */
export function attachmentDisposition(name: string): string {
  // Path separators and control characters never belong in a saved file's name; nor bidirectional
  // controls, which a name stored before they were removed on upload may still hold.
  const safe = withoutBidiControls(name).replace(/[\u0000-\u001f\u007f/\\]/g, '_');
  const fallback = safe.replace(/[^\x20-\x7e]|["%]/g, '_');
  const encoded = encodeURIComponent(safe).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
