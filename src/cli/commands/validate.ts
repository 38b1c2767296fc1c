import { stat } from 'node:fs/promises';
import { pathToFileURL } from 'node:url';
import { stringOption, usage, type Command } from '../command.ts';
import { CommandError } from '../errors.ts';
import { formatModelReading } from '../model-reading-text.ts';
import { rdfFileFormat } from '../rdf-file-format.ts';
import type { Finding, ValidationReport } from '../../validation/validation-report.ts';

/** Exit status of a model with violations (as for a request the service refused). */
class ModelHasViolations extends CommandError {}

/** One finding as a line: severity, kind, the entity (and its name), the path, the message. */
function findingLine(f: Finding): string {
  const path = f.path ? ` [${f.path}]` : '';
  return `${f.severity.toUpperCase().padEnd(9)} ${f.kind}: ${f.focusNode} "${f.label}"${path}: ${f.message}`;
}

export const validate: Command = {
  path: ['validate'],
  summary: "Check a model file against Brick's shapes, here (no service needed)",
  args: ['file'],
  options: {
    format: {
      type: 'string',
      value: 'format',
      description: 'turtle, ntriples, nquads or jsonld (default: from the extension)',
    },
    ontology: {
      type: 'string',
      value: 'file',
      description: 'the ontology (default: the shipped ontology/brick-hierarchy.ttl; a full Brick.ttl works too)',
    },
  },
  details: `Prints the report the service answers on POST /api/v1/sites/{id}/graph/validate: one line
per finding (severity, kind, entity and name, path, message), then a summary line, then what the
service would make of the model (the load report a load answers). --json prints the report as JSON. Exit status 1 when the model has violations (warnings and infos do not count).

Example:
  bkg validate hq.ttl
  bkg validate hq.ttl --json | jq '.counts'`,
  async run(context) {
    const { json, stdout } = context;
    const [file] = context.args as [string];
    const format = rdfFileFormat(file, stringOption(context, 'format'));
    if ('error' in format) throw usage(validate, format.error);
    await stat(file).then(
      (s) => {
        if (!s.isFile()) throw new CommandError(`"${file}" is not a file.`);
      },
      (error: NodeJS.ErrnoException) => {
        throw new CommandError(
          error.code === 'ENOENT' ? `No such file: "${file}".` : `Cannot read "${file}": ${error.message}`,
        );
      },
    );
    // Loaded here, not with the CLI: the other commands need no SHACL engine.
    const { ModelValidator } = await import('../../validation/model-validator.ts');
    const { summaryLine } = await import('../../validation/validation-report.ts');
    const { defaultOntologyPath } = await import('../../config/config.ts');
    const validator = await ModelValidator.load(stringOption(context, 'ontology') ?? defaultOntologyPath);
    let report: ValidationReport;
    try {
      report = await validator.validate([{ data: { path: file }, format: format.type }], pathToFileURL(file).href);
    } catch (error) {
      throw new CommandError(`"${file}" does not parse: ${(error as Error).message}`);
    }
    if (json) stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    else {
      for (const finding of report.results) stdout.write(`${findingLine(finding)}\n`);
      if (report.omitted > 0)
        stdout.write(`(${report.omitted} more findings not listed; --json has the counts per kind)\n`);
      stdout.write(`${summaryLine(report)}\n`);
      if (report.reading) stdout.write(formatModelReading(report.reading));
    }
    if (report.summary.violations > 0)
      throw new ModelHasViolations(
        `The model has ${report.summary.violations} violation${report.summary.violations === 1 ? '' : 's'}.`,
      );
  },
};
