// The one way a test says what it needs from outside the repository: where X is missing, it is
// skipped, never left out, and its title ends with "(needs X)", X a variable naming an engine
// (DATABASE_URL, REDIS_URL, ...) or a program. Only then: a test a running variant skips for
// another reason (it.runIf) must not be taken for one skipped for X. .ci/summarize.mjs counts skips by that reason and,
// on CI, fails a skip for something CI provides (docs/development.md, "What CI runs and skips").
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe } from 'vitest';

/** The variables that name an engine a test may need, each set by .ci/run on CI. */
export type EngineVariable = 'DATABASE_URL' | 'REDIS_URL' | 'BKG_MQTT_URL' | 'S3_ENDPOINT' | 'BKG_TEST_SPARQL_URL';

/** The programs a test may need on the PATH, each installed by .ci/run on CI. */
export type Program = 'redis-server' | 'chromium';

/** What a test may need: an engine's variable, or a program. */
export type Requirement = EngineVariable | Program;

/** The reason in a title: "(needs DATABASE_URL)", or "(needs REDIS_URL, BKG_MQTT_URL)". */
export const needs = (...requirements: readonly Requirement[]): string => `(needs ${requirements.join(', ')})`;

/** The engine variable's value; undefined when unset or empty. */
export const engineUrl = (variable: EngineVariable): string | undefined => process.env[variable] || undefined;

/**
 * The engine variable's value, for the set-up of a variant that needs it: describeVariants skips
 * the variant when it is unset, so reaching here without it is a mistake in the test.
 */
export function requiredEngineUrl(variable: EngineVariable): string {
  const value = engineUrl(variable);
  if (!value) throw new Error(`${variable} is not set: the variant that needs it should have been skipped`);
  return value;
}

const PROGRAMS: ReadonlySet<Requirement> = new Set<Program>(['redis-server', 'chromium']);

const onPath = (program: string) =>
  (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, program)));

/** Whether the requirement is met here. */
export function isMet(requirement: Requirement): boolean {
  return PROGRAMS.has(requirement) ? onPath(requirement) : engineUrl(requirement as EngineVariable) !== undefined;
}

/** The requirements of `requirements` not met here. */
export const unmet = (requirements: readonly Requirement[]): Requirement[] => requirements.filter((r) => !isMet(r));

/** One variant of a suite (a record engine, a blob store, a place for counters) and what it needs. */
export interface Variant {
  readonly name: string;
  readonly needs?: readonly Requirement[];
}

/**
 * `describe.each` over variants, the title's `$name` replaced by each variant's name: a variant
 * whose needs are not met here is declared skipped, its title naming what is missing.
 */
export function describeVariants<V extends Variant>(
  title: string,
  variants: readonly V[],
  body: (variant: V) => void,
): void {
  for (const variant of variants) {
    const missing = unmet(variant.needs ?? []);
    const named = title.replace('$name', variant.name) + (missing.length > 0 ? ` ${needs(...missing)}` : '');
    describe.skipIf(missing.length > 0)(named, () => body(variant));
  }
}

/** A suite that runs only where its requirements are met: declared skipped elsewhere, titled with what is missing. */
export function describeNeeding(requirements: readonly Requirement[], title: string, body: () => void): void {
  describeVariants('$name', [{ name: title, needs: requirements }], body);
}
