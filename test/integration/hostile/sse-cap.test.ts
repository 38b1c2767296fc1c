// Subscriptions held open past any rate-limit window: each client (API key, user, anonymous
// address) may hold a few at once; the one past its cap is refused with 429 before it costs
// anything, and closing one frees its slot. Meanwhile another client's subscription on another
// site opens and receives its readings.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../support/harness.ts';
import { createKey, iso, postReadings } from '../readings/readings-support.ts';
import { subscribe, type Subscription } from '../../support/sse-client.ts';
import { duringAttack, INNOCENT_TTL, PROMPT_MS } from './hostile-support.ts';

const SUBSCRIPTION = `subscription ($site: String!) { pointValues(siteId: $site, pointIds: ["SAT"]) { pointId value { value } } }`;
const ANONYMOUS_CAP = 3;
const KEY_CAP = 2;

describe('open subscriptions per client', () => {
  let h: Harness;
  const open: Subscription[] = [];
  const sub = async (token: string | null, site: string) => {
    const subscription = await subscribe(`${h.url}/graphql`, token, SUBSCRIPTION, { site });
    open.push(subscription);
    return subscription;
  };
  /** A subscription opened as soon as a slot is free: the service learns of a close when the connection ends, a moment after it. */
  const subWhenFree = async (token: string | null, site: string) => {
    const deadline = Date.now() + PROMPT_MS;
    let subscription = await sub(token, site);
    while (subscription.status === 429 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      subscription = await sub(token, site);
    }
    return subscription;
  };
  beforeAll(async () => {
    // Anonymous clients may read only the demo site.
    h = await createHarness({
      sites: { demo: INNOCENT_TTL, innocent: INNOCENT_TTL },
      env: { BKG_MAX_SUBSCRIPTIONS_ANONYMOUS: String(ANONYMOUS_CAP), BKG_MAX_SUBSCRIPTIONS_KEY: String(KEY_CAP) },
    });
  });
  afterAll(async () => {
    for (const subscription of open) subscription.close();
    await h?.close();
  });

  it('refuses an anonymous address’s subscription past its cap with 429, while another client’s goes on', async () => {
    const held = await Promise.all(Array.from({ length: ANONYMOUS_CAP }, () => sub(null, 'demo')));
    expect(held.map((s) => s.status)).toEqual(Array(ANONYMOUS_CAP).fill(200));
    const { key } = await createKey(h, { sites: ['innocent'], write: true });
    const { attack: refused, innocent: watching } = await duringAttack(
      () => sub(null, 'demo'),
      () => sub(key, 'innocent'),
    );
    expect(refused.status).toBe(429);
    expect(await refused.next()).toEqual({
      errors: [
        expect.objectContaining({
          message: `Too many open subscriptions: at most ${ANONYMOUS_CAP} per address. Close one to open another.`,
          extensions: { code: 'RATE_LIMITED' },
        }),
      ],
    });
    expect(watching.status).toBe(200);
    await postReadings(h, 'innocent', [{ timeseriesId: 'ts-sat', timestamp: iso(Date.now()), value: 17 }]);
    expect((await watching.next(PROMPT_MS)).data.pointValues).toEqual({ pointId: 'SAT', value: { value: 17 } });
    watching.close();
    for (const subscription of held) subscription.close();
  });

  it('frees a slot when its subscription is closed', async () => {
    const held: Subscription[] = [];
    for (let i = 0; i < ANONYMOUS_CAP; i++) held.push(await subWhenFree(null, 'demo'));
    expect(held.map((s) => s.status)).toEqual(Array(ANONYMOUS_CAP).fill(200));
    expect((await sub(null, 'demo')).status).toBe(429);
    held[0]!.close();
    const next = await subWhenFree(null, 'demo');
    expect(next.status).toBe(200);
    expect((await sub(null, 'demo')).status).toBe(429);
    for (const subscription of [...held, next]) subscription.close();
  });

  it('counts per API key: one key at its cap leaves another key its own', async () => {
    const held = [await sub(h.adminKey, 'innocent'), await sub(h.adminKey, 'innocent')];
    expect(held.map((s) => s.status)).toEqual([200, 200]);
    expect((await sub(h.adminKey, 'innocent')).status).toBe(429);
    const { key } = await createKey(h, { sites: ['innocent'] });
    expect((await sub(key, 'innocent')).status).toBe(200);
  });

  it('a subscription that fails to start holds no slot', async () => {
    const { key } = await createKey(h, { sites: ['innocent'] });
    for (let i = 0; i < KEY_CAP + 2; i++) {
      const failed = await sub(key, 'nowhere');
      expect(failed.status).toBe(200);
      expect((await failed.next()).errors[0].extensions.code).toBe('NOT_FOUND');
    }
    expect((await sub(key, 'innocent')).status).toBe(200);
  });
});
