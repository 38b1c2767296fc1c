import { stringOption, type Command } from '../command.ts';
import { versionArgument, versionsTable, type GraphVersion } from './graph-version.ts';
import { sitePath } from './site-record.ts';

export const history: Command = {
  path: ['history'],
  summary: "The versions of a site's graph, newest first: who changed it, when, how, what",
  args: ['siteId'],
  options: {
    limit: { type: 'string', value: 'n', description: 'versions to list (default 20)' },
    before: { type: 'string', value: 'version', description: 'list those older than this one' },
  },
  details: `A version marked * no longer keeps its change (a large load, or past retention): no diff
or rollback reaches across it.

Example:
  bkg history hq
  bkg history hq --limit 100 --json`,
  async run(context) {
    const { api, json, stdout } = context;
    const query = new URLSearchParams({
      limit: String(versionArgument(history, stringOption(context, 'limit'), '--limit') ?? 20),
    });
    const before = versionArgument(history, stringOption(context, 'before'), '--before');
    if (before !== undefined) query.set('before', String(before));
    const page = await api.call<{ latest: number; items: GraphVersion[] }>(
      'GET',
      `${sitePath(context.args[0]!)}/graph/versions?${query}`,
    );
    if (json) {
      stdout.write(`${JSON.stringify(page)}\n`);
      return;
    }
    stdout.write(page.items.length === 0 ? 'No version recorded yet.\n' : versionsTable(page.items));
  },
};
