import { loadConfig, ConfigError } from './config/config.ts';
import { createLogger } from './log/logger.ts';
import { createApp } from './http/create-app.ts';
import { createServices } from './services.ts';

/** Starts the service on the configured engines and stops it cleanly on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const problem of error.problems) console.error(`config: ${problem}`);
      process.exit(2);
    }
    throw error;
  }
  const logger = createLogger(config);
  const services = await createServices(config, logger);
  const server = createApp(config, services, logger).listen(config.port, config.host, () => {
    const address = server.address();
    const port = typeof address === 'object' && address ? address.port : config.port;
    logger.info({ port, graphiql: `http://localhost:${port}/graphql` }, 'listening');
  });
  const stop = (signal: string) => {
    logger.info({ signal }, 'shutting down');
    server.close(() => void services.close().then(() => process.exit(0)));
    setTimeout(() => process.exit(1), 10_000).unref();
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

await main();
