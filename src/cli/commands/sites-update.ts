import { usage, type Command } from '../command.ts';
import { siteFieldOptions, siteFields } from './site-fields.ts';
import { sitePath, type Site } from './site-record.ts';

export const sitesUpdate: Command = {
  path: ['sites', 'update'],
  summary: "Change a site's name, time zone or other fields (admin)",
  args: ['id'],
  options: siteFieldOptions,
  details: `Only the options given change; the id cannot. Readings keep their instants: answers write
them in the new time zone at once. The demo site is read-only.

Example:
  bkg sites update hq --name "Head office (new wing)" --timezone Europe/Paris`,
  async run(context) {
    const { api, json, stdout } = context;
    const changes = siteFields(sitesUpdate, context);
    if (Object.values(changes).every((value) => value === undefined))
      throw usage(sitesUpdate, 'Give at least one field to change, e.g. --name or --timezone.');
    const site = await api.call<Site>('PATCH', `${sitePath(context.args[0]!)}/`, { json: changes });
    if (json) stdout.write(`${JSON.stringify(site, null, 2)}\n`);
    else stdout.write(`Updated site "${site.id}" (${site.name}, ${site.timezone}).\n`);
  },
};
