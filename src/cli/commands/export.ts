import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { extname } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { stringOption, usage, type Command } from '../command.ts';
import { CommandError } from '../errors.ts';
import { formatBytes } from '../format.ts';
import { sitePath } from './site-record.ts';

const FORMATS: Readonly<Record<string, string>> = {
  turtle: 'text/turtle',
  ntriples: 'application/n-triples',
};

export const exportGraph: Command = {
  path: ['export'],
  summary: "Download a site's graph (to stdout, or a file with -o)",
  args: ['siteId'],
  options: {
    format: {
      type: 'string',
      value: 'format',
      description: "turtle or ntriples (default: from -o's extension, else turtle)",
    },
    output: { type: 'string', short: 'o', value: 'file', description: 'write to this file instead of stdout' },
  },
  details: `Example:
  bkg export hq > hq.ttl
  bkg export hq --format ntriples -o hq.nt`,
  async run(context) {
    const { api, args, stdout, stderr } = context;
    const output = stringOption(context, 'output');
    const formatName =
      stringOption(context, 'format') ?? (output && extname(output).toLowerCase() === '.nt' ? 'ntriples' : 'turtle');
    const accept = FORMATS[formatName];
    if (accept === undefined) throw usage(exportGraph, `--format must be turtle or ntriples, got "${formatName}".`);

    // The file is only created once the service has answered with the graph.
    const response = await api.stream('GET', `${sitePath(args[0]!)}/graph`, { accept });
    if (output === undefined) {
      await pipeline(response, stdout, { end: false }).catch((error: NodeJS.ErrnoException) => {
        // The reader went away (`bkg export hq | head`): not an error of ours.
        if (error.code !== 'EPIPE') throw error;
      });
      return;
    }
    const file = createWriteStream(output);
    try {
      await pipeline(response, file);
    } catch (error) {
      await rm(output, { force: true });
      throw new CommandError(`Could not write "${output}": ${(error as Error).message}`);
    }
    stderr.write(`Wrote ${formatBytes(file.bytesWritten)} of ${formatName} to ${output}.\n`);
  },
};
