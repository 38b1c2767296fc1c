import { stringOption, usage, type Command, type CommandContext } from '../command.ts';
import { formatTimestamp, groupDigits, table } from '../format.ts';
import type { GraphVersion } from '../../history/version-store.ts';

export type { GraphVersion };

/** A version number given on the command line (an argument or an option); usage error otherwise. */
export function versionArgument(command: Command, value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,9}$/.test(value)) throw usage(command, `${name} must be a version number, got "${value}".`);
  return Number(value);
}

/** `--if-match V`: the version the change is based on. */
export const ifMatchOption = {
  'if-match': {
    type: 'string',
    value: 'version',
    description: 'refuse the change (412) unless the graph is still at this version',
  },
} as const;

/** `--message TEXT`: why, kept with the version. */
export const messageOption = {
  message: { type: 'string', short: 'm', value: 'text', description: 'why: kept with the version the change makes' },
} as const;

export const ifMatchOf = (command: Command, context: CommandContext) =>
  versionArgument(command, stringOption(context, 'if-match'), '--if-match');

/** Who made a version, as one cell. */
const author = (v: GraphVersion) => (v.by.kind === 'key' ? `key ${v.by.name ?? v.by.id}` : `${v.by.kind} ${v.by.id}`);

/** Versions as a table, newest first. */
export function versionsTable(versions: readonly GraphVersion[]): string {
  return table(
    ['version', 'at', 'by', 'via', '+', '-', 'triples', 'message'],
    versions.map((v) => [
      `${v.version}${v.kept ? '' : '*'}`,
      formatTimestamp(v.at),
      author(v),
      v.via,
      groupDigits(v.added),
      groupDigits(v.removed),
      groupDigits(v.triples),
      v.message ?? '',
    ]),
  );
}
