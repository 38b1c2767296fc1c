/** Namespaces the ontology module knows, and the helpers that move between IRIs and prefixed names. */

export const BRICK = 'https://brickschema.org/schema/Brick#';
export const REC = 'https://w3id.org/rec#';
export const REF = 'https://brickschema.org/schema/Brick/ref#';
export const OWL = 'http://www.w3.org/2002/07/owl#';
export const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
export const SKOS = 'http://www.w3.org/2004/02/skos/core#';

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

/** The IRI's local name: what follows the last `#` or `/`. */
export function localName(iri: string): string {
  const cut = Math.max(iri.lastIndexOf('#'), iri.lastIndexOf('/'));
  return iri.slice(cut + 1);
}

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
