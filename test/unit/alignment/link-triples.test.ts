import N3 from 'n3';
import { describe, expect, it } from 'vitest';
import oxigraph from 'oxigraph';
import { ifcProjectIri, linkRemoval, linkTriples } from '../../../src/alignment/link-triples.ts';
import { fillTemplates } from '../../../src/graphs/fill-templates.ts';
import { serialize } from '../../../src/rdf/sparql-serializer.ts';
import { applyPatch } from '../../../src/store/apply-patch.ts';
import { portNeighbours } from '../../../src/alignment/port-neighbours.ts';
import { sampleHostileStrings } from '../rdf/hostile-strings.ts';

const REF = 'https://brickschema.org/schema/Brick/ref#';
const parse = (text: string) => new N3.Parser({ format: 'N-Triples' }).parse(text);

describe('linkTriples()', () => {
  it('states a link in the shape the demo graph uses, with the IFC file as its project', () => {
    const quads = parse(
      linkTriples([{ entityIri: 'urn:x:VAV-1', globalId: 'gid-1', fileId: 'f1', fileName: 'tower.ifc' }]),
    );
    const reference = quads.find((q) => q.predicate.value === `${REF}hasExternalReference`)!;
    expect(reference.subject.value).toBe('urn:x:VAV-1');
    const about = quads
      .filter((q) => q.subject.equals(reference.object))
      .map((q) => [q.predicate.value, q.object.value]);
    expect(about).toEqual(
      expect.arrayContaining([
        ['http://www.w3.org/1999/02/22-rdf-syntax-ns#type', `${REF}IFCReference`],
        [`${REF}ifcGlobalID`, 'gid-1'],
        [`${REF}hasIfcProjectReference`, ifcProjectIri('f1')],
      ]),
    );
    expect(quads.some((q) => q.subject.value === ifcProjectIri('f1') && q.object.value === 'tower.ifc')).toBe(true);
  });

  it('escapes whatever a file name or GlobalId holds', () => {
    for (const hostile of sampleHostileStrings(50, 23)) {
      const quads = parse(linkTriples([{ entityIri: 'urn:x:e', globalId: hostile, fileId: 'f', fileName: hostile }]));
      expect(quads.find((q) => q.predicate.value === `${REF}ifcGlobalID`)!.object.value).toBe(hostile);
    }
  });
});

describe('linkRemoval()', () => {
  const G = 'urn:bkg:site:t';
  /** The removal run as the service runs it (run-update.ts), on an Oxigraph store holding `graph`. */
  const remove = (graph: string, links: Array<{ entityIri: string; globalId: string }>) => {
    const store = new oxigraph.Store();
    store.load(graph, { format: 'application/n-triples', to_graph_name: oxigraph.namedNode(G) });
    const step = linkRemoval(G, links);
    if (step.kind !== 'match') throw new Error('a removal reads the graph');
    const rows = JSON.parse(
      store.query(serialize(step.where), { results_format: 'application/sparql-results+json' }) as string,
    ).results.bindings;
    applyPatch(store, G, fillTemplates(step.remove, step.add, rows, step.label));
    return parse(store.dump({ format: 'application/n-triples', from_graph_name: oxigraph.namedNode(G) }));
  };

  it('removes the reference node of a link with every triple about it, and nothing else', () => {
    const graph = `${linkTriples([
      { entityIri: 'urn:x:A', globalId: 'g1', fileId: 'f', fileName: 'm.ifc' },
      { entityIri: 'urn:x:B', globalId: 'g2', fileId: 'f', fileName: 'm.ifc' },
    ])}<urn:x:A> <urn:x:p> "kept" .\n`;
    const quads = remove(graph, [{ entityIri: 'urn:x:A', globalId: 'g1' }]);
    expect(quads.some((q) => q.object.value === 'g1')).toBe(false);
    expect(quads.some((q) => q.object.value === 'g2')).toBe(true);
    expect(quads.some((q) => q.object.value === 'kept')).toBe(true);
    expect(quads.filter((q) => q.predicate.value === `${REF}hasExternalReference`)).toHaveLength(1);
    // Only the reference of B is left with a type, its GlobalId and its project.
    expect(quads.filter((q) => q.subject.termType === 'BlankNode')).toHaveLength(3);
  });

  it('leaves a graph without the link as it was', () => {
    const graph = '<urn:x:A> <urn:x:p> "kept" .\n';
    expect(remove(graph, [{ entityIri: 'urn:x:A', globalId: 'g1' }])).toHaveLength(1);
  });
});

describe('portNeighbours()', () => {
  it('joins equipment through pipes and fittings, and stops at the next equipment', () => {
    const rows = [
      ['boiler', 'pipe1'],
      ['pipe1', 'pump'],
      ['pump', 'header'],
      ['header', 'valve'],
    ].map(([a, b]) => ({ file_id: 'f', from_id: a!, to_id: b! }));
    const equipment = new Set(['boiler', 'pump', 'valve']);
    const pairs = portNeighbours(rows, (_f, id) => equipment.has(id)).map(([, a, b]) => `${a}-${b}`);
    expect(pairs.sort()).toEqual(['boiler-pump', 'pump-valve']);
  });
});
