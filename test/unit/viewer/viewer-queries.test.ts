// The viewer's GraphQL queries are valid against the schema the service publishes: a query the
// service refuses would only show in the browser, as an error in the panel.
import { buildSchema, parse, validate } from 'graphql';
import { describe, expect, it } from 'vitest';
import { publishedSchema } from '../../../src/graphql/published-schema.ts';
import { ENTITY_BY_ID, ENTITY_BY_IFC_ID, searchQuery } from '../../../viewer/src/entity-query.ts';

const schema = buildSchema(publishedSchema());
const errors = (query: string) => validate(schema, parse(query)).map((error) => error.message);

describe('the viewer’s GraphQL queries', () => {
  it('the entity of an element, and of each kind by id, are valid', () => {
    expect(errors(ENTITY_BY_IFC_ID)).toEqual([]);
    for (const [kind, query] of Object.entries(ENTITY_BY_ID)) expect(errors(query), kind).toEqual([]);
  });

  it('the searches by name and by class are valid', () => {
    expect(errors(searchQuery('name'))).toEqual([]);
    expect(errors(searchQuery('is'))).toEqual([]);
  });
});
