import { fileURLToPath } from 'node:url';
import { Ontology } from '../../../src/ontology/ontology.ts';

/** The derived ontology the repository ships. */
export const DERIVED_ONTOLOGY_PATH = fileURLToPath(new URL('../../../ontology/brick-hierarchy.ttl', import.meta.url));

/** The full Brick 1.4.4 file beside the repository, present on developer machines but not committed. */
export const FULL_BRICK_PATH = fileURLToPath(new URL('../../../../shared/ontology/Brick.ttl', import.meta.url));

export const BRICK = 'https://brickschema.org/schema/Brick#';
export const REC = 'https://w3id.org/rec#';

/** Loads the shipped ontology. */
export function loadDerivedOntology(): Promise<Ontology> {
  return Ontology.load(DERIVED_ONTOLOGY_PATH);
}
