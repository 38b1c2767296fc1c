import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Client } from 'minio';
import type { S3Config } from '../../../src/config/config.ts';
import { engineUrl } from '../../support/needs.ts';

// bash .ci/run starts s3rver on loopback and exports S3_ENDPOINT and its keys; without them the S3
// variants (needs S3_ENDPOINT) are skipped (docs/development.md says how to start one by hand).
const endpoint = engineUrl('S3_ENDPOINT');

/** A fresh bucket name, so suites running at once on one server never meet. */
export const uniqueBucket = () => `bkg-test-${randomBytes(6).toString('hex')}`;

/** The environment's S3 server, with a bucket of its own. */
export function s3Config(bucket: string = uniqueBucket(), at: string = endpoint ?? ''): S3Config {
  return {
    endpoint: at,
    publicEndpoint: at,
    bucket,
    accessKey: process.env.S3_ACCESS_KEY || 'S3RVER',
    secretKey: process.env.S3_SECRET_KEY || 'S3RVER',
    region: process.env.S3_REGION || 'us-east-1',
  };
}

/** The variables that make the service use `config`. */
export function s3Env(config: S3Config): Record<string, string> {
  return {
    S3_ENDPOINT: config.endpoint,
    S3_BUCKET: config.bucket,
    S3_ACCESS_KEY: config.accessKey,
    S3_SECRET_KEY: config.secretKey,
    S3_REGION: config.region,
  };
}

function clientOf(config: S3Config): Client {
  const url = new URL(config.endpoint);
  return new Client({
    endPoint: url.hostname,
    port: Number(url.port) || 80,
    useSSL: url.protocol === 'https:',
    accessKey: config.accessKey,
    secretKey: config.secretKey,
    region: config.region,
    retryOptions: { disableRetry: true },
  });
}

/** The keys in the bucket, straight from S3. */
export async function listKeys(config: S3Config): Promise<string[]> {
  const keys: string[] = [];
  for await (const item of clientOf(config).listObjectsV2(config.bucket, '', true)) if (item.name) keys.push(item.name);
  return keys.sort();
}

/** Empties and removes the bucket (after a suite). */
export async function dropBucket(config: S3Config): Promise<void> {
  const client = clientOf(config);
  if (!(await client.bucketExists(config.bucket).catch(() => false))) return;
  // One by one: s3rver answers the multi-object delete with a 500.
  for (const key of await listKeys(config)) await client.removeObject(config.bucket, key);
  await client.removeBucket(config.bucket);
}

/** An s3rver of a test's own, in a child process it may kill. */
export interface S3rverProcess {
  readonly endpoint: string;
  readonly port: number;
  /** SIGKILL: the server dies mid-request, as a crashed S3 would. */
  kill(): Promise<void>;
  /** Starts it again on the same port and data directory. */
  restart(): Promise<void>;
}

const s3rverBin = join(dirname(createRequire(import.meta.url).resolve('s3rver/package.json')), 'bin', 's3rver.js');

function launch(dir: string, port: number): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, [s3rverBin, '-d', dir, '-a', '127.0.0.1', '-p', String(port), '--silent'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`s3rver did not start: ${output}`));
    }, 15_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /listening on [\d.]+:(\d+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, port: Number(match[1]) });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`s3rver exited with ${code}: ${output}`));
    });
  });
}

/** Starts s3rver on a free loopback port with its data in `dir`. */
export async function startS3rver(dir: string): Promise<S3rverProcess> {
  let { child, port } = await launch(dir, 0);
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    kill: stop,
    async restart() {
      await stop();
      ({ child } = await launch(dir, port));
    },
  };
}
