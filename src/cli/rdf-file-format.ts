import { basename, extname } from 'node:path';

/** The RDF formats the service reads, by the name given to --format. */
export const RDF_FORMATS = {
  turtle: 'text/turtle',
  ntriples: 'application/n-triples',
  nquads: 'application/n-quads',
  jsonld: 'application/ld+json',
} as const;

export type RdfFormatName = keyof typeof RDF_FORMATS;

const EXTENSIONS: Readonly<Record<string, RdfFormatName>> = {
  '.ttl': 'turtle',
  '.turtle': 'turtle',
  '.nt': 'ntriples',
  '.nq': 'nquads',
  '.jsonld': 'jsonld',
  '.json': 'jsonld',
};

/** The file's media type: `--format` if given, else from its extension; a message for a usage error otherwise. */
export function rdfFileFormat(
  file: string,
  given: string | undefined,
): { type: (typeof RDF_FORMATS)[RdfFormatName] } | { error: string } {
  const name = given ?? EXTENSIONS[extname(file).toLowerCase()];
  if (name === undefined)
    return {
      error: `Cannot tell the format of "${basename(file)}" from its extension; pass --format turtle, ntriples, nquads or jsonld.`,
    };
  const type = RDF_FORMATS[name as RdfFormatName];
  if (type === undefined) return { error: `--format must be turtle, ntriples, nquads or jsonld, got "${name}".` };
  return { type };
}
