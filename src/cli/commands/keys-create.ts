import { flag, stringOption, usage, type Command } from '../command.ts';
import { siteList, type ApiKey } from './key-record.ts';

export const keysCreate: Command = {
  path: ['keys', 'create'],
  summary: 'Create an API key and print its secret, once (admin)',
  args: [],
  options: {
    name: { type: 'string', description: 'what the key is for (required)' },
    sites: { type: 'string', value: 'a,b', description: 'the site ids it may read, comma-separated' },
    'all-sites': { type: 'boolean', description: 'it may read every site, present and future' },
    write: { type: 'boolean', description: 'it may also load graphs into its sites' },
    admin: { type: 'boolean', description: 'it may manage sites and keys' },
  },
  details: `Give either --sites or --all-sites. The secret is shown this once: the service keeps only
its hash. With --json the answer's "key" field holds it.

Example:
  bkg keys create --name "dashboard" --sites hq,lab
  bkg keys create --name "loader" --all-sites --write`,
  async run(context) {
    const { api, json, stdout } = context;
    const sitesText = stringOption(context, 'sites');
    const allSites = flag(context, 'all-sites');
    if (sitesText !== undefined && allSites) throw usage(keysCreate, 'Give --sites or --all-sites, not both.');
    if (sitesText === undefined && !allSites)
      throw usage(keysCreate, 'Give the sites the key may read: --sites a,b or --all-sites.');
    const sites = allSites
      ? '*'
      : sitesText!
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
    const body = {
      name: stringOption(context, 'name'),
      sites,
      write: flag(context, 'write'),
      admin: flag(context, 'admin'),
    };
    const key = await api.call<ApiKey & { key: string }>('POST', 'api/v1/keys/', { json: body });
    if (json) {
      stdout.write(`${JSON.stringify(key, null, 2)}\n`);
      return;
    }
    const rights = ['read', key.write ? 'write' : '', key.admin ? 'admin' : ''].filter(Boolean).join(', ');
    stdout.write(
      `Created API key "${key.name}" (id ${key.id}; sites: ${siteList(key.sites)}; ${rights}).\n\n` +
        `  ${key.key}\n\n` +
        'This secret is shown only now: store it safely. Use it as the bearer token (BKG_TOKEN).\n',
    );
  },
};
