import type { Command } from '../command.ts';
import { sitePath } from './site-record.ts';

export const sitesDelete: Command = {
  path: ['sites', 'delete'],
  summary: 'Delete a site and its graph (admin)',
  args: ['id'],
  options: {},
  details: "The site record, its graph and its place in API keys' site lists are removed; this cannot be undone.",
  async run({ api, args, json, stdout }) {
    const id = args[0]!;
    await api.call('DELETE', sitePath(id));
    if (json) stdout.write(`${JSON.stringify({ deleted: id })}\n`);
    else stdout.write(`Deleted site "${id}".\n`);
  },
};
