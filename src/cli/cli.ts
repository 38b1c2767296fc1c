import { parseArgs } from 'node:util';
import { cliConfig } from '../config/cli-config.ts';
import { ApiClient } from './api-client.ts';
import { optionLines, usageLine, type Command, type OptionSpec, type Output } from './command.ts';
import { COMMANDS } from './commands/index.ts';
import { ApiError, CliError, UsageError } from './errors.ts';

/** What the CLI runs in: its environment variables and output streams. */
export interface CliEnvironment {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly stdout: Output;
  readonly stderr: Output;
}

export const DEFAULT_URL = 'http://localhost:4000';

const GLOBAL_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  url: { type: 'string', description: `the service's base URL (env BKG_URL, default ${DEFAULT_URL})` },
  token: { type: 'string', description: 'bearer token: an API key (env BKG_TOKEN, else BKG_ADMIN_KEY)' },
  json: { type: 'boolean', description: "print the service's JSON answers instead of text" },
  help: { type: 'boolean', short: 'h', description: 'show help' },
};

/** Global options that take a value, skipped when looking for the command words. */
const VALUE_OPTIONS = new Set(['--url', '--token']);

/** Command words that only group others: `bkg sites …`, `bkg keys …`. */
const GROUPS = new Set(COMMANDS.filter((c) => c.path.length > 1).map((c) => c.path[0]!));

const EXIT_CODES = `Exit status: 0 done; 1 the arguments or the request were refused (the service's message
is printed); 2 the service could not be reached.`;

function mainHelp(): string {
  const rows = COMMANDS.map(
    (c) =>
      [
        usageLine(c)
          .replace(/^bkg /, '')
          .replace(/ \[options\]$/, ''),
        c.summary,
      ] as const,
  );
  const width = Math.max(...rows.map(([u]) => u.length));
  return `bkg: manage a building knowledge graph service over its REST API.

Usage: bkg <command> [options]
       npm run cli -- <command> [options]

Commands:
${rows.map(([u, s]) => `  ${u.padEnd(width)}  ${s}`).join('\n')}

Global options:
${optionLines(GLOBAL_OPTIONS)}

Run "bkg <command> --help" for a command's options.

${EXIT_CODES}
`;
}

function groupHelp(group: string): string {
  const commands = COMMANDS.filter((c) => c.path[0] === group);
  const rows = commands.map(
    (c) =>
      [
        usageLine(c)
          .replace(/^bkg /, '')
          .replace(/ \[options\]$/, ''),
        c.summary,
      ] as const,
  );
  const width = Math.max(...rows.map(([u]) => u.length));
  return `Usage: bkg ${group} <command> [options]

Commands:
${rows.map(([u, s]) => `  ${u.padEnd(width)}  ${s}`).join('\n')}

Run "bkg ${group} <command> --help" for a command's options.
`;
}

function commandHelp(command: Command): string {
  const options = Object.keys(command.options).length > 0 ? `\nOptions:\n${optionLines(command.options)}\n` : '';
  const details = command.details ? `\n${command.details}\n` : '';
  return `Usage: ${usageLine(command)}

${command.summary}.
${options}
Global options:
${optionLines(GLOBAL_OPTIONS)}
${details}`;
}

/** The leading command words (up to two) and where they are in argv. */
function commandWords(argv: readonly string[]): Array<{ word: string; index: number }> {
  const found: Array<{ word: string; index: number }> = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (arg.startsWith('-')) {
      if (VALUE_OPTIONS.has(arg)) i += 1;
      continue;
    }
    found.push({ word: arg, index: i });
    const first = found[0]!.word;
    if (found.length === 2 || (!GROUPS.has(first) && first !== 'help')) break;
  }
  return found;
}

/** node:util parseArgs' errors, reworded for people. */
function parseError(error: unknown, command: Command): UsageError {
  const e = error as { code?: string; message?: string };
  const unknown = /Unknown option '([^']+)'/.exec(e.message ?? '');
  const message =
    e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown
      ? `Unknown option "${unknown[1]}".`
      : (e.message ?? String(error));
  return new UsageError(message, command.path.join(' '));
}

