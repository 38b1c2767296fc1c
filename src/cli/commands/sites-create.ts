import { stringOption, usage, type Command } from '../command.ts';
import type { Site } from './site-record.ts';

const coordinate = (command: Command, name: string, raw: string | undefined): number | undefined => {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value)) throw usage(command, `--${name} must be a number, got "${raw}".`);
  return value;
};

export const sitesCreate: Command = {
  path: ['sites', 'create'],
  summary: 'Create a site (admin)',
  args: ['id'],
  options: {
    name: { type: 'string', description: 'display name (required)' },
    timezone: { type: 'string', value: 'zone', description: 'IANA time zone, e.g. Europe/Berlin (default UTC)' },
    organization: { type: 'string', value: 'text', description: 'owning organization' },
    address: { type: 'string', value: 'text', description: 'street address' },
    city: { type: 'string', value: 'text', description: 'city' },
    country: { type: 'string', value: 'text', description: 'country name' },
    'country-code': { type: 'string', value: 'cc', description: 'ISO 3166-1 alpha-2 code, e.g. DE' },
    latitude: { type: 'string', value: 'deg', description: 'latitude, -90 to 90' },
    longitude: { type: 'string', value: 'deg', description: 'longitude, -180 to 180' },
  },
  details: `The id is a slug: lowercase letters, digits and hyphens. The service checks every field
and answers each problem by field name.

Example:
  bkg sites create hq --name "Head office" --timezone Europe/Berlin --city Berlin --country-code DE`,
  async run(context) {
    const { api, json, stdout } = context;
    const body = {
      id: context.args[0],
      name: stringOption(context, 'name'),
      timezone: stringOption(context, 'timezone'),
      organization: stringOption(context, 'organization'),
      address: stringOption(context, 'address'),
      city: stringOption(context, 'city'),
      country: stringOption(context, 'country'),
      country_code: stringOption(context, 'country-code'),
      latitude: coordinate(sitesCreate, 'latitude', stringOption(context, 'latitude')),
      longitude: coordinate(sitesCreate, 'longitude', stringOption(context, 'longitude')),
    };
    // Missing options are left out (JSON drops undefined), so the service's defaults and messages apply.
    const site = await api.call<Site>('POST', 'api/v1/sites/', { json: body });
    if (json) stdout.write(`${JSON.stringify(site, null, 2)}\n`);
    else stdout.write(`Created site "${site.id}" (${site.name}, ${site.timezone}).\n`);
  },
};
