import { pino, type Logger } from 'pino';
import type { Config } from '../config/config.ts';
import { currentRequestScope } from './request-scope.ts';

export type { Logger };

/**
 * The structured (JSON) logger every module writes to. A line written while a request is being
 * served carries its `requestId` and `client`, whichever module writes it.
 */
export function createLogger(config: Pick<Config, 'logLevel'>, destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    level: config.logLevel,
    base: { service: 'bkg' },
    mixin: () => {
      const scope = currentRequestScope();
      if (!scope) return {};
      return scope.client ? { requestId: scope.requestId, client: scope.client } : { requestId: scope.requestId };
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
