// What a load changed: the graph's N-Triples before and after compared line by line, blank nodes
// by their triples alone (a store's labels for them differ from one export to the next).
import { describe, expect, it } from 'vitest';
import { diffNTriples } from '../../../src/history/load-diff.ts';

describe('diffNTriples', () => {
  it('answers the triples added and removed, without their final dot', async () => {
    const before = '<urn:a> <urn:p> "1" .\n<urn:b> <urn:p> "2" .\n';
    const after = '<urn:b> <urn:p> "2" .\n<urn:c> <urn:p> "3" .\n';
    expect(await diffNTriples(before, after)).toEqual({
      remove: ['<urn:a> <urn:p> "1"'],
      add: ['<urn:c> <urn:p> "3"'],
    });
  });

  it('finds no change between two exports that name their blank nodes otherwise', async () => {
    const before = '_:b0 <urn:p> "x" .\n<urn:a> <urn:q> _:b0 .\n';
    const after = '_:f91 <urn:p> "x" .\n<urn:a> <urn:q> _:f91 .\n';
    expect(await diffNTriples(before, after)).toEqual({ remove: [], add: [] });
  });

  it('skips blank and comment lines, trims spaces, and counts a line that is there twice', async () => {
    const before = '# an export\n\n  <urn:a> <urn:p> "1" .  \n<urn:a> <urn:p> "1" .\n';
    const after = '<urn:a> <urn:p> "1" .\r\n';
    expect(await diffNTriples(before, after)).toEqual({ remove: ['<urn:a> <urn:p> "1"'], add: [] });
  });

  it('keeps a literal ending in a dot whole', async () => {
    const after = '<urn:a> <urn:p> "end." .\n<urn:a> <urn:p> "end."\n';
    expect(await diffNTriples('', after)).toEqual({
      remove: [],
      add: ['<urn:a> <urn:p> "end."', '<urn:a> <urn:p> "end."'],
    });
  });
});
