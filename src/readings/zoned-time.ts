/**
 * Instants as the API writes and reads them: ISO-8601 in a site's timezone with its UTC offset
 * (`2026-11-21T23:05:00+01:00`). Formatting is on the hot path of the timeseries API (up to
 * 200 × 10,000 timestamps per answer), so a zone's offset is computed once per quarter hour of
 * time (every zone changes offset on a quarter hour) and cached.
 */

const QUARTER_HOUR_MS = 15 * 60_000;
const MAX_CACHED_SLOTS = 50_000;

/** Epoch milliseconds of a UTC calendar time; unlike `Date.UTC`, years 0 to 99 are those years, not 1900 to 1999. */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const date = new Date(Date.UTC(2000, month, day, hour, minute, second, ms));
  date.setUTCFullYear(year, month, day);
  return date.getTime();
}

interface Zone {
  readonly format: Intl.DateTimeFormat;
  readonly offsets: Map<number, number>;
}

const zones = new Map<string, Zone | null>();

/** The zone named, or null if Intl does not know it. */
function zoneOf(timeZone: string): Zone | null {
  let zone = zones.get(timeZone);
  if (zone !== undefined) return zone;
  try {
    const format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      // Wall-clock times just before 0001-01-01 in zones west of UTC are in 1 BC.
      era: 'short',
    });
    zone = { format, offsets: new Map() };
  } catch {
    zone = null;
  }
  zones.set(timeZone, zone);
  return zone;
}

/** Whether `timeZone` is an IANA zone name this runtime knows. */
export function isKnownTimeZone(timeZone: string): boolean {
  return zoneOf(timeZone) !== null;
}

function computeOffset(zone: Zone, ms: number): number {
  const parts: Record<string, number> = {};
  let bc = false;
  for (const part of zone.format.formatToParts(new Date(ms))) {
    if (part.type === 'era') bc = part.value === 'BC';
    else if (part.type !== 'literal') parts[part.type] = Number(part.value);
  }
  const wall = utc(
    bc ? 1 - parts.year! : parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
  );
  const whole = ms - (((ms % 1000) + 1000) % 1000);
  return Math.round((wall - whole) / 60_000);
}

/** The zone's UTC offset in minutes at the instant (0 for an unknown zone). */
export function zoneOffsetMinutes(ms: number, timeZone: string): number {
  const zone = zoneOf(timeZone);
  if (!zone) return 0;
  const slot = Math.floor(ms / QUARTER_HOUR_MS);
  let offset = zone.offsets.get(slot);
  if (offset === undefined) {
    offset = computeOffset(zone, slot * QUARTER_HOUR_MS);
    if (zone.offsets.size >= MAX_CACHED_SLOTS) zone.offsets.clear();
    zone.offsets.set(slot, offset);
  }
  return offset;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** `+01:00`, `-07:00`, `+05:30`, `+00:00`. */
function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * The instant as ISO-8601 in the zone with its offset; milliseconds only when there are some.
 * An unknown zone is treated as UTC.
 */
export function formatInZone(ms: number, timeZone: string): string {
  const offset = zoneOffsetMinutes(ms, timeZone);
  const local = new Date(ms + offset * 60_000).toISOString();
  const wall = local.endsWith('.000Z') ? local.slice(0, -5) : local.slice(0, -1);
  return wall + offsetText(offset);
}

// Date, optional time (seconds and fractions optional), optional offset.
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

interface IsoParts {
  /** The wall-clock time read as if it were UTC. */
  readonly wall: number;
  /** The stated offset in minutes, if any. */
  readonly offset: number | undefined;
}

function parseIsoParts(text: string): IsoParts | undefined {
  const m = ISO.exec(text.trim());
  if (!m) return undefined;
  const [year, month, day, hour = 0, minute = 0, second = 0] = [m[1], m[2], m[3], m[4], m[5], m[6]].map((v) =>
    v === undefined ? undefined : Number(v),
  );
  const fraction = m[7] === undefined ? 0 : Math.floor(Number(`0.${m[7]}`) * 1000);
  if (month! < 1 || month! > 12 || day! < 1 || day! > 31 || hour > 23 || minute > 59 || second > 59) return undefined;
  const wall = utc(year!, month! - 1, day!, hour, minute, second, fraction);
  // The calendar rolls 2026-02-30 over into March: such a date does not exist.
  if (new Date(wall).getUTCDate() !== day) return undefined;
  let offset: number | undefined;
  const zone = m[8];
  if (zone !== undefined) {
    if (zone === 'Z' || zone === 'z') offset = 0;
    else {
      const digits = zone.slice(1).replace(':', '');
      const hours = Number(digits.slice(0, 2));
      const minutes = digits.length > 2 ? Number(digits.slice(2)) : 0;
      if (hours > 23 || minutes > 59) return undefined;
      offset = (zone[0] === '-' ? -1 : 1) * (hours * 60 + minutes);
    }
  }
  return { wall, offset };
}

/** An ISO-8601 timestamp that states its offset (`Z` or `±hh:mm`), as epoch milliseconds; else undefined. */
export function parseInstant(text: string): number | undefined {
  const parts = parseIsoParts(text);
  if (!parts || parts.offset === undefined) return undefined;
  return parts.wall - parts.offset * 60_000;
}

/**
 * An ISO-8601 timestamp as epoch milliseconds; without an offset it is wall-clock time in the
 * zone (in a DST gap or overlap, the offset in force just before is used).
 */
export function parseInZone(text: string, timeZone: string): number | undefined {
  const parts = parseIsoParts(text);
  if (!parts) return undefined;
  if (parts.offset !== undefined) return parts.wall - parts.offset * 60_000;
  const guess = parts.wall - zoneOffsetMinutes(parts.wall, timeZone) * 60_000;
  return parts.wall - zoneOffsetMinutes(guess, timeZone) * 60_000;
}
