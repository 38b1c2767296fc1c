import { describe, expect, it } from 'vitest';
import { pointValue } from '../../../src/readings/point-value.ts';

describe('pointValue (docs/readings.md, "The current value")', () => {
  const t = Date.parse('2026-11-21T22:05:00Z');
  it('good with a value, the timestamp in the site zone with its offset', () => {
    expect(pointValue({ timestamp: t, value: 21.5 }, 'Europe/Berlin')).toEqual({
      value: 21.5,
      timestamp: '2026-11-21T23:05:00+01:00',
      quality: 'good',
    });
  });
  it('stale without a value', () => {
    expect(pointValue({ timestamp: t, value: null }, 'America/Los_Angeles')).toEqual({
      value: null,
      timestamp: '2026-11-21T14:05:00-08:00',
      quality: 'stale',
    });
  });
  it('unknown when the source’s timestamp cannot be read; the text is passed through', () => {
    expect(pointValue({ timestamp: 'sometime tuesday', value: 3 }, 'UTC')).toEqual({
      value: 3,
      timestamp: 'sometime tuesday',
      quality: 'unknown',
    });
  });
  it('a source timestamp as text is read and rewritten in the site zone', () => {
    expect(pointValue({ timestamp: '2026-11-21T22:05:00Z', value: 1 }, 'Europe/Berlin').timestamp).toBe(
      '2026-11-21T23:05:00+01:00',
    );
  });
});
