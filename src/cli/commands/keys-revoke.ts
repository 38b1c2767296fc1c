import type { Command } from '../command.ts';

export const keysRevoke: Command = {
  path: ['keys', 'revoke'],
  summary: 'Revoke an API key at once (admin)',
  args: ['id'],
  options: {},
  details: 'The id is the one `bkg keys list` shows. Requests with the key fail from now on.',
  async run({ api, args, json, stdout }) {
    const id = args[0]!;
    await api.call('DELETE', `api/v1/keys/${encodeURIComponent(id)}`);
    if (json) stdout.write(`${JSON.stringify({ revoked: id })}\n`);
    else stdout.write(`Revoked API key ${id}.\n`);
  },
};
