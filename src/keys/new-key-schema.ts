import { z } from 'zod';
import { plainText } from '../http-kit/plain-text.ts';
import { SITE_ID } from '../tenants/site-directory.ts';

/** The body of `POST /api/v1/keys/`. */
export const newKeySchema = z.object({
  name: plainText({ error: 'This field is required.' })
    .trim()
    .min(1, 'This field may not be blank.')
    .max(255, 'At most 255 characters.'),
  sites: z.union([z.literal('*'), z.array(z.string().regex(SITE_ID, 'A site id.')).max(10_000)], {
    error: 'A list of site ids, or "*" for all sites.',
  }),
  write: z.boolean().default(false),
  admin: z.boolean().default(false),
});
