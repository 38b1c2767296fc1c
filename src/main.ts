// First: libraries read NODE_ENV when they load.
import './startup/production-default.ts';
import type { Server } from 'node:http';
import { loadConfig, ConfigError, type Config } from './config/config.ts';
import { createLogger, type Logger } from './log/logger.ts';
import { createApp } from './http/create-app.ts';
import { gracefulShutdown } from './http/graceful-shutdown.ts';
import { listen } from './http/listen.ts';
import { createServices } from './services.ts';
import { describeFailure, StartupError } from './startup/startup-error.ts';

/** Prints one line per start-up problem on stderr (no stack trace) and exits. */
function refuseToStart(prefix: string, problems: readonly string[], code: number): never {
  for (const problem of problems) console.error(`${prefix}: ${problem}`);
  process.exit(code);
}

/** The configuration, or exit 2 with one line per invalid variable. */
function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) refuseToStart('config', error.problems, 2);
    throw error;
  }
}

/** Listens on the configured address; a port in use or an address that cannot be bound is a start-up problem. */
async function serve(app: ReturnType<typeof createApp>, config: Config, logger: Logger): Promise<Server> {
  const { server, port } = await listen(app, config.port, config.host);
  logger.info(
    { port, graphiql: `http://localhost:${port}/graphql`, docs: `http://localhost:${port}/docs` },
    'listening',
  );
  return server;
}

/** Starts the service on the configured engines and stops it gracefully on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = configOrExit();
  const logger = createLogger(config);
  let stop: (reason: string) => Promise<void>;
  try {
    const services = await createServices(config, logger);
    const server = await serve(createApp(config, services, logger), config, logger);
    stop = gracefulShutdown(server, {
      graceMs: config.shutdownGraceSeconds * 1000,
      logger,
      close: () => services.close(),
    });
  } catch (error) {
    logger.debug({ err: error }, 'start-up failed');
    refuseToStart('startup', error instanceof StartupError ? error.problems : [describeFailure(error)], 1);
  }
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(1);
    }
    stopping = true;
    // Past the grace period and a margin for closing the engines, exit whatever still hangs.
    setTimeout(
      () => {
        logger.error('shutdown did not finish in time; exiting');
        process.exit(1);
      },
      config.shutdownGraceSeconds * 1000 + 15_000,
    ).unref();
    stop(signal).then(
      () => process.exit(0),
      (error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}

await main();
