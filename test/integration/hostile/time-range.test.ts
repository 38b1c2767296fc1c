// History queries whose times fall outside what a timestamp can hold: relative times reach far
// past year 1 (-99999999d) or past JavaScript's dates altogether (-999999999w), absolute ones can
// name year 0. Each is a 400 naming the field, never a 500; meanwhile another site answers as usual.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../support/harness.ts';
import { post } from '../readings/readings-support.ts';
import { duringAttack, INNOCENT_TTL, innocentHistory, seedInnocent } from './hostile-support.ts';

const OUT_OF_RANGE = 'Must be between 0001-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z.';

describe('history queries with times out of range', () => {
  let h: Harness;
  const history = (body: Record<string, unknown>) =>
    h.fetch('/api/v1/sites/attacked/timeseries', post({ timeseriesIds: ['ts-sat'], ...body }));
  beforeAll(async () => {
    h = await createHarness({ sites: { attacked: INNOCENT_TTL, innocent: INNOCENT_TTL } });
    await seedInnocent(h, 'innocent');
  });
  afterAll(async () => {
    await h?.close();
  });

  it.each([
    ['start', { start: '-99999999d' }],
    ['start', { start: '-999999999w' }],
    ['start', { start: '0000-12-31T23:59:59Z' }],
    ['start', { start: '0001-01-01T00:00:00+01:00' }],
    ['end', { start: '2026-01-01T00:00:00Z', end: '9999-12-31T23:59:59-01:00' }],
    ['end', { end: '-999999999w' }],
  ])('%s out of range (%j): 400 naming it, while another site answers', async (field, body) => {
    const { attack } = await duringAttack(
      () => history(body),
      () => innocentHistory(h, 'innocent'),
    );
    expect(attack.status, await attack.clone().text()).toBe(400);
    expect(await attack.json()).toEqual({ [field]: [OUT_OF_RANGE] });
  });

  it('names both fields when both are out of range', async () => {
    const res = await history({ start: '-99999999w', end: '-99999998w' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ start: [OUT_OF_RANGE], end: [OUT_OF_RANGE] });
  });

  it('takes the first and last instants of the range, and reads years before 100 as themselves', async () => {
    const widest = await history({ start: '0001-01-01T00:00:00Z', end: '9999-12-31T23:59:59.999Z' });
    expect(widest.status, await widest.clone().text()).toBe(200);
    expect((await widest.json()).query).toMatchObject({
      start: '0001-01-01T00:00:00+00:00',
      end: '9999-12-31T23:59:59.999+00:00',
    });
    const early = await history({ start: '0050-06-01T00:00:00Z', end: '0051-01-01' });
    expect(early.status, await early.clone().text()).toBe(200);
    expect((await early.json()).query).toMatchObject({
      start: '0050-06-01T00:00:00+00:00',
      end: '0051-01-01T00:00:00+00:00',
    });
  });
});
