import type { Command } from '../command.ts';
import { siteFieldOptions, siteFields } from './site-fields.ts';
import type { Site } from './site-record.ts';

export const sitesCreate: Command = {
  path: ['sites', 'create'],
  summary: 'Create a site (admin)',
  args: ['id'],
  options: {
    ...siteFieldOptions,
    name: { type: 'string', description: 'display name (required)' },
    timezone: { type: 'string', value: 'zone', description: 'IANA time zone, e.g. Europe/Berlin (default UTC)' },
  },
  details: `The id is a slug: lowercase letters, digits and hyphens. The service checks every field
and answers each problem by field name.

Example:
  bkg sites create hq --name "Head office" --timezone Europe/Berlin --city Berlin --country-code DE`,
  async run(context) {
    const { api, json, stdout } = context;
    const site = await api.call<Site>('POST', 'api/v1/sites/', {
      json: { id: context.args[0], ...siteFields(sitesCreate, context) },
    });
    if (json) stdout.write(`${JSON.stringify(site, null, 2)}\n`);
    else stdout.write(`Created site "${site.id}" (${site.name}, ${site.timezone}).\n`);
  },
};
