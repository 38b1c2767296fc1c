// Rows of an external-references query → each entity's references (src/query/external-references.ts).
import { describe, expect, it } from 'vitest';
import { readExternalReferences } from '../../../src/query/external-references.ts';
import type { RdfTerm, SparqlRow } from '../../../src/rdf/result-row.ts';

const REF = 'https://brickschema.org/schema/Brick/ref#';
const TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const X = 'https://example.org/x#';
const uri = (value: string): RdfTerm => ({ type: 'uri', value });
const bnode = (value: string): RdfTerm => ({ type: 'bnode', value });
const lit = (value: string): RdfTerm => ({ type: 'literal', value });
const row = (parent: string, r: RdfTerm, p: string, v: RdfTerm): SparqlRow => ({
  parent: uri(parent),
  r,
  p: uri(p),
  v,
});

describe('readExternalReferences', () => {
  it('names a reference by its specific class rather than Brick’s generic ExternalReference, and null when untyped', async () => {
    const refs = await readExternalReferences([
      row(`${X}P`, bnode('b1'), TYPE, uri(`${REF}ExternalReference`)),
      row(`${X}P`, bnode('b1'), TYPE, uri(`${REF}MetasysReference`)),
      row(`${X}P`, bnode('b1'), `${REF}metasysID`, lit('m-1')),
      row(`${X}P`, bnode('b2'), TYPE, uri(`${REF}ExternalReference`)),
      row(`${X}P`, bnode('b2'), `${REF}hostedAt`, lit('ADS')),
      row(`${X}P`, bnode('b3'), `${REF}hasTimeseriesId`, lit('ts-1')),
    ]);
    expect(refs.get(`${X}P`)!.map((r) => r.type)).toEqual([null, 'ExternalReference', 'MetasysReference']);
  });

  it('gives an IRI reference its uri, a blank node none, fields sorted and repeated rows folded', async () => {
    const refs = await readExternalReferences([
      row(`${X}P`, uri(`${X}ifc`), `${REF}ifcName`, lit('AHU')),
      row(`${X}P`, uri(`${X}ifc`), `${REF}ifcGlobalID`, lit('2O2Fr')),
      row(`${X}P`, uri(`${X}ifc`), `${REF}ifcGlobalID`, lit('2O2Fr')),
      row(`${X}Q`, bnode('b9'), `${REF}hasTimeseriesId`, lit('ts-q')),
    ]);
    expect(refs.get(`${X}P`)).toEqual([
      {
        uri: `${X}ifc`,
        type: null,
        fields: [
          { name: 'ifcGlobalID', value: '2O2Fr', unit: null, unitSymbol: null },
          { name: 'ifcName', value: 'AHU', unit: null, unitSymbol: null },
        ],
      },
    ]);
    expect(refs.get(`${X}Q`)).toEqual([
      { uri: null, type: null, fields: [{ name: 'hasTimeseriesId', value: 'ts-q', unit: null, unitSymbol: null }] },
    ]);
  });

  it('orders references by type and fields, never by blank-node labels, which differ between stores', async () => {
    const rows = (labels: [string, string]) => [
      row(`${X}P`, bnode(labels[0]), `${REF}hasTimeseriesId`, lit('ts-b')),
      row(`${X}P`, bnode(labels[1]), `${REF}hasTimeseriesId`, lit('ts-a')),
    ];
    const one = await readExternalReferences(rows(['a', 'z']));
    const other = await readExternalReferences(rows(['z', 'a']));
    expect(one.get(`${X}P`)!.map((r) => r.fields[0]!.value)).toEqual(['ts-a', 'ts-b']);
    expect(other).toEqual(one);
  });
});
