import { pipeline, Readable } from 'node:stream';
import { setImmediate } from 'node:timers/promises';
import { StreamParser, StreamWriter } from 'n3';
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

/** How much N-Triples one step reads: the main thread is handed back between steps. */
const CHUNK_CHARS = 64 * 1024;

/** The N-Triples text in pieces of about CHUNK_CHARS that end at a line's end (an IRI never spans lines). */
function* lineChunks(nTriples: string): Generator<string> {
  for (let start = 0; start < nTriples.length;) {
    const cut = nTriples.indexOf('\n', start + CHUNK_CHARS);
    const end = cut === -1 ? nTriples.length : cut + 1;
    yield nTriples.slice(start, end);
    start = end;
  }
}

/**
 * The prefixes an export declares: the model's own (from its last Turtle load), then the
 * well-known ones for namespaces it left undeclared, then `site:` (`site1:`, …) for the namespaces
 * of its entities still without one. Only those the graph uses: read a chunk a step, so a large
 * graph does not hold the main thread (a scan per namespace of 1M triples took ~1 s in one go).
 */
export async function exportPrefixes(
  nTriples: string,
  declared: Readonly<Record<string, string>>,
  entityNamespaces: readonly string[],
): Promise<Record<string, string>> {
  const candidates = [
    ...Object.entries(declared),
    ...Object.entries(WELL_KNOWN_PREFIXES),
    ...entityNamespaces.map((namespace) => ['', namespace] as const),
  ];
  const unseen = new Set(candidates.map(([, namespace]) => `<${namespace}`));
  for (const chunk of lineChunks(nTriples)) {
    for (const iri of unseen) if (chunk.includes(iri)) unseen.delete(iri);
    if (unseen.size === 0) break;
    await setImmediate();
  }
  const prefixes: Record<string, string> = {};
  const taken = new Set<string>();
  const add = (name: string, namespace: string) => {
    if (name in prefixes || taken.has(namespace) || !PREFIX_NAME.test(name) || unseen.has(`<${namespace}`)) return;
    prefixes[name] = namespace;
    taken.add(namespace);
  };
  for (const [name, namespace] of Object.entries(declared)) add(name, namespace);
  for (const [name, namespace] of Object.entries(WELL_KNOWN_PREFIXES)) add(name, namespace);
  const unnamed = entityNamespaces.filter((namespace) => !taken.has(namespace) && !unseen.has(`<${namespace}`));
  unnamed.forEach((namespace, i) => add(unnamed.length === 1 ? 'site' : `site${i + 1}`, namespace));
  return prefixes;
}

/**
 * A graph's N-Triples as Turtle with these prefixes (subjects grouped as N3's writer groups them),
 * streamed: parsed and written a chunk at a time, so neither the main thread nor a copy of every
 * triple is held for the whole graph (1M triples took ~3 s of parsing and writing in one go).
 */
export function turtleWithPrefixes(nTriples: string, prefixes: Readonly<Record<string, string>>): Readable {
  const turtle = new StreamWriter({ prefixes: { ...prefixes } });
  // A failure destroys every stream, the returned one too: its reader sees the error.
  pipeline(Readable.from(lineChunks(nTriples)), new StreamParser({ format: 'N-Triples' }), turtle, () => undefined);
  return turtle;
}
