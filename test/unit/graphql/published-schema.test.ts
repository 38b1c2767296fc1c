// The published GraphQL schema: ./schema.graphql is what /graphql/schema.graphql serves, and every
// type, field, argument and enum value of it says what it is.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  buildSchema,
  isEnumType,
  isInputObjectType,
  isInterfaceType,
  isObjectType,
  isSpecifiedScalarType,
  isUnionType,
} from 'graphql';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../../src/config/config.ts';
import { publishedSchema } from '../../../src/graphql/published-schema.ts';

describe('published GraphQL schema', () => {
  it('schema.graphql at the repository root is current (else run: npm run schema)', async () => {
    const committed = await readFile(join(projectRoot, 'schema.graphql'), 'utf8').catch(() => '');
    expect(
      committed === publishedSchema(),
      'schema.graphql differs from the schema the service runs: run `npm run schema` and commit it',
    ).toBe(true);
  });

  it('describes every type, field, argument and enum value', () => {
    const schema = buildSchema(publishedSchema());
    const missing: string[] = [];
    const need = (what: string, description: string | null | undefined) => {
      if (!description?.trim()) missing.push(what);
    };
    for (const type of Object.values(schema.getTypeMap())) {
      if (type.name.startsWith('__') || isSpecifiedScalarType(type)) continue;
      need(type.name, type.description);
      if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
        for (const field of Object.values(type.getFields())) {
          need(`${type.name}.${field.name}`, field.description);
          for (const arg of 'args' in field ? field.args : [])
            need(`${type.name}.${field.name}(${arg.name})`, arg.description);
        }
      }
      if (isEnumType(type)) for (const value of type.getValues()) need(`${type.name}.${value.name}`, value.description);
      if (isUnionType(type)) need(type.name, type.description);
    }
    expect(missing).toEqual([]);
  });

  it('shows CONTAINS as the default of every nameMatch argument, as the service applies it', () => {
    const schema = buildSchema(publishedSchema());
    const nameMatchArgs = Object.values(schema.getTypeMap())
      .filter((type) => isObjectType(type) || isInterfaceType(type))
      .flatMap((type) =>
        Object.values(type.getFields()).flatMap((field) =>
          field.args
            .filter((arg) => arg.name === 'nameMatch')
            .map((arg) => ({ at: `${type.name}.${field.name}`, default: arg.defaultValue })),
        ),
      );
    expect(nameMatchArgs.length).toBeGreaterThan(0);
    expect(nameMatchArgs.filter((arg) => arg.default !== 'CONTAINS')).toEqual([]);
    expect(publishedSchema()).not.toMatch(/nameMatch: NameMatch\n/);
  });
});
