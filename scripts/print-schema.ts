// Writes the published GraphQL schema (SDL with descriptions, as /graphql/schema.graphql serves it)
// to ./schema.graphql: `npm run schema`. With --check, exits 1 when the committed file differs.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { projectRoot } from '../src/config/config.ts';
import { publishedSchema } from '../src/graphql/published-schema.ts';

const file = join(projectRoot, 'schema.graphql');
const sdl = publishedSchema();
if (process.argv.includes('--check')) {
  const committed = await readFile(file, 'utf8').catch(() => '');
  if (committed !== sdl) {
    console.error('schema.graphql is out of date: run npm run schema');
    process.exit(1);
  }
} else {
  await writeFile(file, sdl);
  console.log(`wrote ${file}`);
}
