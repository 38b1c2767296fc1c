import { Parser, Writer } from 'n3';
import { BRICK, OWL, RDF, RDFS, REC, REF, SKOS, UNIT } from '../rdf/vocabulary.ts';

/** Prefixes every export may use, whatever the model declared: Brick's, its neighbours' and RDF's own. */
export const WELL_KNOWN_PREFIXES: Readonly<Record<string, string>> = Object.freeze({
  brick: BRICK,
  rec: REC,
  ref: REF,
  rdf: RDF,
  rdfs: RDFS,
  owl: OWL,
  skos: SKOS,
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  unit: UNIT,
  qudt: 'http://qudt.org/schema/qudt/',
});

/** A Turtle prefix name: PN_PREFIX, kept simple (a letter, then letters, digits, `-`, `_`). */
const PREFIX_NAME = /^(?:[A-Za-z][\w-]*)?$/;

/**
 * The prefixes an export declares: the model's own (from its last Turtle load), then the
 * well-known ones for namespaces it left undeclared, then `site:` (`site1:`, …) for the namespaces
 * of its entities still without one. Only those the graph uses.
 */
export function exportPrefixes(nTriples: string, declared: Readonly<Record<string, string>>, entityNamespaces: readonly string[]): Record<string, string> {
  const prefixes: Record<string, string> = {};
  const taken = new Set<string>();
  const add = (name: string, namespace: string) => {
    if (name in prefixes || taken.has(namespace) || !PREFIX_NAME.test(name) || !nTriples.includes(`<${namespace}`)) return;
    prefixes[name] = namespace;
    taken.add(namespace);
  };
  for (const [name, namespace] of Object.entries(declared)) add(name, namespace);
  for (const [name, namespace] of Object.entries(WELL_KNOWN_PREFIXES)) add(name, namespace);
  const unnamed = entityNamespaces.filter((namespace) => !taken.has(namespace));
  unnamed.forEach((namespace, i) => add(unnamed.length === 1 ? 'site' : `site${i + 1}`, namespace));
  return prefixes;
}

/** A graph's N-Triples as Turtle with these prefixes (subjects grouped as N3's writer groups them). */
export function turtleWithPrefixes(nTriples: string, prefixes: Readonly<Record<string, string>>): Promise<string> {
  return new Promise((resolve, reject) => {
    const writer = new Writer({ prefixes: { ...prefixes } });
    try {
      writer.addQuads(new Parser({ format: 'N-Triples' }).parse(nTriples));
    } catch (error) {
      reject(error);
      return;
    }
    writer.end((error, text) => (error ? reject(error) : resolve(text)));
  });
}
