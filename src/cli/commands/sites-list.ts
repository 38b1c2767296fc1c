import type { Command } from '../command.ts';
import { formatTimestamp, table } from '../format.ts';
import type { Site } from './site-record.ts';

export const sitesList: Command = {
  path: ['sites', 'list'],
  summary: 'List the sites the token can read',
  args: [],
  options: {},
  async run({ api, json, stdout }) {
    const sites = await api.call<Site[]>('GET', 'api/v1/sites/');
    if (json) {
      stdout.write(`${JSON.stringify(sites, null, 2)}\n`);
      return;
    }
    if (sites.length === 0) {
      stdout.write('No sites.\n');
      return;
    }
    const place = (s: Site) => [s.city, s.country_code ?? s.country].filter(Boolean).join(', ') || '-';
    stdout.write(
      table(
        ['ID', 'NAME', 'PLACE', 'TIMEZONE', 'CREATED'],
        sites.map((s) => [s.id, s.name, place(s), s.timezone, formatTimestamp(s.created_at)]),
      ),
    );
  },
};
