/** Small text formatting helpers for the CLI's output. */

/** 1234567 → "1,234,567" (rounded to an integer). */
export const groupDigits = (n: number): string => Math.round(n).toLocaleString('en-US');

/** Bytes in binary units: "512 B", "4.0 KiB", "12.3 MiB". */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** Seconds as "42s", "3m05s", "1h02m". */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** An ISO timestamp as "2026-01-31 14:05" (UTC); null as "-". */
export const formatTimestamp = (iso: string | null | undefined): string =>
  iso ? iso.replace('T', ' ').slice(0, 16) : '-';

/** Left-aligned columns under a header row, two spaces apart. */
export function table(header: readonly string[], rows: ReadonlyArray<readonly string[]>): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (i === cells.length - 1 ? cell : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n') + '\n';
}
