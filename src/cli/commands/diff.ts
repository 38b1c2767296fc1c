import { pipeline } from 'node:stream/promises';
import { stringOption, usage, type Command } from '../command.ts';
import { groupDigits } from '../format.ts';
import { versionArgument } from './graph-version.ts';
import { sitePath } from './site-record.ts';

interface Relation {
  subject: string;
  predicate: string;
  object: string;
}

interface Diff {
  from: number;
  to: number;
  added: number;
  removed: number;
  summary: {
    entitiesAdded: string[];
    entitiesRemoved: string[];
    classChanges: Array<{ entity: string; from: string[]; to: string[] }>;
    relationsAdded: Relation[];
    relationsRemoved: Relation[];
    labelsChanged: Array<{ entity: string; from: string | null; to: string | null }>;
  };
}

/** A diff's summary as a reviewer reads it, one line per change. */
function summaryText(diff: Diff): string {
  const { summary } = diff;
  const relation = (r: Relation) => `${r.subject} ${r.predicate} ${r.object}`;
  const lines = [
    `From version ${diff.from} to ${diff.to}: +${groupDigits(diff.added)} −${groupDigits(diff.removed)} triples.`,
    ...summary.entitiesAdded.map((e) => `+ entity ${e}`),
    ...summary.entitiesRemoved.map((e) => `- entity ${e}`),
    ...summary.classChanges.map((c) => `~ class of ${c.entity}: ${c.from.join(', ')} → ${c.to.join(', ')}`),
    ...summary.relationsAdded.map((r) => `+ ${relation(r)}`),
    ...summary.relationsRemoved.map((r) => `- ${relation(r)}`),
    ...summary.labelsChanged.map((l) => `~ label of ${l.entity}: ${l.from ?? '(none)'} → ${l.to ?? '(none)'}`),
  ];
  return `${lines.join('\n')}\n`;
}

export const diff: Command = {
  path: ['diff'],
  summary: "What changed in a site's graph between two versions",
  args: ['siteId', 'from', 'to?'],
  options: {
    format: {
      type: 'string',
      value: 'format',
      description: 'summary (default) or patch (RDF Patch, to apply with bkg patch)',
    },
  },
  details: `TO defaults to the latest version; FROM may be the newer (the change back).

Example:
  bkg diff hq 12
  bkg diff hq 12 15 --format patch > undo.rdfp`,
  async run(context) {
    const { api, args, json, stdout } = context;
    const from = versionArgument(diff, args[1], 'FROM')!;
    const to = versionArgument(diff, args[2], 'TO');
    const format = stringOption(context, 'format') ?? 'summary';
    if (format !== 'summary' && format !== 'patch')
      throw usage(diff, `--format must be summary or patch, got "${format}".`);
    const query = new URLSearchParams({ from: String(from), ...(to !== undefined ? { to: String(to) } : {}) });
    const path = `${sitePath(args[0]!)}/graph/diff?${query}`;
    if (format === 'patch') {
      await pipeline(await api.stream('GET', path, { accept: 'application/rdf-patch' }), stdout, { end: false });
      return;
    }
    const answer = await api.call<Diff>('GET', `${path}&triples=0`);
    stdout.write(json ? `${JSON.stringify(answer)}\n` : summaryText(answer));
  },
};
