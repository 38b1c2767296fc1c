import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENTITY_KINDS } from '../../../src/ontology/entity-kind.ts';
import { Ontology } from '../../../src/ontology/ontology.ts';
import { BRICK, FULL_BRICK_PATH, loadDerivedOntology } from './derived-ontology.ts';

const present = existsSync(FULL_BRICK_PATH);
if (!present) console.warn(`Skipping the full-Brick comparison: ${FULL_BRICK_PATH} is absent.`);

describe('the derived ontology against the full Brick.ttl', () => {
  it.skipIf(!present)(
    `gives the same classes and kind sets as the full Brick 1.4.4 file (needs ${FULL_BRICK_PATH})`,
    async () => {
      const started = performance.now();
      const full = await Ontology.load(FULL_BRICK_PATH);
      // A loose bound (the target is well under 2 s) so a slow CI machine does not fail the suite.
      expect(performance.now() - started).toBeLessThan(5_000);
      const derived = await loadDerivedOntology();
      expect(derived.classes).toEqual(full.classes);
      for (const kind of ENTITY_KINDS) {
        expect(derived.kindClasses(kind).size, kind).toBe(full.kindClasses(kind).size);
        expect(derived.kindClasses(kind), kind).toEqual(full.kindClasses(kind));
      }
      for (const name of ['AHU', 'HVAC_Equipment', 'Temperature_Sensor', 'Floor']) {
        expect(derived.closure(`${BRICK}${name}`), name).toEqual(full.closure(`${BRICK}${name}`));
      }
      expect(derived.ignoredReplacements).toEqual(full.ignoredReplacements);
    },
  );
});
