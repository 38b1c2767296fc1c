/**
 * Brick's own 1.0.x → 1.1 conversion tables (BrickSchema/Brick tools/convert/conversions, BSD-3) →
 * the renames the service reads old models with: for each 1.0 version, the class local names that
 * Brick 1.1 renamed (`Zone_Temperature_Sensor` → `Zone_Air_Temperature_Sensor`; a few became two
 * classes), and the relations it renamed (`isLocatedIn` → `hasLocation`). Names 1.1 kept are left
 * out: an old IRI whose local name Brick still has means that class.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { compareCodeUnits } from '../../src/ontology/compare-code-units.ts';

/** What the service reads: renamed classes and relations per 1.0 version, local names only. */
export interface BrickRenameTables {
  readonly classes: Record<string, Record<string, string[]>>;
  readonly relations: Record<string, Record<string, string>>;
}

/** The versions whose tables Brick published, and their files. */
const TABLES = [
  ['1.0.2', '1.0.2-1.1.json'],
  ['1.0.3', '1.0.3-1.1.json'],
] as const;

// One SPARQL update per rename: `?subject ?predicate brick_v_1_0_3:Old` becomes `… brick:New[, brick:Other]`
// for a class, `?subject brickframe:old ?object` becomes `?subject brick:new ?object` for a relation.
// Tag renames (btag: → tag:) are not classes and are left out.
const CLASS_RENAME =
  /DELETE\{ \?subject \?predicate brick_v_\d+_\d+_\d+:(\S+) \. \} INSERT\{ \?subject \?predicate ([^.]+?) \. \}/;
const RELATION_RENAME =
  /DELETE\{ \?subject brickframe:(\S+) \?object \. \} INSERT\{ \?subject brick:(\S+) \?object \. \}/;

/** Reads the conversion tables in `dir` into renames (sorted, so the output only changes with the source). */
export async function readBrickRenames(dir: string): Promise<BrickRenameTables> {
  const classes: Record<string, Record<string, string[]>> = {};
  const relations: Record<string, Record<string, string>> = {};
  for (const [version, file] of TABLES) {
    const { operations } = JSON.parse(await readFile(join(dir, file), 'utf8')) as {
      operations: Array<{ query: string }>;
    };
    const renamed = new Map<string, string[]>();
    const related = new Map<string, string>();
    for (const { query } of operations) {
      const cls = CLASS_RENAME.exec(query);
      if (cls) {
        const targets = cls[2]!
          .split(',')
          .map((t) => t.trim())
          .filter((t) => t.startsWith('brick:'))
          .map((t) => t.slice('brick:'.length));
        if (targets.length > 0 && !(targets.length === 1 && targets[0] === cls[1])) renamed.set(cls[1]!, targets);
        continue;
      }
      const rel = RELATION_RENAME.exec(query);
      if (rel && rel[1] !== rel[2]) related.set(rel[1]!, rel[2]!);
    }
    if (renamed.size === 0) throw new Error(`${file}: no class renames found (has the table's format changed?)`);
    classes[version] = Object.fromEntries([...renamed].sort(([a], [b]) => compareCodeUnits(a, b)));
    relations[version] = Object.fromEntries([...related].sort(([a], [b]) => compareCodeUnits(a, b)));
  }
  return { classes, relations };
}
