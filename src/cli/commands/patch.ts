import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { flag, stringOption, usage, type Command } from '../command.ts';
import { CommandError } from '../errors.ts';
import { groupDigits } from '../format.ts';
import { ifMatchOf, ifMatchOption, messageOption } from './graph-version.ts';
import { sitePath } from './site-record.ts';

const TYPES: Readonly<Record<string, string>> = {
  sparql: 'application/sparql-update',
  patch: 'application/rdf-patch',
};

/** The kind of a change file by its extension: .ru, .rq, .sparql (SPARQL Update); .rdfp, .patch (RDF Patch). */
const KIND_OF: Readonly<Record<string, string>> = {
  '.ru': 'sparql',
  '.rq': 'sparql',
  '.sparql': 'sparql',
  '.rdfp': 'patch',
  '.patch': 'patch',
};

interface ChangeResult {
  readonly site: string;
  readonly version: number;
  readonly triples: number;
  readonly added: number;
  readonly removed: number;
  readonly entities: number;
}

export const patch: Command = {
  path: ['patch'],
  summary: "Change a site's graph by a SPARQL Update or an RDF Patch file (write key)",
  args: ['siteId', 'file'],
  options: {
    format: { type: 'string', value: 'format', description: "sparql or patch (default: from the file's extension)" },
    strict: { type: 'boolean', description: 'validate the entities the change touches; refuse it on violations' },
    ...messageOption,
    ...ifMatchOption,
  },
  details: `The change applies whole or not at all, and makes a version of the graph (bkg history).
Extensions: .ru .rq .sparql (SPARQL 1.1 Update), .rdfp .patch (RDF Patch).

Example:
  bkg patch hq ./rename-vav.ru -m "VAV-3 replaced"
  bkg patch hq ./fix.rdfp --if-match 12`,
  async run(context) {
    const { api, json, stdout } = context;
    const [siteId, file] = context.args as [string, string];
    const kind = stringOption(context, 'format') ?? KIND_OF[extname(file).toLowerCase()];
    const contentType = kind === undefined ? undefined : TYPES[kind];
    if (contentType === undefined)
      throw usage(patch, `--format must be sparql or patch (the extension of "${file}" does not say which).`);
    const size = await stat(file).then(
      (s) => s.size,
      (error: NodeJS.ErrnoException) => {
        throw new CommandError(
          error.code === 'ENOENT' ? `No such file: "${file}".` : `Cannot read "${file}": ${error.message}`,
        );
      },
    );
    const query = new URLSearchParams();
    const message = stringOption(context, 'message');
    if (message !== undefined) query.set('message', message);
    if (flag(context, 'strict')) query.set('strict', '1');
    const ifMatch = ifMatchOf(patch, context);
    const result = await api.call<ChangeResult>('PATCH', `${sitePath(siteId)}/graph?${query}`, {
      body: { stream: createReadStream(file), contentType, length: size },
      ...(ifMatch !== undefined ? { ifMatch } : {}),
    });
    stdout.write(
      json
        ? `${JSON.stringify(result)}\n`
        : `Version ${result.version}: +${groupDigits(result.added)} −${groupDigits(result.removed)} triples (${groupDigits(result.entities)} entities); the graph holds ${groupDigits(result.triples)}.\n`,
    );
  },
};
