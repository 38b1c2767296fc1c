import { describe, expect, it } from 'vitest';
import { ndjsonItems, parseReading, parseReadings } from '../../../src/readings/reading-input.ts';

const T = '2026-11-21T23:05:00+01:00';
const MS = Date.parse('2026-11-21T22:05:00Z');

describe('parseReading', () => {
  it('takes {timeseriesId, timestamp, value}: ISO-8601 with an offset or epoch milliseconds; numbers, booleans, null', () => {
    expect(parseReading({ timeseriesId: 'a', timestamp: T, value: 21.5 })).toEqual({
      reading: { timeseriesId: 'a', ms: MS, value: 21.5 },
    });
    expect(parseReading({ timeseriesId: 'a', timestamp: MS, value: true })).toEqual({
      reading: { timeseriesId: 'a', ms: MS, value: 1 },
    });
    expect(parseReading({ timeseriesId: 'a', timestamp: MS, value: false })).toEqual({
      reading: { timeseriesId: 'a', ms: MS, value: 0 },
    });
    expect(parseReading({ timeseriesId: 'a', timestamp: MS, value: null })).toEqual({
      reading: { timeseriesId: 'a', ms: MS, value: null },
    });
  });

  it.each([
    [{ timestamp: T, value: 1 }, ['timeseriesId']],
    [{ timeseriesId: '  ', timestamp: T, value: 1 }, ['timeseriesId']],
    [{ timeseriesId: 'x'.repeat(256), timestamp: T, value: 1 }, ['timeseriesId']],
    [{ timeseriesId: 7, timestamp: T, value: 1 }, ['timeseriesId']],
    [{ timeseriesId: 'a', value: 1 }, ['timestamp']],
    [{ timeseriesId: 'a', timestamp: '2026-11-21T23:05:00', value: 1 }, ['timestamp']],
    [{ timeseriesId: 'a', timestamp: -1, value: 1 }, ['timestamp']],
    [{ timeseriesId: 'a', timestamp: Number.NaN, value: 1 }, ['timestamp']],
    [{ timeseriesId: 'a', timestamp: T }, ['value']],
    [{ timeseriesId: 'a', timestamp: T, value: '21.5' }, ['value']],
    [{ timeseriesId: 'a', timestamp: T, value: Number.POSITIVE_INFINITY }, ['value']],
    [{}, ['timeseriesId', 'timestamp', 'value']],
    [[1, 2], ['non_field_errors']],
    [null, ['non_field_errors']],
  ])('%j is refused for %j', (item, fields) => {
    const parsed = parseReading(item);
    expect('errors' in parsed && Object.keys(parsed.errors).sort()).toEqual([...fields].sort());
  });

  it('takes the timeseries id from a per-series topic; a different one in the item is refused', () => {
    expect(parseReading({ timestamp: MS, value: 1 }, 'topic-ts')).toEqual({
      reading: { timeseriesId: 'topic-ts', ms: MS, value: 1 },
    });
    expect(parseReading({ timeseriesId: 'topic-ts', timestamp: MS, value: 1 }, 'topic-ts')).toHaveProperty('reading');
    expect(parseReading({ timeseriesId: 'other', timestamp: MS, value: 1 }, 'topic-ts')).toHaveProperty(
      'errors.timeseriesId',
    );
  });
});

describe('parseReadings and NDJSON', () => {
  it('reports each rejected item at its index and keeps the good ones', () => {
    const { readings, rejected } = parseReadings([
      { timeseriesId: 'a', timestamp: MS, value: 1 },
      { timeseriesId: 'a' },
      ...ndjsonItems('{"x":\n'),
    ]);
    expect(readings).toHaveLength(1);
    expect(rejected.map((r) => r.index)).toEqual([1, 2]);
    expect(rejected[1]!.errors).toEqual({ non_field_errors: ['Not valid JSON.'] });
  });

  it('skips blank NDJSON lines and takes CRLF', () => {
    expect(ndjsonItems('{"a":1}\r\n\r\n  \n{"b":2}\n')).toEqual([{ a: 1 }, { b: 2 }]);
  });
});
