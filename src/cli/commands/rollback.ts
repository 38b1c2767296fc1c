import { stringOption, type Command } from '../command.ts';
import { groupDigits } from '../format.ts';
import { ifMatchOf, ifMatchOption, messageOption, versionArgument, type GraphVersion } from './graph-version.ts';
import { sitePath } from './site-record.ts';

export const rollback: Command = {
  path: ['rollback'],
  summary: "Make a site's graph what it was at a version: a new version, the history kept (write key)",
  args: ['siteId', 'version'],
  options: { ...messageOption, ...ifMatchOption },
  details: `Example:
  bkg rollback hq 12 -m "undo the bad load"`,
  async run(context) {
    const { api, args, json, stdout } = context;
    const to = versionArgument(rollback, args[1], 'VERSION')!;
    const message = stringOption(context, 'message');
    const ifMatch = ifMatchOf(rollback, context);
    const version = await api.call<GraphVersion>('POST', `${sitePath(args[0]!)}/graph/rollback`, {
      json: { to, ...(message !== undefined ? { message } : {}) },
      ...(ifMatch !== undefined ? { ifMatch } : {}),
    });
    stdout.write(
      json
        ? `${JSON.stringify(version)}\n`
        : `Version ${version.version} is version ${to} again: +${groupDigits(version.added)} −${groupDigits(version.removed)} triples; the graph holds ${groupDigits(version.triples)}.\n`,
    );
  },
};
