import { Router } from 'express';
import { notFound } from '../errors/app-error.ts';
import { validateBody } from '../http-kit/validate-body.ts';
import { requireAdmin, requireCredentials } from '../tenants/site-access.ts';
import type { KeyStore } from '../auth/key-store.ts';
import { jsonBody } from '../http-kit/json-body.ts';
import { newKeySchema } from './new-key-schema.ts';

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
