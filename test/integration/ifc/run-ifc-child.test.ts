/**
 * The IFC child process and its bounds: it is killed past its memory or its time, and a failure
 * says which limit was hit, in words fit for the file record.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IfcJobError, runIfcChild } from '../../../src/ifc/run-ifc-child.ts';
import { smallBuildingIfc } from './small-building.ts';

describe('runIfcChild', () => {
  let dir: string;
  let ifc: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'bkg-ifc-child-'));
    ifc = join(dir, 'small.ifc');
    await writeFile(ifc, smallBuildingIfc('IFC4'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.skipIf(process.platform !== 'linux')('kills a child whose resident memory passes the limit', async () => {
    // web-ifc alone takes more than 100 MB once loaded, so this child is stopped on its way.
    const failure = await runIfcChild('read', ifc, dir, { memoryMb: 100, timeoutMs: 60_000 }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(IfcJobError);
    expect((failure as Error).message).toBe('needed more than 100 MB of memory (BKG_IFC_MEMORY_MB)');
  });

  it.skipIf(process.platform === 'win32')('kills a child that outlives its deadline', async () => {
    // A named pipe nobody writes to: the child waits on it for ever.
    const stuck = join(dir, 'stuck.ifc');
    execFileSync('mkfifo', [stuck]);
    const failure = await runIfcChild('read', stuck, dir, { memoryMb: 4096, timeoutMs: 1000 }).catch(
      (error: unknown) => error,
    );
    expect((failure as Error).message).toBe('took longer than 1 s (BKG_IFC_TIMEOUT_SECONDS)');
  });

  it('kills a child when the service stops', async () => {
    const stopping = new AbortController();
    const run = runIfcChild('read', ifc, dir, { memoryMb: 4096, timeoutMs: 60_000, signal: stopping.signal });
    stopping.abort();
    await expect(run).rejects.toThrow('stopped: the service shut down');
  });
});
