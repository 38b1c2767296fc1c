import { describe, expect, it } from 'vitest';
import { SiteIds } from '../../../src/compiler/site-ids.ts';

const sharing = (...iris: string[]) => new SiteIds(new Map([[iris[0]!.replace(/^.*[#/]/, ''), new Set(iris)]]));

describe('SiteIds.idOf', () => {
  it('is the local name where no other entity has it', () => {
    expect(SiteIds.UNIQUE.idOf('https://example.org/site#AHU-1')).toBe('AHU-1');
    expect(
      sharing('https://example.org/b1/ahu-1', 'https://example.org/b3/ahu-1').idOf('https://example.org/b1/vav-1'),
    ).toBe('vav-1');
  });

  it('is the shortest suffix after a cut that no other entity ends with', () => {
    const ids = sharing(
      'https://example.org/p/b1/ahu-1',
      'https://example.org/p/b3/ahu-1',
      'https://example.org/q/b3/ahu-1',
    );
    expect(ids.idOf('https://example.org/p/b1/ahu-1')).toBe('b1/ahu-1');
    expect(ids.idOf('https://example.org/p/b3/ahu-1')).toBe('p/b3/ahu-1');
    expect(ids.idOf('https://example.org/q/b3/ahu-1')).toBe('q/b3/ahu-1');
  });

  it('cuts after # and :, and needs a cut: b1 is no suffix of xb1', () => {
    expect(sharing('urn:site:b1#ahu-1', 'urn:site:b2#ahu-1').idOf('urn:site:b1#ahu-1')).toBe('b1#ahu-1');
    expect(
      sharing('https://example.org/b1/ahu-1', 'https://example.org/xb1/ahu-1').idOf('https://example.org/b1/ahu-1'),
    ).toBe('b1/ahu-1');
    expect(sharing('urn:a/ahu-1', 'urn:b/ahu-1').idOf('urn:b/ahu-1')).toBe('b/ahu-1');
  });

  it('skips a suffix that reads as an IRI, and is the full IRI where no suffix tells the entities apart', () => {
    expect(sharing('urn:site:a/ahu-1', 'urn:other:a/ahu-1').idOf('urn:site:a/ahu-1')).toBe('urn:site:a/ahu-1');
    expect(sharing('http://example.org/ahu-1', 'https://example.org/ahu-1').idOf('https://example.org/ahu-1')).toBe(
      'https://example.org/ahu-1',
    );
  });

  it('tells apart an entity the list lacks (one just added) as well', () => {
    expect(
      sharing('https://example.org/b1/ahu-1', 'https://example.org/b3/ahu-1').idOf('https://example.org/b4/ahu-1'),
    ).toBe('b4/ahu-1');
  });
});

describe('SiteIds.named', () => {
  const ids = sharing('https://example.org/b1/ahu-1', 'https://example.org/b3/ahu-1');

  it('lists every entity of a shared local name, or those a suffix names', () => {
    expect(ids.named('ahu-1')).toEqual(['https://example.org/b1/ahu-1', 'https://example.org/b3/ahu-1']);
    expect(ids.named('b3/ahu-1')).toEqual(['https://example.org/b3/ahu-1']);
    expect(ids.named('example.org/b3/ahu-1')).toEqual(['https://example.org/b3/ahu-1']);
    expect(ids.named('3/ahu-1')).toEqual([]);
  });

  it('does not know a local name no two entities share', () => {
    expect(ids.named('vav-1')).toBeUndefined();
    expect(ids.named('b1/vav-1')).toBeUndefined();
  });
});
