import type { Command } from '../command.ts';
import { stringOption } from '../command.ts';
import { table } from '../format.ts';
import { alignPath, scoreOption, type AlignProposal } from './align-record.ts';

export const alignProposals: Command = {
  path: ['align', 'proposals'],
  summary: "List the proposed links between a site's IFC elements and its graph's entities, best first",
  args: ['siteId'],
  options: {
    'min-score': { type: 'string', value: 'score', description: 'Only proposals scoring at least this (0..1).' },
    status: { type: 'string', value: 'status', description: 'proposed (default), accepted, rejected or all.' },
    'ifc-class': { type: 'string', value: 'class', description: 'Only elements of this IFC class (IfcPump).' },
    storey: { type: 'string', value: 'name', description: 'Only elements on this storey.' },
    limit: { type: 'string', value: 'n', description: 'At most this many (default 100, at most 1000).' },
  },
  details:
    "Accept with `bkg align accept <siteId> --ids <id,…>` (or `--min-score`), reject with `bkg align reject`. With --json, the service's page: items with their evidence, total, nextOffset.",
  async run(context) {
    const { api, args, json, stdout } = context;
    const query = new URLSearchParams();
    const minScore = scoreOption(alignProposals, context, 'min-score');
    if (minScore !== undefined) query.set('minScore', String(minScore));
    for (const [option, name] of [
      ['status', 'status'],
      ['ifc-class', 'ifcClass'],
      ['storey', 'storey'],
      ['limit', 'limit'],
    ] as const) {
      const value = stringOption(context, option);
      if (value !== undefined) query.set(name, value);
    }
    const page = await api.call<{ items: AlignProposal[]; total: number; nextOffset: number | null }>(
      'GET',
      `${alignPath(args[0]!, 'proposals')}${query.size > 0 ? `?${query}` : ''}`,
    );
    if (json) {
      stdout.write(`${JSON.stringify(page, null, 2)}\n`);
      return;
    }
    if (page.items.length === 0) {
      stdout.write('No proposals.\n');
      return;
    }
    stdout.write(
      table(
        ['ID', 'SCORE', 'IFC CLASS', 'IFC NAME', 'STOREY', 'ENTITY', 'TYPE', 'STATUS', 'EVIDENCE'],
        page.items.map((p) => [
          p.id,
          p.score.toFixed(2),
          p.ifcClass,
          p.ifcName,
          p.storey,
          p.entityId,
          p.entityType,
          p.status,
          p.evidence.map((e) => e.kind).join(','),
        ]),
      ),
    );
    if (page.nextOffset !== null) stdout.write(`${page.items.length} of ${page.total}: --limit shows more.\n`);
  },
};
