import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src/errors/app-error.ts';
import { parseTimeseriesQuery, windowMs } from '../../../src/timeseries/timeseries-query.ts';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const fieldsOf = (body: unknown): string[] => {
  try {
    parseTimeseriesQuery(body, NOW, 'Europe/Berlin');
  } catch (error) {
    expect(error).toBeInstanceOf(AppError);
    return Object.keys((error as AppError).details!.fields as object);
  }
  return [];
};

describe('parseTimeseriesQuery', () => {
  it('defaults: the last hour until now, raw, 1000 per series; duplicate ids once', () => {
    expect(parseTimeseriesQuery({ timeseriesIds: ['a', 'b', 'a'] }, NOW, 'UTC')).toEqual({
      timeseriesIds: ['a', 'b'],
      start: NOW - 3_600_000,
      end: NOW,
      window: undefined,
      limit: 1000,
    });
  });

  it.each([
    ['-15m', NOW - 15 * 60_000],
    ['-1h', NOW - 3_600_000],
    ['-24h', NOW - 86_400_000],
    ['-7d', NOW - 7 * 86_400_000],
    ['2026-11-21T10:00:00+01:00', Date.parse('2026-11-21T09:00:00Z')],
    ['2026-11-21T10:00:00', Date.parse('2026-11-21T09:00:00Z')],
  ])('start %s', (start, ms) => {
    expect(parseTimeseriesQuery({ timeseriesIds: ['a'], start }, NOW, 'Europe/Berlin').start).toBe(ms);
  });

  it('a window with its aggregate, mean by default', () => {
    expect(parseTimeseriesQuery({ timeseriesIds: ['a'], window: '15m' }, NOW, 'UTC').window).toEqual({
      text: '15m',
      ms: 900_000,
      aggregate: 'mean',
    });
    expect(parseTimeseriesQuery({ timeseriesIds: ['a'], window: '1d', aggregate: 'last' }, NOW, 'UTC').window).toEqual({
      text: '1d',
      ms: 86_400_000,
      aggregate: 'last',
    });
  });

  it('windows from 1m to 1d', () => {
    expect([windowMs('1m'), windowMs('90m'), windowMs('24h'), windowMs('1d')]).toEqual([
      60_000, 5_400_000, 86_400_000, 86_400_000,
    ]);
    expect([windowMs('0m'), windowMs('25h'), windowMs('2d'), windowMs('1s'), windowMs('m')]).toEqual([
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('names every field at fault', () => {
    expect(fieldsOf({ timeseriesIds: ['a'], start: 'x', end: 'y', window: '1w' }).sort()).toEqual([
      'end',
      'start',
      'window',
    ]);
    expect(fieldsOf({ timeseriesIds: 'a' })).toEqual(['timeseriesIds']);
    expect(fieldsOf({ timeseriesIds: ['a'], start: '-1h', end: '-1h' })).toEqual(['end']);
    expect(fieldsOf({ timeseriesIds: ['a'], aggregate: 'sum' })).toEqual(['aggregate']);
    expect(fieldsOf(null)).toEqual(['non_field_errors']);
  });
});
