/**
 * The `bkg` command line: `npm run cli -- <command>` or `npx bkg <command>` (bin/bkg.js).
 * It talks to a running service over its REST API; `bkg --help` lists the commands.
 */
import { runCli } from './cli.ts';

// The environment is handed over whole: src/config/cli-config.ts reads the CLI's settings of it, and
// src/config/auth-config.ts those of `bkg tokens issue`.
process.exitCode = await runCli(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
