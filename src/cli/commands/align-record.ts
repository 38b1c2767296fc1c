import { AUTO_ACCEPT_SCORE } from '../../alignment/align.ts';
import type { Command, CommandContext } from '../command.ts';
import { stringOption, usage } from '../command.ts';
import { sitePath } from './site-record.ts';

/** A proposal as the service answers it (docs/ifc-alignment.md). */
export interface AlignProposal {
  id: string;
  globalId: string;
  ifcClass: string;
  ifcName: string;
  storey: string;
  entityId: string;
  entityType: string;
  score: number;
  evidence: Array<{ kind: string; detail: string; weight: number }>;
  status: string;
}

/** The score `bkg align accept` uses without `--ids` or `--min-score`: the service's auto-accept threshold. */
export const DEFAULT_ACCEPT_SCORE = AUTO_ACCEPT_SCORE;

/** The path of a site's alignment resource. */
export const alignPath = (siteId: string, rest: string) => `${sitePath(siteId)}/alignment/${rest}`;

/** A score option (0..1), or undefined when not given. */
export function scoreOption(command: Command, context: CommandContext, name: string): number | undefined {
  const text = stringOption(context, name);
  if (text === undefined) return undefined;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0 || value > 1)
    throw usage(command, `--${name} is a number from 0 to 1, not "${text}".`);
  return value;
}

/** The body of accept and reject: `--ids a,b` or `--min-score X` (one of them). */
export function decisionBody(
  command: Command,
  context: CommandContext,
  fallbackScore?: number,
): { ids: string[] } | { minScore: number } {
  const ids = stringOption(context, 'ids');
  const minScore = scoreOption(command, context, 'min-score');
  if (ids !== undefined && minScore !== undefined) throw usage(command, 'Give --ids or --min-score, not both.');
  if (ids !== undefined) {
    const list = ids
      .split(',')
      .map((id) => id.trim())
      .filter((id) => id !== '');
    if (list.length === 0) throw usage(command, '--ids names at least one proposal id.');
    return { ids: list };
  }
  const score = minScore ?? fallbackScore;
  if (score === undefined) throw usage(command, 'Give --ids <id,…> or --min-score <score>.');
  return { minScore: score };
}
