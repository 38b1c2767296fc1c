import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { S3Config } from '../../../src/config/config.ts';
import type { Harness } from '../../support/harness.ts';
import type { Variant } from '../../support/needs.ts';
import { dropBucket, listKeys, s3Config, s3Env } from './s3-support.ts';

/** A small building for the sites the file tests use. */
export const SITE_TTL = `@prefix brick: <https://brickschema.org/schema/Brick#> .
@prefix ex: <https://example.org/hq#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
ex:AHU-1 a brick:AHU ; rdfs:label "AHU-1" .
`;

/** One BlobStore the service can run on, as the environment that selects it. */
export interface StoreVariant extends Variant {
  readonly kind: 'local' | 's3';
  /** The service's environment for this store, with its data in `dataDir`. */
  env(dataDir: string): Record<string, string>;
  /** Every blob key the store holds (straight from the disk or the bucket). */
  keys(dataDir: string): Promise<string[]>;
  teardown(): Promise<void>;
}

const local: StoreVariant = {
  name: 'the local disk',
  kind: 'local',
  env: (dataDir) => ({ BKG_DATA_DIR: dataDir }),
  keys: async (dataDir) =>
    (await readdir(join(dataDir, 'blobs', 'files')).catch(() => [] as string[])).map((name) => `files/${name}`).sort(),
  teardown: async () => {},
};

function s3Variant(): StoreVariant {
  const config: S3Config = s3Config();
  return {
    name: 'S3',
    kind: 's3',
    needs: ['S3_ENDPOINT'],
    env: (dataDir) => ({ BKG_DATA_DIR: dataDir, ...s3Env(config) }),
    keys: () => listKeys(config),
    teardown: () => dropBucket(config),
  };
}

/** The local disk, and S3 (needs S3_ENDPOINT): for describeVariants. */
export const storeVariants = (): StoreVariant[] => [local, s3Variant()];

/** Sends a multipart form as a browser does: FormData through fetch, the file as a File. */
export function postForm(
  h: Harness,
  path: string,
  fields: Record<string, string | Blob>,
  init: { method?: string; token?: string | null } = {},
): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const method = init.method ?? 'POST';
  if (init.token === null) return fetch(h.url + path, { method, body: form });
  return h.fetch(path, {
    method,
    body: form,
    headers: init.token === undefined ? {} : { authorization: `Bearer ${init.token}` },
  });
}

/** A File with `content`, named and typed as a browser would send it. */
export const file = (content: string | Uint8Array, name: string, type = 'application/octet-stream') =>
  new File([content as BlobPart], name, { type });
