import N3 from 'n3';
import { describe, expect, it } from 'vitest';
import { ifcProjectIri, linkTriples, withoutLinks } from '../../../src/alignment/link-triples.ts';
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

describe('withoutLinks()', () => {
  it('removes the reference node of a link and nothing else', async () => {
    const graph = `${linkTriples([
      { entityIri: 'urn:x:A', globalId: 'g1', fileId: 'f', fileName: 'm.ifc' },
      { entityIri: 'urn:x:B', globalId: 'g2', fileId: 'f', fileName: 'm.ifc' },
    ])}<urn:x:A> <urn:x:p> "kept" .\n`;
    const { text, removed } = await withoutLinks(graph, [{ entityIri: 'urn:x:A', globalId: 'g1' }]);
    expect(removed).toBe(1);
    const quads = parse(text);
    expect(quads.some((q) => q.object.value === 'g1')).toBe(false);
    expect(quads.some((q) => q.object.value === 'g2')).toBe(true);
    expect(quads.some((q) => q.object.value === 'kept')).toBe(true);
    expect(quads.filter((q) => q.predicate.value === `${REF}hasExternalReference`)).toHaveLength(1);
  });

  it('leaves a graph without the link as it was', async () => {
    const graph = '<urn:x:A> <urn:x:p> "kept" .\n';
    expect(await withoutLinks(graph, [{ entityIri: 'urn:x:A', globalId: 'g1' }])).toEqual({ text: graph, removed: 0 });
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