function resolveUrl(given: string | undefined, fromEnv: string | undefined): string {
  const url = given || fromEnv || DEFAULT_URL;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new UsageError(`The service URL must be an http or https URL, got "${url}".`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new UsageError(`The service URL must be an http or https URL, got "${url}".`);
  return url;
}

/** Runs one command line; resolves with the exit status. Never throws. */
export async function runCli(argv: readonly string[], io: CliEnvironment): Promise<number> {
  const { stdout, stderr } = io;
  const settings = cliConfig(io.env);
  try {
    const words = commandWords(argv);
    const wantsHelp = argv.some((a) => a === '--help' || a === '-h');
    const [first, second] = words;

    if (first === undefined) {
      (wantsHelp ? stdout : stderr).write(mainHelp());
      return wantsHelp ? 0 : 1;
    }
    if (first.word === 'help') {
      const rest = argv.slice(first.index + 1).filter((a) => !a.startsWith('-'));
      const command = COMMANDS.find((c) => c.path.join(' ') === rest.slice(0, c.path.length).join(' '));
      if (command) stdout.write(commandHelp(command));
      else if (rest[0] && GROUPS.has(rest[0])) stdout.write(groupHelp(rest[0]));
      else if (rest.length > 0) throw new UsageError(`Unknown command "${rest.join(' ')}".`, '');
      else stdout.write(mainHelp());
      return 0;
    }
    if (GROUPS.has(first.word) && second === undefined) {
      (wantsHelp ? stdout : stderr).write(groupHelp(first.word));
      return wantsHelp ? 0 : 1;
    }

    const path = words.map((w) => w.word);
    const command = COMMANDS.find((c) => c.path.join(' ') === path.slice(0, c.path.length).join(' '));
    if (!command)
      throw new UsageError(`Unknown command "${path.join(' ')}".`, GROUPS.has(first.word) ? first.word : '');

    const used = new Set(words.slice(0, command.path.length).map((w) => w.index));
    const rest = argv.filter((_, i) => !used.has(i));
    let parsed: ReturnType<typeof parseArgs>;
    try {
      parsed = parseArgs({
        args: [...rest],
        options: { ...GLOBAL_OPTIONS, ...command.options },
        allowPositionals: true,
        strict: true,
      });
    } catch (error) {
      throw parseError(error, command);
    }
    const options = parsed.values as Record<string, string | boolean | undefined>;
    if (options.help) {
      stdout.write(commandHelp(command));
      return 0;
    }
    // An argument named `name?` may be left out.
    const missing = command.args.slice(parsed.positionals.length).filter((a) => !a.endsWith('?'));
    if (missing.length > 0)
      throw new UsageError(`Missing ${missing.map((a) => `<${a}>`).join(' ')}.`, command.path.join(' '));
    const extra = parsed.positionals.slice(command.args.length);
    if (extra.length > 0) throw new UsageError(`Unexpected argument "${extra[0]}".`, command.path.join(' '));

    const url = resolveUrl(options.url as string | undefined, settings.url);
    const token = (options.token as string | undefined) || settings.token;
    await command.run({
      args: parsed.positionals,
      options,
      api: new ApiClient(url, token),
      env: io.env,
      json: options.json === true,
      stdout,
      stderr,
    });
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      const help =
        error.helpFor === undefined ? undefined : error.helpFor ? `bkg ${error.helpFor} --help` : 'bkg --help';
      stderr.write(`Error: ${error.message}\n${help ? `Run "${help}" for usage.\n` : ''}`);
      return error.exitCode;
    }
    if (error instanceof ApiError) {
      stderr.write(`Error (HTTP ${error.status}): ${error.message}\n`);
      return error.exitCode;
    }
    if (error instanceof CliError) {
      stderr.write(`Error: ${error.message}\n`);
      return error.exitCode;
    }
    stderr.write(`Error: ${error instanceof Error ? error.message : String(error)}\n`);
    if (settings.debug && error instanceof Error && error.stack) stderr.write(`${error.stack}\n`);
    return 1;
  }
}
