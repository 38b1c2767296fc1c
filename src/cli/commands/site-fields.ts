import { stringOption, usage, type Command, type CommandContext, type OptionSpec } from '../command.ts';

/** The options of a site's descriptive fields, shared by `bkg sites create` and `bkg sites update`. */
export const siteFieldOptions: Readonly<Record<string, OptionSpec>> = {
  name: { type: 'string', description: 'display name' },
  timezone: { type: 'string', value: 'zone', description: 'IANA time zone, e.g. Europe/Berlin' },
  organization: { type: 'string', value: 'text', description: 'owning organization' },
  address: { type: 'string', value: 'text', description: 'street address' },
  city: { type: 'string', value: 'text', description: 'city' },
  country: { type: 'string', value: 'text', description: 'country name' },
  'country-code': { type: 'string', value: 'cc', description: 'ISO 3166-1 alpha-2 code, e.g. DE' },
  latitude: { type: 'string', value: 'deg', description: 'latitude, -90 to 90' },
  longitude: { type: 'string', value: 'deg', description: 'longitude, -180 to 180' },
};

const coordinate = (command: Command, name: string, raw: string | undefined): number | undefined => {
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value)) throw usage(command, `--${name} must be a number, got "${raw}".`);
  return value;
};

/**
 * The fields given as options, in the service's names. Missing options are undefined, which JSON
 * drops, so the service's defaults (on create) or the stored values (on update) apply.
 */
export function siteFields(command: Command, context: CommandContext) {
  return {
    name: stringOption(context, 'name'),
    timezone: stringOption(context, 'timezone'),
    organization: stringOption(context, 'organization'),
    address: stringOption(context, 'address'),
    city: stringOption(context, 'city'),
    country: stringOption(context, 'country'),
    country_code: stringOption(context, 'country-code'),
    latitude: coordinate(command, 'latitude', stringOption(context, 'latitude')),
    longitude: coordinate(command, 'longitude', stringOption(context, 'longitude')),
  };
}
