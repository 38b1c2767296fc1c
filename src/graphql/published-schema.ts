import { buildSchema, printSchema } from 'graphql';
import { typeDefs } from './create-yoga.ts';

/** The GraphQL schema as published: SDL printed from the schema the endpoint runs, with its descriptions. */
export function publishedSchema(): string {
  return printSchema(buildSchema(typeDefs));
}
