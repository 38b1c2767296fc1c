import type { Command } from '../command.ts';
import { alignPath, decisionBody, DEFAULT_ACCEPT_SCORE } from './align-record.ts';

export const alignAccept: Command = {
  path: ['align', 'accept'],
  summary: "Accept proposed links: their ref:IFCReference triples are written into the site's graph (write key)",
  args: ['siteId'],
  options: {
    ids: { type: 'string', value: 'id,…', description: 'The proposals to accept, by id.' },
    'min-score': {
      type: 'string',
      value: 'score',
      description: `Every open proposal scoring at least this (default ${DEFAULT_ACCEPT_SCORE}, the auto-accept threshold).`,
    },
  },
  async run(context) {
    const { api, args, json, stdout } = context;
    const answer = await api.call<{ accepted: number }>('POST', alignPath(args[0]!, 'accept'), {
      json: decisionBody(alignAccept, context, DEFAULT_ACCEPT_SCORE),
    });
    stdout.write(
      json ? `${JSON.stringify(answer)}\n` : `Accepted ${answer.accepted} link${answer.accepted === 1 ? '' : 's'}.\n`,
    );
  },
};
