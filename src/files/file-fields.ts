import { z } from 'zod';
import { plainText } from '../http-kit/plain-text.ts';
import { isAbsoluteIri } from '../rdf/iri.ts';
import { SITE_ID } from '../tenants/site-directory.ts';
import { withoutBidiControls } from './file-name.ts';
import { CATEGORIES, MODEL_FORMATS } from './site-file.ts';

// Messages as Django REST framework words them, so existing clients show them unchanged.
const REQUIRED = 'This field is required.';
const maxLength = (max: number) => `Ensure this field has no more than ${max} characters.`;
const choice = (input: unknown) => `"${String(input).slice(0, 100)}" is not a valid choice.`;

/** A UUID as PostgreSQL reads one. */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

// Every text field and query-string value of files and models is plain text (src/http-kit/plain-text.ts).
const string = () => plainText({ error: (issue) => (issue.input === undefined ? REQUIRED : 'Not a valid string.') });

/** Form values are strings; an empty one means "not given" for fields that have a default. */
const emptyAsAbsent = (value: unknown) => (typeof value === 'string' && value.trim() === '' ? undefined : value);

const text = (max: number) => string().trim().max(max, maxLength(max));

const siteId = string().regex(SITE_ID, 'A site id: lowercase letters, digits and hyphens.');
const category = z.enum(CATEGORIES, { error: (issue) => (issue.input === undefined ? REQUIRED : choice(issue.input)) });
// A name of bidirectional controls only is no name: the file part's name (or the stored one) stays.
const name = z.preprocess(
  (value) => emptyAsAbsent(typeof value === 'string' ? withoutBidiControls(value) : value),
  text(255).optional(),
);
const entityUri = text(511).refine(
  (value) => value === '' || isAbsoluteIri(value),
  'Enter an absolute IRI (the graph entity the file documents).',
);
const storey = text(255);
const sortOrder = z.preprocess(
  (value) => (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : emptyAsAbsent(value)),
  z
    .number({ error: 'A valid integer is required.' })
    // The range first, and alone: a number past it (1e20) is an integer too big, not "not an integer".
    .min(0, { error: 'Ensure this value is greater than or equal to 0.', abort: true })
    .max(2_147_483_647, { error: 'Ensure this value is less than or equal to 2147483647.', abort: true })
    .int('A valid integer is required.')
    .optional(),
);
const sourceIfc = string()
  .trim()
  .refine((value) => value === '' || UUID.test(value), 'Must be a valid UUID.')
  .transform((value) => (value === '' ? null : value.toLowerCase()));
const format = z.preprocess(emptyAsAbsent, z.enum(MODEL_FORMATS, { error: (issue) => choice(issue.input) }).optional());

/** The text fields of `POST /api/files/` (the file part is checked beside them). */
export const createFileFields = z.object({
  site_id: siteId,
  category,
  name,
  entity_uri: entityUri.optional(),
  storey: storey.optional(),
  sort_order: sortOrder,
  source_ifc: sourceIfc.optional(),
  format,
});

/** The text fields of `PUT /api/files/{id}/`: all optional, absent ones keep their value. */
export const updateFileFields = createFileFields.partial();

export type CreateFileFields = z.infer<typeof createFileFields>;
export type UpdateFileFields = z.infer<typeof updateFileFields>;

const positiveInt = (what: string) =>
  string()
    .regex(/^\d+$/, `A valid ${what} is required.`)
    .transform(Number)
    .refine((value) => Number.isSafeInteger(value), `A valid ${what} is required.`);

/** Largest page of the file list; larger `limit`s are cut to it (as DRF's max_limit does). */
export const MAX_PAGE_SIZE = 1000;

/** The query of `GET /api/files/`. */
export const listFilesQuery = z.object({
  site_id: string().optional(),
  category: category.optional(),
  entity_uri: string().optional(),
  limit: positiveInt('integer')
    .refine((value) => value > 0, 'Ensure this value is greater than 0.')
    .transform((value) => Math.min(value, MAX_PAGE_SIZE))
    .optional(),
  offset: positiveInt('integer').optional(),
});

/** The query of `GET /api/v1/sites/{siteId}/models`. */
export const listModelsQuery = z.object({
  file_format: z
    .enum(MODEL_FORMATS, { error: (issue) => `${choice(issue.input)} Allowed values: ${MODEL_FORMATS.join(', ')}.` })
    .optional(),
  storey: string().optional(),
});

/** Largest page of a model's element list; larger `limit`s are cut to it. */
export const MAX_ELEMENT_PAGE_SIZE = 10_000;

/** The query of `GET /api/v1/sites/{siteId}/models/{modelId}/elements`: one element by GlobalId, or a page (of one storey). */
export const listElementsQuery = z.object({
  ifcId: string().min(1, 'This field may not be blank.').max(64, maxLength(64)).optional(),
  storey: string().optional(),
  limit: positiveInt('integer')
    .refine((value) => value > 0, 'Ensure this value is greater than 0.')
    .transform((value) => Math.min(value, MAX_ELEMENT_PAGE_SIZE))
    .optional(),
  offset: positiveInt('integer').optional(),
});
