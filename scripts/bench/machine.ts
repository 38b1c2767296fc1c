/** The machine a benchmark ran on, stated with its results. */
import { readFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { resolve } from 'node:path';
import { REPO_ROOT } from '../generate-portfolio.ts';

export interface Machine {
  readonly cores: number;
  readonly cpu: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly oxigraph: string;
  readonly platform: string;
  readonly loadAverage: number;
}

function packageVersion(name: string): string {
  try {
    return (
      JSON.parse(readFileSync(resolve(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }
    ).version;
  } catch {
    return '?';
  }
}

export function describeMachine(): Machine {
  return {
    cores: cpus().length,
    cpu: cpus()[0]?.model.trim() ?? 'unknown CPU',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    oxigraph: packageVersion('oxigraph'),
    platform: `${process.platform} ${process.arch}`,
    loadAverage: loadavg()[0]!,
  };
}

/** One line: `2 cores (Intel Xeon …), 24 GiB, Node v20.20.2, oxigraph 0.5.11, linux x64`. */
export const machineLine = (m: Machine): string =>
  `${m.cores} cores (${m.cpu}), ${m.memoryGiB} GiB memory, Node ${m.node}, oxigraph ${m.oxigraph}, ${m.platform}`;
