import type { z } from 'zod';
import { badUserInput } from '../errors/app-error.ts';

/**
 * Validates a request body against a schema; on failure a BAD_USER_INPUT error whose details hold
 * DRF-style field errors (`{"name": ["Required."]}`; problems with the whole body under
 * `non_field_errors`).
 */
export function validateBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const fields: Record<string, string[]> = {};
  for (const issue of result.error.issues) {
    const field = issue.path.length > 0 ? issue.path.join('.') : 'non_field_errors';
    (fields[field] ??= []).push(issue.message);
  }
  throw badUserInput(`Invalid request: ${Object.keys(fields).join(', ')}.`, { fields });
}
