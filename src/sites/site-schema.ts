import { z } from 'zod';
import { plainText } from '../http-kit/plain-text.ts';
import { SITE_ID } from '../tenants/site-directory.ts';

const timeZones = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC', 'Etc/UTC']);

/** Whether a name is an IANA time zone (canonical names, and the aliases ICU accepts). */
export function isTimeZone(name: string): boolean {
  if (timeZones.has(name)) return true;
  if (!/^[A-Za-z_]+(\/[A-Za-z0-9_+-]+)+$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const text = (max: number) =>
  plainText()
    .trim()
    .max(max, `At most ${max} characters.`)
    .nullish()
    .transform((v) => v || null);

/** The body of `POST /api/v1/sites/`. */
export const newSiteSchema = z.object({
  id: z
    .string({ error: 'This field is required.' })
    .regex(
      SITE_ID,
      'A slug: lowercase letters, digits and hyphens, 1 to 64 characters, starting and ending with a letter or digit.',
    ),
  name: plainText({ error: 'This field is required.' })
    .trim()
    .min(1, 'This field may not be blank.')
    .max(255, 'At most 255 characters.'),
  organization: text(255),
  address: text(511),
  city: text(255),
  country: text(255),
  country_code: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'An ISO 3166-1 alpha-2 code, e.g. "DE".')
    .transform((v) => v.toUpperCase())
    .nullish()
    .transform((v) => v ?? null),
  latitude: z
    .number()
    .min(-90, 'From -90 to 90.')
    .max(90, 'From -90 to 90.')
    .nullish()
    .transform((v) => v ?? null),
  longitude: z
    .number()
    .min(-180, 'From -180 to 180.')
    .max(180, 'From -180 to 180.')
    .nullish()
    .transform((v) => v ?? null),
  timezone: z
    .string()
    .refine(isTimeZone, 'An IANA time zone name, e.g. "Europe/Berlin".')
    .nullish()
    .transform((v) => v ?? 'UTC'),
});

/**
 * The body of `PATCH /api/v1/sites/{id}`: any of the descriptive fields, checked as on create; absent
 * ones keep their value, `null` clears an optional one (and sets the time zone back to UTC). The id
 * cannot change (it names the graph, the files and the readings): an `id` key is refused, not ignored.
 */
export const siteChangesSchema = newSiteSchema.omit({ id: true }).partial().strict();

export type SiteChanges = z.infer<typeof siteChangesSchema>;
