import { describe, expect, it } from 'vitest';
import { traverse, type TraversalInput } from '../../../src/query/traverse.ts';

/** `feeds` edges from a chain written `A>B>C`, several chains joined with spaces. */
const edges = (chains: string): Array<[string, string]> =>
  chains.split(' ').flatMap((chain) => {
    const nodes = chain.split('>');
    return nodes.slice(1).map((to, i) => [nodes[i]!, to] as [string, string]);
  });

type WalkInput = Partial<Omit<TraversalInput, 'starts'>> & Pick<TraversalInput, 'edges'> & { starts: string[] };

/** The walk's result as an object, downstream with no bound and every edge followed unless told. */
const walk = (input: WalkInput) =>
  Object.fromEntries(
    traverse({
      direction: 'downstream',
      maxDepth: undefined,
      follows: () => true,
      ...input,
      starts: new Set(input.starts),
    }),
  );

describe('traverse', () => {
  it('gives each reached node its hop count, breadth first', () => {
    expect(walk({ edges: edges('CH>AHU>VAV1>Z1 AHU>VAV2'), starts: ['CH'] })).toEqual({
      AHU: 1,
      VAV1: 2,
      VAV2: 2,
      Z1: 3,
    });
  });

  it('keeps the shortest distance to a node reached by two paths', () => {
    expect(walk({ edges: edges('A>B>C>D A>D'), starts: ['A'] })).toEqual({ B: 1, C: 2, D: 1 });
  });

  it('stops at maxDepth', () => {
    const chain = edges('A>B>C>D');
    expect(walk({ edges: chain, starts: ['A'], maxDepth: 1 })).toEqual({ B: 1 });
    expect(walk({ edges: chain, starts: ['A'], maxDepth: 2 })).toEqual({ B: 1, C: 2 });
    expect(walk({ edges: chain, starts: ['A'], maxDepth: 10 })).toEqual({ B: 1, C: 2, D: 3 });
  });

  it('visits each node of a cycle once and never returns the start', () => {
    expect(walk({ edges: edges('A>B>C>A'), starts: ['A'] })).toEqual({ B: 1, C: 2 });
    expect(walk({ edges: edges('A>A'), starts: ['A'] })).toEqual({});
  });

  it('finds nothing from a node with no edges', () => {
    expect(walk({ edges: edges('A>B'), starts: ['Z'] })).toEqual({});
    expect(walk({ edges: [], starts: ['A'] })).toEqual({});
  });

  it('reverses the edges upstream', () => {
    expect(walk({ edges: edges('CH>AHU>VAV1 B>AHU'), starts: ['VAV1'], direction: 'upstream' })).toEqual({
      AHU: 1,
      CH: 2,
      B: 2,
    });
    expect(walk({ edges: edges('CH>AHU>VAV1'), starts: ['AHU'], direction: 'downstream' })).toEqual({ VAV1: 1 });
  });

  describe('medium', () => {
    // The chiller outputs chilled water, the AHU and VAVs air: an edge carries what its feeder outputs.
    const airOnly = (feeder: string) => feeder !== 'CH';
    const plant = edges('CH>AHU>VAV1>Z1');

    it('prunes edges whose feeder fails the test, and everything beyond them downstream', () => {
      expect(walk({ edges: plant, starts: ['CH'], follows: airOnly })).toEqual({});
      expect(walk({ edges: plant, starts: ['AHU'], follows: airOnly })).toEqual({ VAV1: 1, Z1: 2 });
    });

    it('tests the feeder, not the fed node, when walking upstream', () => {
      expect(walk({ edges: plant, starts: ['Z1'], follows: airOnly, direction: 'upstream' })).toEqual({
        VAV1: 1,
        AHU: 2,
      });
      const water = (feeder: string) => feeder === 'CH';
      expect(walk({ edges: plant, starts: ['AHU'], follows: water, direction: 'upstream' })).toEqual({ CH: 1 });
      expect(walk({ edges: plant, starts: ['Z1'], follows: water, direction: 'upstream' })).toEqual({});
    });
  });

  it('starts from several nodes at once: a zone and its rooms', () => {
    // VAV1 feeds the zone directly, VAV2 feeds one of its rooms; both are one hop away.
    const result = walk({
      edges: edges('AHU>VAV1>Z1 AHU>VAV2>R2 VAV3>R9'),
      starts: ['Z1', 'R1', 'R2'],
      direction: 'upstream',
    });
    expect(result).toEqual({ VAV1: 1, VAV2: 1, AHU: 2 });
  });

  it('never reports a start node, even when another start feeds it', () => {
    const result = walk({ edges: edges('VAV1>R1>Z1'), starts: ['Z1', 'R1'], direction: 'upstream' });
    expect(result).toEqual({ VAV1: 1 });
  });
});
