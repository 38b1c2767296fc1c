/**
 * The model validation report: one finding per problem a person can act on, counts per
 * kind, and a verdict. Findings come from Brick's SHACL shapes (kind `shacl:<constraint>`) and from
 * the checks of model-checks.ts (unknown and deprecated classes, links stated in the inverse
 * direction, points without equipment, equipment without location).
 */
import type { ModelReading } from '../ontology/model-reading.ts';
import type { RdfTerm } from '../store/graph-store.ts';
import type { Holder } from './label-index.ts';

/** SHACL's severities, most serious first. */
export const SEVERITIES = ['Violation', 'Warning', 'Info'] as const;
export type Severity = (typeof SEVERITIES)[number];

/** One problem of the model. */
export interface Finding {
  /** `shacl:class`, `shacl:minCount`, …, or one of the service's checks (`unknown-class`, …). */
  readonly kind: string;
  readonly severity: Severity;
  /** The entity at fault: an IRI, or `_:label` for a blank node. */
  readonly focusNode: string;
  /**
   * The focus node for people, always: its name (rdfs:label, skos:prefLabel or brick:label); else,
   * for a blank node, the named entity holding it and the path to it (`CH-1 › ref:hasExternalReference
   * (a ref:IFCReference)`); else the IRI's local name.
   */
  readonly label: string;
  /** For a blank node: the entity that holds it and the properties from that entity down to it. */
  readonly heldBy?: Holder;
  /** The property (or SHACL path) at fault, if any. */
  readonly path: string | null;
  /** The value at fault, if any. */
  readonly value: RdfTerm | null;
  readonly message: string;
  /** Close known names, or replacements, for a class the ontology does not know or deprecates. */
  readonly suggestions?: readonly string[];
  /** For findings that stand for several (entities of an unknown class, links of a property): how many. */
  readonly occurrences?: number;
  /** The Brick shape that found it. */
  readonly shape?: string | null;
}

/** The report as the API answers it in JSON. */
export interface ValidationReport {
  /** SHACL's verdict: no finding of any severity. */
  readonly conforms: boolean;
  /** Findings by severity. `?strict=1` refuses a model with violations. */
  readonly summary: Readonly<Record<'violations' | 'warnings' | 'infos', number>>;
  /** Findings by kind. */
  readonly counts: Readonly<Record<string, number>>;
  /** Triples in the model validated. */
  readonly triples: number;
  readonly seconds: number;
  /** Findings, most serious first; at most `perKind` of each kind (`omitted` says how many more). */
  readonly results: readonly Finding[];
  readonly omitted: number;
  /** What the service makes of the model, as a load answers it (src/ontology/model-reading.ts). */
  readonly reading?: ModelReading;
}

/** Findings listed per kind; the counts always cover them all. */
export const FINDINGS_PER_KIND = 500;

/** The report of a validation's findings. */
export function buildReport(
  findings: readonly Finding[],
  triples: number,
  seconds: number,
  perKind = FINDINGS_PER_KIND,
): ValidationReport {
  const counts: Record<string, number> = {};
  const summary = { violations: 0, warnings: 0, infos: 0 };
  for (const f of findings) {
    counts[f.kind] = (counts[f.kind] ?? 0) + 1;
    if (f.severity === 'Violation') summary.violations++;
    else if (f.severity === 'Warning') summary.warnings++;
    else summary.infos++;
  }
  const sorted = [...findings].sort(
    (a, b) =>
      SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
      compare(a.kind, b.kind) ||
      compare(a.focusNode, b.focusNode) ||
      compare(a.path ?? '', b.path ?? '') ||
      compare(a.value?.value ?? '', b.value?.value ?? ''),
  );
  const listed = new Map<string, number>();
  const results = sorted.filter((f) => {
    const n = (listed.get(f.kind) ?? 0) + 1;
    listed.set(f.kind, n);
    return n <= perKind;
  });
  const sortedCounts = Object.fromEntries(Object.entries(counts).sort(([a], [b]) => compare(a, b)));
  return {
    conforms: findings.length === 0,
    summary,
    counts: sortedCounts,
    triples,
    seconds: Number(seconds.toFixed(3)),
    results,
    omitted: findings.length - results.length,
  };
}

/** One line for people: `2 violations, 5 warnings, 1 info in 1,234 triples (0.8 s)`. */
export function summaryLine(report: ValidationReport): string {
  const { violations, warnings, infos } = report.summary;
  const plural = (n: number, word: string) => `${n.toLocaleString('en')} ${word}${n === 1 ? '' : 's'}`;
  return `${plural(violations, 'violation')}, ${plural(warnings, 'warning')}, ${plural(infos, 'info')} in ${plural(report.triples, 'triple')} (${report.seconds} s)`;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
