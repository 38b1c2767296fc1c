// Checks answers of the running service against its OpenAPI document: the operation is documented,
// the status is one of its responses, and a JSON body validates against that response's schema.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { expect } from 'vitest';
import { openApiDocument } from '../../src/openapi/openapi-document.ts';

type Document = ReturnType<typeof openApiDocument>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A validator for one document: `check(method, path, response)` asserts the answer is documented and fits. */
export function openApiChecker(document: Document = openApiDocument()) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addFormat('uuid', UUID);
  ajv.addFormat('binary', true);
  ajv.addSchema(document as object, 'openapi.json');
  const templates = Object.keys(document.paths ?? {}).map((template) => ({
    template,
    regexp: new RegExp(`^${template.replace(/\/$/, '').replace(/\{\w+\}/g, '[^/]+')}/?$`),
  }));

  /** The documented path template a request path falls under (site paths without `v1` count as their `v1` form). */
  const templateOf = (path: string): string | undefined => {
    const canonical = path.split('?')[0]!.replace(/^\/api\/sites(\/|$)/, '/api/v1/sites$1');
    return templates.find(({ regexp }) => regexp.test(canonical))?.template;
  };

  return {
    templateOf,
    /** Asserts that the answer to `method path` is documented, with this status, and that its JSON body fits the schema. */
    async check(method: string, path: string, response: Response): Promise<unknown> {
      const template = templateOf(path);
      expect(template, `${method} ${path} is not in the OpenAPI document`).toBeDefined();
      const operation = (
        document.paths as Record<
          string,
          Record<string, { responses: Record<string, { content?: Record<string, unknown> }> }>
        >
      )[template!]![method.toLowerCase()];
      expect(operation, `${method} ${template} is not documented`).toBeDefined();
      const documented = operation!.responses[String(response.status)];
      expect(documented, `${method} ${template} answered ${response.status}, which is not documented`).toBeDefined();
      const type = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
      if (response.status === 204 || response.status === 304) return undefined;
      const types = Object.keys(documented!.content ?? {});
      if (!types.includes('*/*'))
        expect(types, `${method} ${template} ${response.status}: ${type} is not a documented media type`).toContain(
          type,
        );
      if (type !== 'application/json') return response.text();
      const body: unknown = await response.json();
      const pointer = [
        'paths',
        template!,
        method.toLowerCase(),
        'responses',
        String(response.status),
        'content',
        type,
        'schema',
      ]
        .map((part) => part.replace(/~/g, '~0').replace(/\//g, '~1'))
        .join('/');
      const validate = ajv.getSchema(`openapi.json#/${pointer}`) ?? ajv.compile({ $ref: `openapi.json#/${pointer}` });
      expect(
        validate(body),
        `${method} ${path} ${response.status}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 500)}`,
      ).toBe(true);
      return body;
    },
  };
}
