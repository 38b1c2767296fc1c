import { authConfig } from '../../config/auth-config.ts';
import { issueUserToken } from '../../auth/user-token.ts';
import { SITE_ID } from '../../tenants/site-directory.ts';
import { flag, stringOption, usage, type Command } from '../command.ts';

/** A year: a longer-lived credential should be an API key (`bkg keys create`), which can be revoked. */
const MAX_HOURS = 24 * 365;

/** The sites a token names: `--all-sites`, or `--sites hq,lab` (slugs, as site ids are). */
function grantedSites(command: Command, list: string | undefined, all: boolean): readonly string[] | '*' {
  if (all && list !== undefined) throw usage(command, 'Give either --sites or --all-sites, not both.');
  if (all) return '*';
  const sites = [
    ...new Set(
      (list ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== ''),
    ),
  ];
  if (sites.length === 0) throw usage(command, 'Name the sites the token may read: --sites hq,lab (or --all-sites).');
  const wrong = sites.find((s) => !SITE_ID.test(s));
  if (wrong !== undefined) throw usage(command, `"${wrong}" is not a site id (lowercase letters, digits and hyphens).`);
  return sites;
}

export const tokensIssue: Command = {
  path: ['tokens', 'issue'],
  summary: 'Issue a user token (JWT) for some sites, signed here with BKG_JWT_SECRET (no service needed)',
  args: [],
  options: {
    user: { type: 'string', value: 'name', description: 'who the token names (its "sub" claim; required)' },
    sites: { type: 'string', value: 'ids', description: 'the sites it may read, comma-separated: hq,lab' },
    'all-sites': { type: 'boolean', description: 'it may read every site (instead of --sites)' },
    hours: {
      type: 'string',
      value: 'hours',
      description: `how long it is valid, in hours (default 8, at most ${MAX_HOURS}; 0.25 is 15 minutes)`,
    },
  },
  details: `Signs an HS256 token with the secret the service verifies user tokens with: BKG_JWT_SECRET
(at least 32 characters) must hold the same value here as in the service's environment. When the
service sets BKG_JWT_ISSUER or BKG_JWT_AUDIENCE, set them here too: the token carries them as "iss"
and "aud". A user token reads the named sites and never writes; for anything else, use an API key.
Prints the token on its own line; --json prints {"token", "claims"}.

Example:
  BKG_JWT_SECRET=… bkg tokens issue --user alice --sites hq,lab --hours 8
  curl -H "Authorization: Bearer $(bkg tokens issue --user alice --sites hq)" http://localhost:4000/api/v1/sites/`,
  async run(context) {
    const { env, json, stdout } = context;
    const subject = stringOption(context, 'user')?.trim();
    if (!subject) throw usage(tokensIssue, 'Name the user: --user <name>.');
    const sites = grantedSites(tokensIssue, stringOption(context, 'sites'), flag(context, 'all-sites'));
    const hoursText = stringOption(context, 'hours') ?? '8';
    const hours = Number(hoursText);
    const lifetimeSeconds = Math.round(hours * 3600);
    if (hoursText.trim() === '' || !Number.isFinite(hours) || lifetimeSeconds < 1 || hours > MAX_HOURS) {
      throw usage(tokensIssue, `--hours must be a number of hours from 0.001 to ${MAX_HOURS}, got "${hoursText}".`);
    }
    // The service's own reading of BKG_JWT_SECRET, BKG_JWT_ISSUER and BKG_JWT_AUDIENCE, so the claims agree.
    const auth = authConfig(env, {
      url: () => undefined,
      secret: (name, minLength) => {
        const value = env[name];
        if (value === undefined || value === '') return undefined;
        if (value.length < minLength)
          throw usage(tokensIssue, `${name} must be at least ${minLength} characters long (as the service requires).`);
        return value;
      },
    });
    if (auth.jwtSecret === undefined)
      throw usage(tokensIssue, "Set BKG_JWT_SECRET to the service's secret for user tokens.");
    const { token, claims } = await issueUserToken(
      { subject, sites, lifetimeSeconds },
      { ...auth, jwtSecret: auth.jwtSecret },
    );
    stdout.write(json ? `${JSON.stringify({ token, claims }, null, 2)}\n` : `${token}\n`);
  },
};
