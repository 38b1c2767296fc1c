import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

// What graphql-js sees when it loads after the entry point's first import.
function nodeEnvSeenByLibraries(env: Record<string, string>): string {
  const script = "import './src/startup/production-default.ts'; console.log(process.env.NODE_ENV);";
  const base = Object.fromEntries(Object.entries(process.env).filter(([key]) => key !== 'NODE_ENV')) as Record<
    string,
    string
  >;
  return execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    env: { ...base, ...env },
    encoding: 'utf8',
  }).trim();
}

describe('NODE_ENV default for libraries', () => {
  it('is production when unset, as the service configuration defaults to', () => {
    expect(nodeEnvSeenByLibraries({})).toBe('production');
  });

  it('keeps a value that is set', () => {
    expect(nodeEnvSeenByLibraries({ NODE_ENV: 'development' })).toBe('development');
  });

  it('is the first import of the service entry point', () => {
    const main = readFileSync(new URL('../../../src/main.ts', import.meta.url), 'utf8');
    expect(main.match(/^import .*$/m)?.[0]).toBe("import './startup/production-default.ts';");
  });
});
