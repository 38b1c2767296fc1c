// Every text argument of the schema that filters has its limit in the one table, and the refusal
// names the argument and the limit.
import { buildSchema, getNamedType, isObjectType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { checkFilterText, FILTER_TEXT_LIMITS, MAX_NAME_LENGTH } from '../../../src/compiler/filter-text-limits.ts';
import { AppError } from '../../../src/errors/app-error.ts';
import { publishedSchema } from '../../../src/graphql/published-schema.ts';

describe('filter text limits', () => {
  it('cover every String argument of the schema but siteId (a slug, checked against the site directory)', () => {
    const schema = buildSchema(publishedSchema());
    const unbounded = new Set<string>();
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__')) continue;
      for (const field of Object.values(type.getFields())) {
        for (const arg of field.args) {
          if (getNamedType(arg.type).name !== 'String' || arg.name === 'siteId') continue;
          if (!Object.hasOwn(FILTER_TEXT_LIMITS, arg.name)) unbounded.add(`${type.name}.${field.name}(${arg.name})`);
        }
      }
    }
    expect([...unbounded]).toEqual([]);
  });

  it('refuse text over the limit as BAD_USER_INPUT naming the argument and the limit; text at it passes', () => {
    expect(() => checkFilterText('name', 'a'.repeat(MAX_NAME_LENGTH))).not.toThrow();
    const refused = (() => {
      try {
        checkFilterText('name', 'a'.repeat(MAX_NAME_LENGTH + 1), 'locationName');
      } catch (error) {
        return error;
      }
    })() as AppError;
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      code: 'BAD_USER_INPUT',
      status: 400,
      details: { argument: 'locationName', maxLength: MAX_NAME_LENGTH },
    });
    expect(refused.message).toContain('"locationName"');
    expect(refused.message).toContain('1,000');
  });

  it('check each text of a list', () => {
    expect(() => checkFilterText('pointIds', ['ok', 'x'.repeat(FILTER_TEXT_LIMITS.pointIds + 1)])).toThrow(/pointIds/);
    expect(() => checkFilterText('pointIds', ['ok', null, 7])).not.toThrow();
  });
});
