import type { Command } from '../command.ts';
import { table } from '../format.ts';
import { alignPath } from './align-record.ts';

type Counts = { mapped: number; proposed: number; unmatched: number };

export const alignCoverage: Command = {
  path: ['align', 'coverage'],
  summary: 'Which IFC elements that should map are mapped, proposed or unmatched, per class and storey',
  args: ['siteId'],
  options: {},
  details: 'With --json, the whole report: every element with its status, and the graph entities no element maps to.',
  async run({ api, args, json, stdout }) {
    const report = await api.call<{
      byClass: Record<string, Counts>;
      byStorey: Record<string, Counts>;
      entitiesWithoutElement: unknown[];
    }>('GET', alignPath(args[0]!, 'coverage'));
    if (json) {
      stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return;
    }
    const rows = (counts: Record<string, Counts>) =>
      Object.entries(counts)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([name, c]) => [
          name === '' ? '(no storey)' : name,
          String(c.mapped),
          String(c.proposed),
          String(c.unmatched),
        ]);
    stdout.write(table(['IFC CLASS', 'MAPPED', 'PROPOSED', 'UNMATCHED'], rows(report.byClass)));
    stdout.write('\n');
    stdout.write(table(['STOREY', 'MAPPED', 'PROPOSED', 'UNMATCHED'], rows(report.byStorey)));
    stdout.write(
      `\n${report.entitiesWithoutElement.length} graph entit${report.entitiesWithoutElement.length === 1 ? 'y has' : 'ies have'} no element (--json lists them).\n`,
    );
  },
};
