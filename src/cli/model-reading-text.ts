/** The load report (`reading` of a load's answer, src/ontology/model-reading.ts) as the CLI prints it. */
import { compactIri } from '../ontology/prefixes.ts';
import type { ModelReading } from '../ontology/model-reading.ts';
import { groupDigits } from './format.ts';

/** Lines printed per list; the rest are counted. */
const SHOWN = 10;

function list<T>(title: string, items: readonly T[], line: (item: T) => string): string[] {
  if (items.length === 0) return [];
  const lines = [`  ${title}:`, ...items.slice(0, SHOWN).map((item) => `    ${line(item)}`)];
  if (items.length > SHOWN) lines.push(`    … and ${items.length - SHOWN} more`);
  return lines;
}

/** The reading as indented lines, every list cut at ten. */
export function formatModelReading(reading: ModelReading): string {
  const { brickVersion, entities } = reading;
  const lines = [
    `Looks like Brick ${brickVersion.looksLike} (${brickVersion.evidence.join('; ')})`,
    `  Entities: ${groupDigits(entities.typed)} with a class, ${groupDigits(entities.untyped)} without` +
      (entities.untyped > 0
        ? ` (placed by their links where they can be; e.g. ${entities.untypedExamples.slice(0, 3).map(compactIri).join(', ')})`
        : ''),
    ...list(
      'Read from older Brick names',
      reading.renamedClasses,
      (c) => `${compactIri(c.class)} → ${compactIri(c.readAs)} (${groupDigits(c.entities)})`,
    ),
    ...list(
      'Deprecated in Brick 1.4, read as their replacement',
      reading.deprecatedClasses,
      (c) => `${compactIri(c.class)} → ${compactIri(c.readAs)} (${groupDigits(c.entities)})`,
    ),
    ...list(
      "The site's own classes",
      reading.siteClasses,
      (c) => `${compactIri(c.class)} ⊂ ${c.superclasses.map(compactIri).join(', ')} (${groupDigits(c.entities)})`,
    ),
    ...list(
      'Classes nobody declares (no class filter matches them)',
      reading.unknownClasses,
      (c) =>
        `${compactIri(c.class)} (${groupDigits(c.entities)})${c.suggestions.length > 0 ? `: did you mean ${c.suggestions.join(', ')}?` : ''}`,
    ),
    ...list(
      'Relations no field reads',
      reading.ignoredRelations,
      (r) => `${compactIri(r.predicate)} (${groupDigits(r.triples)})${r.note ? `: ${r.note}` : ''}`,
    ),
  ];
  return `${lines.join('\n')}\n`;
}
