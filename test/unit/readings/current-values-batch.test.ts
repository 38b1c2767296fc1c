import { describe, expect, it } from 'vitest';
import { CurrentValuesBatch } from '../../../src/readings/current-values-batch.ts';
import type { CurrentValues, PointValue } from '../../../src/readings/current-values.ts';
import type { SeriesBySite } from '../../../src/readings/reading-store.ts';

const good = (value: number): PointValue => ({ value, timestamp: '2026-11-22T10:00:00+01:00', quality: 'good' });

/** A source that records each lookup and answers every asked series with its id's length. */
function recordingSource() {
  const lookups: Array<Record<string, string[]>> = [];
  const source: CurrentValues = {
    async currentValues(series: SeriesBySite) {
      lookups.push(Object.fromEntries([...series].map(([site, ids]) => [site, [...ids].sort()])));
      return new Map([...series].map(([site, ids]) => [site, new Map(ids.map((id) => [id, good(id.length)]))]));
    },
  };
  return { source, lookups };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('CurrentValuesBatch', () => {
  it('looks up once, when every field has asked, for the series of all of them', async () => {
    const { source, lookups } = recordingSource();
    const batch = new CurrentValuesBatch(source);
    const a = batch.ticket();
    const b = batch.ticket();
    const first = a.currentValues(new Map([['s1', ['x', 'yy']]]));
    await tick();
    expect(lookups).toEqual([]);
    const second = b.currentValues(
      new Map([
        ['s1', ['yy', 'zzz']],
        ['s2', ['x']],
      ]),
    );
    const [one, two] = await Promise.all([first, second]);
    expect(lookups).toEqual([{ s1: ['x', 'yy', 'zzz'], s2: ['x'] }]);
    expect(one.get('s1')?.get('yy')?.value).toBe(2);
    expect(two.get('s2')?.get('x')?.value).toBe(1);
  });

  it('does not wait for a field that finished without asking, or that failed', async () => {
    const { source, lookups } = recordingSource();
    const batch = new CurrentValuesBatch(source);
    const asking = batch.ticket();
    const silent = batch.ticket();
    const failing = batch.ticket();
    const answer = asking.currentValues(new Map([['s1', ['x']]]));
    silent.done();
    await tick();
    expect(lookups).toEqual([]);
    failing.done();
    await expect(answer).resolves.toBeInstanceOf(Map);
    asking.done();
    expect(lookups).toEqual([{ s1: ['x'] }]);
  });

  it('makes no lookup when no field asks', async () => {
    const { source, lookups } = recordingSource();
    const batch = new CurrentValuesBatch(source);
    batch.ticket().done();
    batch.ticket().done();
    await tick();
    expect(lookups).toEqual([]);
  });

  it('passes a failed lookup to every field that asked', async () => {
    const batch = new CurrentValuesBatch({ currentValues: () => Promise.reject(new Error('records down')) });
    const a = batch.ticket();
    const b = batch.ticket();
    const answers = [a.currentValues(new Map([['s1', ['x']]])), b.currentValues(new Map([['s1', ['y']]]))];
    for (const answer of answers) await expect(answer).rejects.toThrow('records down');
  });
});
