import { Router } from 'express';
import { z } from 'zod';
import { notFound } from '../errors/app-error.ts';
import { plainText } from '../http-kit/plain-text.ts';
import { validateBody } from '../http-kit/validate-body.ts';
import { SITE_ID } from './site-directory.ts';
import { requireAdmin, requireCredentials } from './site-access.ts';
import type { KeyStore } from '../auth/key-store.ts';
import { jsonBody } from '../http-kit/json-body.ts';

/** The body of `POST /api/v1/keys/`. */
export const newKeySchema = z.object({
  name: plainText({ error: 'This field is required.' }).trim().min(1, 'This field may not be blank.').max(255, 'At most 255 characters.'),
  sites: z.union([z.literal('*'), z.array(z.string().regex(SITE_ID, 'A site id.')).max(10_000)], {
    error: 'A list of site ids, or "*" for all sites.',
  }),
  write: z.boolean().default(false),
  admin: z.boolean().default(false),
});

/** `/keys/`: create (the secret is in the answer, once), list, revoke. Admins only. */
export function keysRoutes(keys: KeyStore): Router {
  const router = Router();
  router.use(jsonBody('256kb'));
  router.use((req, _res, next) => {
    requireCredentials(req.client);
    requireAdmin(req.client);
    next();
  });

  router.post('/', async (req, res) => {
    const input = validateBody(newKeySchema, req.body);
    const { record, secret } = await keys.create(input);
    res.status(201).json({ ...record, key: secret });
  });

  router.get('/', async (_req, res) => {
    res.json(await keys.list());
  });

  router.delete('/:keyId', async (req, res) => {
    if (!(await keys.revoke(req.params.keyId))) throw notFound(`Key "${req.params.keyId.slice(0, 100)}" not found.`);
    res.status(204).end();
  });
  return router;
}
