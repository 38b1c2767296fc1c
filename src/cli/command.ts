import type { ApiClient } from './api-client.ts';
import type { ProgressStream } from './progress.ts';
import { UsageError } from './errors.ts';

/** One option of a command, for node:util parseArgs and for its help. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  /** The value's placeholder in help (`--name <name>`). */
  readonly value?: string;
  readonly description: string;
}

/** An output stream: stdout or stderr, or a stand-in. */
export type Output = NodeJS.WritableStream & ProgressStream;

/** What a command runs with. */
export interface CommandContext {
  /** The positional arguments, in the order of `Command.args`. */
  readonly args: readonly string[];
  /** Option values by name (strings or booleans, as declared). */
  readonly options: Readonly<Record<string, string | boolean | undefined>>;
  readonly api: ApiClient;
  /** The CLI's environment variables, for commands that work without the service (`bkg tokens issue`). */
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Print the service's JSON answers instead of text. */
  readonly json: boolean;
  readonly stdout: Output;
  readonly stderr: Output;
}

/** A leaf command: `bkg sites create`, `bkg load`. */
export interface Command {
  /** The words that name it: ['sites', 'create']. */
  readonly path: readonly string[];
  readonly summary: string;
  /** Positional argument names, required but for one ending in `?`, which may be left out (the last): ['siteId', 'file']. */
  readonly args: readonly string[];
  readonly options: Readonly<Record<string, OptionSpec>>;
  /** Extra help text: details and examples. */
  readonly details?: string;
  run(context: CommandContext): Promise<void>;
}

/** The option's string value, or undefined. */
export const stringOption = (context: CommandContext, name: string): string | undefined => {
  const value = context.options[name];
  return typeof value === 'string' ? value : undefined;
};

/** The option's boolean value. */
export const flag = (context: CommandContext, name: string): boolean => context.options[name] === true;

/** A usage error that points at this command's help. */
export const usage = (command: Command, message: string) => new UsageError(message, command.path.join(' '));

/** `--opt <value>` as shown in help. */
export const optionLabel = (name: string, spec: OptionSpec): string =>
  `${spec.short ? `-${spec.short}, ` : ''}--${name}${spec.type === 'string' ? ` <${spec.value ?? name}>` : ''}`;

/** The usage line: `bkg sites create <id> [options]`. */
export const usageLine = (command: Command): string =>
  [
    'bkg',
    ...command.path,
    ...command.args.map((a) => (a.endsWith('?') ? `[${a.slice(0, -1)}]` : `<${a}>`)),
    Object.keys(command.options).length > 0 ? '[options]' : '',
  ]
    .filter(Boolean)
    .join(' ');

/** Options as aligned help lines. */
export function optionLines(options: Readonly<Record<string, OptionSpec>>): string {
  const labels = Object.entries(options).map(([name, spec]) => [optionLabel(name, spec), spec.description] as const);
  const width = Math.max(...labels.map(([label]) => label.length));
  return labels.map(([label, description]) => `  ${label.padEnd(width)}  ${description}`).join('\n');
}
