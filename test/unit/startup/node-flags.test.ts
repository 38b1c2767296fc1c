import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SERVICE_NODE_FLAGS } from '../../../src/startup/node-flags.ts';

const root = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

// Node flags cannot be set from inside the process: the two start commands that spell them out
// must say what src/startup/node-flags.ts says (the bench and the tests use that list).
describe('node flags of the service', () => {
  it('npm start passes them', () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(scripts.start).toBe(['node', ...SERVICE_NODE_FLAGS, '--import', 'tsx', 'src/main.ts'].join(' '));
  });

  it('the container image passes the same', () => {
    expect(read('docker/Dockerfile')).toContain(
      `CMD ${JSON.stringify(['node', ...SERVICE_NODE_FLAGS, '--import', 'tsx', 'src/main.ts']).replaceAll(',', ', ')}`,
    );
  });
});
