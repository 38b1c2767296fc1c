/**
 * The one rule for text a client sends (body fields, form fields, query-string values, reading
 * ids): no character that cannot be stored or shown as it was sent.
 *
 * - U+0000: PostgreSQL refuses it in text, so it would fail the whole statement (a 500, and a
 *   whole batch of readings lost for one bad item).
 * - Unpaired surrogates: UTF-8 cannot encode them; the database driver would silently store
 *   U+FFFD instead, so what is read back is not what was sent.
 * - Unicode non-characters (U+FDD0…U+FDEF and the last two code points of every plane, U+FFFE,
 *   U+FFFF included): reserved by Unicode as never interchanged.
 * - The other C0 and C1 controls, and DEL: they have no meaning in a name, an address or an id,
 *   they are invisible (two names that look the same would differ), XML 1.0 forbids most of them,
 *   and ESC or CSI sequences rewrite the terminals that show logs. Tab, line feed and carriage
 *   return stay allowed: an address or a note may span lines.
 */
import { z } from 'zod';

// Compiled once: this runs on every text field of every request.
const NOT_PLAIN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\p{Cs}\p{Noncharacter_Code_Point}]/u;

const codePoint = (char: string) => `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;

/** Why `text` may not be stored (naming the first offending character and its index), or undefined when it may. */
export function plainTextProblem(text: string): string | undefined {
  const found = NOT_PLAIN.exec(text);
  if (!found) return undefined;
  return `Contains ${codePoint(found[0])} at index ${found.index}; text may not hold control characters (other than tab, line feed and carriage return), unpaired surrogates or Unicode non-characters.`;
}

/** `z.string(params)` that refuses what `plainTextProblem` refuses; chain `.trim()`, `.max()` … as on any string. */
export function plainText(params?: Parameters<typeof z.string>[0]): z.ZodString {
  return z.string(params).refine((text) => plainTextProblem(text) === undefined, {
    error: (issue) => plainTextProblem(issue.input as string),
  });
}
