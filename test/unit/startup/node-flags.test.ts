import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), 'utf8');

// The young generation's size is a node flag, so each way of starting the service must pass it.
describe('node flags of the service', () => {
  it('npm start passes them', () => {
    const { scripts } = JSON.parse(read('package.json')) as { scripts: Record<string, string> };
    expect(scripts.start).toBe('node --max-semi-space-size=64 --import tsx src/main.ts');
  });

  it('the container image passes the same', () => {
    expect(read('docker/Dockerfile')).toContain('CMD ["node", "--max-semi-space-size=64", "--import", "tsx", "src/main.ts"]');
  });

  it('the benchmark measures the service with them', () => {
    expect(read('scripts/bench/bench.ts')).toContain("spawn(process.execPath, ['--max-semi-space-size=64', '--import', 'tsx'");
  });
});
