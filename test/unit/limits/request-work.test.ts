// A request's work: a part of it (an MCP tool's answer) with a cap of its own, and a refusal that
// stops what waits on the request's signal with the refusal itself.
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors/app-error.ts';
import { cancelled, FairQueue } from '../../../src/limits/fair-queue.ts';
import { RequestWork, type Budget } from '../../../src/limits/request-work.ts';

const BUDGET: Budget = { entities: 1_000, responseBytes: 10_000, storeRows: 10_000 };
const refusalOf = (spend: () => void): AppError => {
  try {
    spend();
  } catch (error) {
    return error as AppError;
  }
  throw new Error('nothing was refused');
};

describe('RequestWork', () => {
  it('aborts its signal with the refusal once over budget, and what waits on it fails with that refusal', async () => {
    const work = new RequestWork(undefined, 1_000, BUDGET, 'client');
    const queue = new FairQueue(1, 1);
    const held = await queue.acquire('site');
    const waiting = queue.acquire('site', work.signal);
    const refusal = refusalOf(() => work.spend('entities', 1_001));
    expect(refusal).toMatchObject({ code: 'QUERY_TOO_LARGE', details: { exceeded: 'entities' } });
    expect(work.signal.reason).toBe(refusal);
    await expect(waiting).rejects.toBe(refusal);
    expect(cancelled(work.signal)).toBe(refusal);
    held.release();
  });

  it('a part within a cap is refused past the cap alone; the whole request goes on, having spent what the part did', () => {
    const whole = new RequestWork(undefined, 1_000, BUDGET, 'client');
    const part = whole.within('responseBytes', 500);
    part.spend('responseBytes', 400);
    expect(whole.left('responseBytes')).toBe(9_600);
    expect(part.left('responseBytes')).toBe(100);
    expect(refusalOf(() => part.spend('responseBytes', 200))).toMatchObject({
      code: 'QUERY_TOO_LARGE',
      details: { exceeded: 'responseBytes', limit: 500 },
    });
    expect(part.exceeded).toBe(true);
    expect(part.signal.aborted).toBe(true);
    expect(() => part.remainingMs()).toThrow(AppError);
    expect(whole.exceeded).toBe(false);
    expect(whole.signal.aborted).toBe(false);
    expect(whole.remainingMs()).toBe(1_000);
  });

  it('a part is bound by the whole request: its budget, its deadline and its client', () => {
    const client = new AbortController();
    const whole = new RequestWork(client.signal, 1_000, BUDGET, 'client');
    const part = whole.within('responseBytes', 500);
    part.chargeTime(600);
    expect(whole.remainingMs()).toBe(400);
    expect(part.remainingMs()).toBe(400);
    expect(refusalOf(() => part.spend('entities', 1_001))).toMatchObject({
      details: { exceeded: 'entities', limit: 1_000 },
    });
    expect(part.exceeded).toBe(false);
    expect(whole.exceeded).toBe(true);
    expect(part.signal.aborted).toBe(true);
    const other = new RequestWork(client.signal, 1_000, BUDGET, 'client').within('responseBytes', 500);
    client.abort(new Error('The client went away'));
    expect(other.signal.aborted).toBe(true);
  });
});
