import { pino, type Logger } from 'pino';
import type { Config } from '../config/config.ts';

export type { Logger };

/** The structured (JSON) logger every module writes to. */
export function createLogger(config: Pick<Config, 'logLevel'>): Logger {
  return pino({ level: config.logLevel, base: { service: 'bkg' } });
}
