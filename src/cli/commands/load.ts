import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { flag, stringOption, usage, type Command } from '../command.ts';
import { CommandError } from '../errors.ts';
import { rdfFileFormat } from '../rdf-file-format.ts';
import { groupDigits } from '../format.ts';
import { formatModelReading } from '../model-reading-text.ts';
import type { ModelReading } from '../../ontology/model-reading.ts';
import { serviceProgressNote, UploadProgress, type ServiceProgress } from '../progress.ts';
import { sitePath } from './site-record.ts';

/** The service's answer to `PUT`/`POST /api/v1/sites/{id}/graph`. */
interface LoadResult {
  site: string;
  /** Triples in the site's graph after the load. */
  triples: number;
  bytes: number;
  /** Seconds the service took, from the first byte received to the graph stored. */
  seconds: number;
}

export const load: Command = {
  path: ['load'],
  summary: "Upload a graph file into a site (replaces the site's graph; --merge adds to it)",
  args: ['siteId', 'file'],
  options: {
    merge: { type: 'boolean', description: 'add the triples to the graph instead of replacing it' },
    format: {
      type: 'string',
      value: 'format',
      description: 'turtle, ntriples, nquads or jsonld (default: from the extension)',
    },
    quiet: { type: 'boolean', short: 'q', description: 'no progress on stderr' },
  },
  details: `The file is streamed, never read whole. While it uploads, stderr shows bytes sent out of
the total and the rate (a bar on a terminal, a line every 2 s otherwise). Then the service
parses and stores it, telling how far it is (bytes parsed of the total, the rate) on the same
line, and the answer is printed: the triples in the site's graph, the seconds
the service took and triples/s (with --merge these count the whole graph, not only the file).

Extensions: .ttl .turtle (turtle), .nt (ntriples), .nq (nquads), .jsonld .json (jsonld).

Example:
  bkg load hq ./hq.ttl
  bkg load hq ./extra.nt --merge`,
  async run(context) {
    const { api, json, stdout, stderr } = context;
    const [siteId, file] = context.args as [string, string];
    const format = rdfFileFormat(file, stringOption(context, 'format'));
    if ('error' in format) throw usage(load, format.error);
    const contentType = format.type;
    const size = await stat(file).then(
      (s) => {
        if (!s.isFile()) throw new CommandError(`"${file}" is not a file.`);
        return s.size;
      },
      (error: NodeJS.ErrnoException) => {
        throw new CommandError(
          error.code === 'ENOENT' ? `No such file: "${file}".` : `Cannot read "${file}": ${error.message}`,
        );
      },
    );

    const merge = flag(context, 'merge');
    const quiet = flag(context, 'quiet');
    const stream = createReadStream(file);
    const progress = new UploadProgress(stderr, basename(file), size);
    let stopWaiting = () => {};
    const answer = api.call<LoadResult>(merge ? 'POST' : 'PUT', `${sitePath(siteId)}/graph`, {
      body: { stream, contentType, length: size },
    });
    if (!quiet) {
      stream.on('data', (chunk) => progress.add(chunk.length));
      stream.once('end', () => {
        progress.finish();
        if (!progress.isTty) stderr.write(`uploaded ${progress.summary()}\n`);
        stopWaiting = serviceProgressNote(stderr, basename(file), () =>
          api.call<ServiceProgress>('GET', `${sitePath(siteId)}/graph/load`).catch(() => undefined),
        );
      });
    }
    let result: LoadResult;
    try {
      result = await answer;
    } catch (error) {
      if (!quiet) progress.abandon();
      throw error;
    } finally {
      stopWaiting();
    }

    const rate = result.seconds > 0 ? result.triples / result.seconds : undefined;
    // The load answers once the graph is stored; the reading follows (it waits for the site profile).
    const reading = () => api.call<ModelReading>('GET', `${sitePath(siteId)}/graph/reading`);
    if (json) {
      stdout.write(
        `${JSON.stringify({ ...result, triples_per_second: rate === undefined ? null : Math.round(rate), reading: await reading() })}\n`,
      );
      return;
    }
    stdout.write(
      `${merge ? 'Merged' : 'Loaded'} ${basename(file)} into site "${result.site}": ${groupDigits(result.triples)} triples in the graph, ` +
        `${result.seconds.toFixed(3)} s, ${rate === undefined ? '-' : groupDigits(rate)} triples/s\n`,
    );
    stdout.write(formatModelReading(await reading()));
  },
};
