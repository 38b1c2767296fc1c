import { z } from 'zod';
import { newKeySchema } from '../../keys/new-key-schema.ts';
import { createdKey, keyRecord } from '../response-schemas.ts';
import { json, errors, TAGS, type PathRegistrar } from '../openapi-kit.ts';

/** The Keys paths. */
export function keysPaths(path: PathRegistrar): void {
  path({
    method: 'post',
    path: '/api/v1/keys/',
    tags: [TAGS.keys],
    summary: 'Create an API key (admin); the secret is in the answer, once',
    request: {
      body: { required: true, content: { 'application/json': { schema: newKeySchema.meta({ id: 'NewApiKey' }) } } },
    },
    responses: { 201: json(createdKey, 'The key and its secret.'), ...errors(400, 403) },
  });
  path({
    method: 'get',
    path: '/api/v1/keys/',
    tags: [TAGS.keys],
    summary: 'List API keys (admin), never their secrets',
    responses: { 200: json(z.array(keyRecord), 'The keys.'), ...errors(403) },
  });
  path({
    method: 'delete',
    path: '/api/v1/keys/{keyId}',
    tags: [TAGS.keys],
    summary: 'Revoke an API key (admin), at once',
    request: { params: z.object({ keyId: z.string().meta({ format: 'uuid' }) }) },
    responses: { 204: { description: 'Revoked.' }, ...errors(403, 404) },
  });
}
