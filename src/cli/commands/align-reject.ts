import type { Command } from '../command.ts';
import { alignPath, decisionBody } from './align-record.ts';

export const alignReject: Command = {
  path: ['align', 'reject'],
  summary: 'Reject proposed links: never proposed again; an accepted link leaves the graph (write key)',
  args: ['siteId'],
  options: {
    ids: { type: 'string', value: 'id,…', description: 'The proposals to reject, by id.' },
    'min-score': { type: 'string', value: 'score', description: 'Every open proposal scoring at least this.' },
  },
  async run(context) {
    const { api, args, json, stdout } = context;
    const answer = await api.call<{ rejected: number }>('POST', alignPath(args[0]!, 'reject'), {
      json: decisionBody(alignReject, context),
    });
    stdout.write(
      json ? `${JSON.stringify(answer)}\n` : `Rejected ${answer.rejected} pair${answer.rejected === 1 ? '' : 's'}.\n`,
    );
  },
};
