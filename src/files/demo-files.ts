import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { DEMO_SITE } from '../auth/client.ts';
import { formatFromName } from './file-format.ts';
import { CATEGORIES, MODEL_FORMATS, type StoredFile } from './site-file.ts';
import type { NewFileFields, SiteFiles } from './site-files.ts';

const manifestSchema = z.object({
  files: z.array(
    z.object({
      id: z.uuid(),
      path: z.string().regex(/^[a-z0-9][a-z0-9._-]*$/),
      name: z.string().min(1).max(255),
      category: z.enum(CATEGORIES),
      entity_uri: z.string().max(511).default(''),
      content_type: z.string().min(1).max(127),
      format: z.enum(MODEL_FORMATS).nullable().optional(),
      storey: z.string().max(255).default(''),
      sort_order: z.number().int().min(0).default(0),
      source_ifc: z.uuid().nullable().default(null),
    }),
  ),
});

type ManifestEntry = z.infer<typeof manifestSchema>['files'][number];

async function sha256Of(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

const fieldsOf = (entry: ManifestEntry, format: NewFileFields['format']): NewFileFields => ({
  site: DEMO_SITE,
  category: entry.category,
  name: entry.name,
  entity_uri: entry.entity_uri,
  content_type: entry.content_type,
  format,
  storey: entry.storey,
  sort_order: entry.sort_order,
  source_ifc: entry.source_ifc,
});

const unchanged = (file: StoredFile, fields: NewFileFields, sha256: string): boolean =>
  file.site === fields.site &&
  file.sha256 === sha256 &&
  (Object.keys(fields) as (keyof NewFileFields)[]).every((key) => file[key] === fields[key]);

/**
 * Restores the demo site's files to `<dir>/manifest.json`: files it lists get their recorded
 * ids, fields and bytes back (bytes re-stored only when they differ or are gone), any other demo
 * file is deleted, but for the fragments files the service made from them. A file's format is the
 * manifest's, else its name's extension.
 */
export function demoFilesRestorer(files: SiteFiles, dir: string): () => Promise<void> {
  return async () => {
    const manifest = manifestSchema.parse(JSON.parse(await readFile(join(dir, 'manifest.json'), 'utf8')));
    const wanted = new Set(manifest.files.map((entry) => entry.id));
    for (const file of await files.list({ sites: [DEMO_SITE] })) {
      // The fragments file made from a manifest IFC file stays: it is made again only when the IFC changes.
      if (!wanted.has(file.id) && !(file.generated_from !== null && wanted.has(file.generated_from)))
        await files.delete(file.id);
    }
    for (const entry of manifest.files) {
      const path = join(dir, entry.path);
      const fields = fieldsOf(entry, entry.format === undefined ? formatFromName(entry.name) : entry.format);
      const sha256 = await sha256Of(path);
      const existing = await files.get(entry.id);
      if (
        existing &&
        unchanged(existing, fields, sha256) &&
        (await files.blobs.stat(existing.blob_key))?.size === existing.size_bytes
      )
        continue;
      const key = files.newBlobKey();
      const stored = await files.blobs.put(key, createReadStream(path), { contentType: entry.content_type });
      const upload = { key, ...stored };
      if (existing) await files.update(entry.id, fields, upload);
      else await files.create(fields, upload, entry.id);
    }
  };
}
