/**
 * The `bkg` command line: `npm run cli -- <command>` or `npx bkg <command>` (bin/bkg.js).
 * It talks to a running service over its REST API; `bkg --help` lists the commands.
 */
import { runCli } from './cli.ts';

// The CLI is its own program: it reads its environment here, not through src/config.
process.exitCode = await runCli(process.argv.slice(2), { env: process.env, stdout: process.stdout, stderr: process.stderr });
