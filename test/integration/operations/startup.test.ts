// Start-up refuses a configuration it cannot run with: one clear line per problem on stderr, no
// stack trace, a non-zero exit (2 for invalid values, 1 for engines it cannot reach).
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, spawnService } from '../../support/spawn-service.ts';

describe('start-up validation', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bkg-startup-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const noStackTrace = (lines: string[]) => expect(lines.filter((line) => /^\s+at /.test(line))).toEqual([]);

  it('invalid values: one "config:" line per variable, exit 2', async () => {
    const service = spawnService({
      BKG_DATA_DIR: dir,
      PORT: 'eighty',
      DATABASE_URL: 'mysql://db.example/records',
      BKG_SHUTDOWN_GRACE_SECONDS: '-5',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
      BKG_METRICS_TOKEN: 'short',
    });
    expect(await service.exited).toBe(2);
    expect(service.stderr).toEqual([
      'config: PORT must be an integer from 0 to 65535, got "eighty"',
      'config: DATABASE_URL must be a postgres or postgresql URL',
      'config: S3_ACCESS_KEY and S3_SECRET_KEY are required when S3_ENDPOINT is set',
      'config: BKG_METRICS_TOKEN must be at least 16 characters long',
      'config: BKG_SHUTDOWN_GRACE_SECONDS must be an integer from 0 to 3600, got "-5"',
    ]);
    noStackTrace(service.stderr);
  });

  it('engines it cannot reach or open: one "startup:" line each, all at once, exit 1', async () => {
    const port = await closedPort();
    const service = spawnService({
      BKG_DATA_DIR: dir,
      BKG_DEMO_FIXTURE: '',
      LOG_LEVEL: 'warn',
      BKG_ONTOLOGY: join(dir, 'no-such-ontology.ttl'),
      DATABASE_URL: `postgres://bkg:secret-password@127.0.0.1:${port}/records`,
      REDIS_URL: `redis://127.0.0.1:${port}`,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_ACCESS_KEY: 'key',
      S3_SECRET_KEY: 'secret-s3-key',
    });
    expect(await service.exited).toBe(1);
    expect(service.stderr.map((line) => line.split(':').slice(0, 2).join(':'))).toEqual([
      'startup: ontology',
      'startup: database',
      'startup: redis',
      'startup: file store',
    ]);
    expect(service.stderr[0]).toContain('no-such-ontology.ttl');
    for (const line of service.stderr.slice(1)) expect(line).toContain(`ECONNREFUSED 127.0.0.1:${port}`);
    expect(service.stderr.join('\n')).not.toMatch(/secret-password|secret-s3-key/);
    noStackTrace(service.stderr);
  });

  describe('a port already in use', () => {
    let taken: Server;
    beforeAll(async () => {
      taken = createServer();
      await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    });
    afterAll(() => new Promise((resolve) => taken.close(resolve)));

    it('is one "startup:" line naming the address, exit 1', async () => {
      const port = (taken.address() as { port: number }).port;
      const service = spawnService({
        BKG_DATA_DIR: dir,
        BKG_DEMO_FIXTURE: '',
        LOG_LEVEL: 'warn',
        HOST: '127.0.0.1',
        PORT: String(port),
      });
      expect(await service.exited).toBe(1);
      expect(service.stderr).toEqual([`startup: listen EADDRINUSE: address already in use 127.0.0.1:${port}`]);
    });
  });
});
