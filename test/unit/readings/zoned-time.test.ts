import { describe, expect, it } from 'vitest';
import {
  formatInZone,
  isKnownTimeZone,
  parseInZone,
  parseInstant,
  zoneOffsetMinutes,
} from '../../../src/readings/zoned-time.ts';

describe('formatInZone', () => {
  it('writes the instant with the zone’s offset, as docs/readings.md’s example', () => {
    expect(formatInZone(Date.parse('2026-11-21T22:05:00Z'), 'Europe/Berlin')).toBe('2026-11-21T23:05:00+01:00');
  });

  it('follows daylight saving time: Berlin +02:00 in summer, Los Angeles -07:00 / -08:00', () => {
    expect(formatInZone(Date.parse('2026-07-01T12:00:00Z'), 'Europe/Berlin')).toBe('2026-07-01T14:00:00+02:00');
    expect(formatInZone(Date.parse('2026-07-01T12:00:00Z'), 'America/Los_Angeles')).toBe('2026-07-01T05:00:00-07:00');
    expect(formatInZone(Date.parse('2026-01-01T12:00:00Z'), 'America/Los_Angeles')).toBe('2026-01-01T04:00:00-08:00');
  });

  it('switches exactly at the transition (Berlin, 2026-03-29 01:00Z)', () => {
    const switchAt = Date.parse('2026-03-29T01:00:00Z');
    expect(formatInZone(switchAt - 1000, 'Europe/Berlin')).toBe('2026-03-29T01:59:59+01:00');
    expect(formatInZone(switchAt, 'Europe/Berlin')).toBe('2026-03-29T03:00:00+02:00');
  });

  it('keeps milliseconds when there are some; half-hour zones; UTC as +00:00; an unknown zone as UTC', () => {
    expect(formatInZone(Date.parse('2026-01-01T00:00:00.250Z'), 'UTC')).toBe('2026-01-01T00:00:00.250+00:00');
    expect(formatInZone(Date.parse('2026-01-01T00:00:00Z'), 'Asia/Kolkata')).toBe('2026-01-01T05:30:00+05:30');
    expect(formatInZone(Date.parse('2026-01-01T00:00:00Z'), 'Mars/Olympus')).toBe('2026-01-01T00:00:00+00:00');
    expect(isKnownTimeZone('Mars/Olympus')).toBe(false);
    expect(isKnownTimeZone('Europe/Berlin')).toBe(true);
  });

  it('round-trips through Date.parse for every hour of a year', () => {
    const start = Date.parse('2026-01-01T00:00:00Z');
    for (let t = start; t < start + 365 * 86_400_000; t += 3_600_000 + 61_000) {
      for (const zone of ['Europe/Berlin', 'America/Los_Angeles', 'Australia/Lord_Howe'])
        expect(Date.parse(formatInZone(t, zone))).toBe(t);
    }
  });

  it('writes instants of the first centuries with the zone’s offset of the time, into 1 BC west of UTC', () => {
    expect(formatInZone(Date.parse('0050-06-01T12:00:00Z'), 'UTC')).toBe('0050-06-01T12:00:00+00:00');
    expect(Date.parse(formatInZone(-62_135_596_800_000, 'America/New_York'))).toBe(-62_135_596_800_000);
    expect(formatInZone(-62_135_596_800_000, 'America/New_York')).toMatch(/^0000-12-31T19:/);
  });

  it('offsets in minutes', () => {
    expect(zoneOffsetMinutes(Date.parse('2026-07-01T00:00:00Z'), 'Europe/Berlin')).toBe(120);
    expect(zoneOffsetMinutes(Date.parse('2026-01-01T00:00:00Z'), 'America/Los_Angeles')).toBe(-480);
  });
});

describe('parseInstant', () => {
  it.each([
    ['2026-11-21T23:05:00+01:00', Date.parse('2026-11-21T22:05:00Z')],
    ['2026-11-21T22:05:00Z', Date.parse('2026-11-21T22:05:00Z')],
    ['2026-11-21T22:05:00.123456Z', Date.parse('2026-11-21T22:05:00.123Z')],
    ['2026-11-21T17:05-0500', Date.parse('2026-11-21T22:05:00Z')],
    ['2026-11-21 22:05:00z', Date.parse('2026-11-21T22:05:00Z')],
  ])('%s', (text, ms) => {
    expect(parseInstant(text)).toBe(ms);
  });

  it('reads years 0 to 99 as themselves (Date.UTC would make them 1900 to 1999)', () => {
    expect(parseInstant('0050-06-01T00:00:00Z')).toBe(Date.parse('0050-06-01T00:00:00Z'));
    expect(parseInstant('0001-01-01T00:00:00Z')).toBe(-62_135_596_800_000);
    expect(parseInstant('0000-02-29T00:00:00Z')).toBe(Date.parse('0000-02-29T00:00:00Z'));
  });

  it.each([
    '2026-11-21T22:05:00',
    '2026-02-30T00:00:00Z',
    '2026-11-21T24:00:00Z',
    '21.11.2026',
    'now',
    '2026-11-21T22:05:00+25:00',
    '',
  ])('refuses %j', (text) => {
    expect(parseInstant(text)).toBeUndefined();
  });
});

describe('parseInZone', () => {
  it('reads a time without an offset as wall-clock time in the zone', () => {
    expect(parseInZone('2026-01-15T00:00:00', 'America/Los_Angeles')).toBe(Date.parse('2026-01-15T08:00:00Z'));
    expect(parseInZone('2026-07-15', 'Europe/Berlin')).toBe(Date.parse('2026-07-14T22:00:00Z'));
    expect(parseInZone('2026-07-15T00:00:00Z', 'Europe/Berlin')).toBe(Date.parse('2026-07-15T00:00:00Z'));
  });

  it('a wall-clock time in the spring-forward gap lands after it', () => {
    expect(formatInZone(parseInZone('2026-03-29T02:30:00', 'Europe/Berlin')!, 'Europe/Berlin')).toBe(
      '2026-03-29T03:30:00+02:00',
    );
  });
});
