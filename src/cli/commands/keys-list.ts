import type { Command } from '../command.ts';
import { formatTimestamp, table } from '../format.ts';
import { siteList, type ApiKey } from './key-record.ts';

const yesNo = (b: boolean) => (b ? 'yes' : 'no');

export const keysList: Command = {
  path: ['keys', 'list'],
  summary: 'List API keys, revoked ones included (admin)',
  args: [],
  options: {},
  async run({ api, json, stdout }) {
    const keys = await api.call<ApiKey[]>('GET', 'api/v1/keys/');
    if (json) {
      stdout.write(`${JSON.stringify(keys, null, 2)}\n`);
      return;
    }
    if (keys.length === 0) {
      stdout.write('No API keys.\n');
      return;
    }
    const sites = (k: ApiKey) => {
      const text = siteList(k.sites);
      return text.length > 40 ? `${text.slice(0, 37)}...` : text;
    };
    stdout.write(
      table(
        ['ID', 'NAME', 'SITES', 'WRITE', 'ADMIN', 'CREATED', 'LAST USED', 'STATUS'],
        keys.map((k) => [
          k.id,
          k.name,
          sites(k),
          yesNo(k.write),
          yesNo(k.admin),
          formatTimestamp(k.created_at),
          formatTimestamp(k.last_used_at),
          k.revoked_at ? `revoked ${formatTimestamp(k.revoked_at)}` : 'active',
        ]),
      ),
    );
  },
};
