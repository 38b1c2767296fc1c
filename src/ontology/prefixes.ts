/** Namespaces the ontology module knows, and the helpers that move between IRIs and prefixed names. */

import { BRICK, OWL, RDFS, REC, REF, SKOS } from '../rdf/vocabulary.ts';

export { BRICK, OWL, RDF, RDFS, REC, REF, SKOS, localName } from '../rdf/vocabulary.ts';

/** Prefixes accepted in class arguments (`rec:Room`) and used when printing class names. */
export const PREFIXES: Readonly<Record<string, string>> = Object.freeze({
  brick: BRICK,
  rec: REC,
  ref: REF,
  owl: OWL,
  rdfs: RDFS,
  skos: SKOS,
});

const PREFIXED_NAME = /^([A-Za-z][\w-]*):([^/#:]*)$/;

/** Expands `brick:AHU` to its IRI; undefined when the text is not a prefixed name with a known prefix. */
export function expandPrefixedName(name: string): string | undefined {
  const match = PREFIXED_NAME.exec(name);
  if (!match) return undefined;
  const namespace = PREFIXES[match[1]!];
  return namespace === undefined ? undefined : namespace + match[2]!;
}

/** Shortens an IRI to `prefix:local` when a known namespace covers it, else returns it unchanged. */
export function compactIri(iri: string): string {
  for (const [prefix, namespace] of Object.entries(PREFIXES)) {
    // A rest containing `#` or `/` would not survive as a prefixed name's local part.
    const rest = iri.slice(namespace.length);
    if (iri.startsWith(namespace) && !/[#/]/.test(rest)) return `${prefix}:${rest}`;
  }
  return iri;
}
