// A site's own reading of the ontology (docs/brick-mapping.md, "How a site's classes are read"): classes of older Brick vintages
// mapped forward to Brick 1.4, and subclasses the site declares extending the hierarchy for that site.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Ontology } from '../../../src/ontology/ontology.ts';
import { BRICK, loadDerivedOntology } from './derived-ontology.ts';

const V102 = 'https://brickschema.org/schema/1.0.2/Brick#';
const V11 = 'https://brickschema.org/schema/1.1/Brick#';
const SITE = 'urn:site:plant#';

let brick: Ontology;
beforeAll(async () => {
  brick = await loadDerivedOntology();
});

describe('Brick 1.0 names', () => {
  it('reads a renamed 1.0 class, unversioned or versioned, as its Brick 1.4 class', () => {
    const site = brick.forSite({
      types: [`${BRICK}Zone_Temperature_Sensor`, `${V102}Zone_Temperature_Sensor`],
      subClassOf: [],
    });
    for (const old of [`${BRICK}Zone_Temperature_Sensor`, `${V102}Zone_Temperature_Sensor`]) {
      expect(site.closure(`${BRICK}Zone_Air_Temperature_Sensor`)).toContain(old);
      expect(site.closure(`${BRICK}Temperature_Sensor`)).toContain(old);
      expect(site.closure(`${BRICK}Point`)).toContain(old);
      expect(site.kindsOfTypes([old])).toEqual(new Set(['Point']));
      expect(site.typeWithinKind([old], 'Point')).toBe(`${BRICK}Zone_Air_Temperature_Sensor`);
    }
    expect(site.siteClasses.renamed.get(`${BRICK}Zone_Temperature_Sensor`)).toBe(`${BRICK}Zone_Air_Temperature_Sensor`);
  });

  it('reads a class of the 1.1 namespace as the class of the same name', () => {
    const site = brick.forSite({ types: [`${V11}AHU`], subClassOf: [] });
    expect(site.closure(`${BRICK}Air_Handling_Unit`)).toContain(`${V11}AHU`);
    expect(site.kindsOfTypes([`${V11}AHU`])).toEqual(new Set(['Equipment']));
  });

  it('takes an old name as a class argument, on any site', () => {
    expect(brick.resolveClass('Zone_Temperature_Sensor')).toBe(`${BRICK}Zone_Air_Temperature_Sensor`);
  });

  it('lists what the ontology graph does not mark, for the queries to name', () => {
    const site = brick.forSite({ types: [`${BRICK}Zone_Temperature_Sensor`], subClassOf: [] });
    expect(site.unmarkedKindClasses('Point')).toEqual([`${BRICK}Zone_Temperature_Sensor`]);
    expect(site.unmarkedKindClasses('Equipment')).toEqual([]);
    expect(brick.unmarkedKindClasses('Point')).toEqual([]);
  });

  it('is Brick itself for a site that adds nothing, and the same object for the same additions', () => {
    expect(brick.forSite({ types: [`${BRICK}AHU`, 'urn:x:Thing'], subClassOf: [] })).toBe(brick);
    const a = brick.forSite({ types: [`${BRICK}Zone_Temperature_Sensor`], subClassOf: [] });
    expect(brick.forSite({ types: [`${BRICK}Zone_Temperature_Sensor`], subClassOf: [] })).toBe(a);
  });
});

describe('classes a site declares', () => {
  const site = () =>
    brick.forSite({
      types: [`${SITE}Firing_Rate_Sensor`, `${SITE}Pilot_Flame_Sensor`],
      subClassOf: [
        [`${SITE}Firing_Rate_Sensor`, `${BRICK}Point`],
        [`${SITE}Pilot_Flame_Sensor`, `${SITE}Firing_Rate_Sensor`],
        // A site does not redefine Brick's own classes.
        [`${BRICK}Temperature_Sensor`, `${BRICK}Equipment`],
      ],
    });

  it('matches them under their declared superclasses, transitively', () => {
    expect(site().closure(`${BRICK}Point`)).toContain(`${SITE}Firing_Rate_Sensor`);
    expect(site().closure(`${BRICK}Point`)).toContain(`${SITE}Pilot_Flame_Sensor`);
    expect(site().closure(`${SITE}Firing_Rate_Sensor`)).toContain(`${SITE}Pilot_Flame_Sensor`);
    expect(site().kindsOfTypes([`${SITE}Pilot_Flame_Sensor`])).toEqual(new Set(['Point']));
  });

  it('resolves them by local name as class arguments, and gives their hierarchy', () => {
    expect(site().resolveClass('Firing_Rate_Sensor')).toBe(`${SITE}Firing_Rate_Sensor`);
    expect(site().typeHierarchy(`${SITE}Pilot_Flame_Sensor`, 'Point')).toEqual([
      'Pilot_Flame_Sensor',
      'Firing_Rate_Sensor',
      'Point',
    ]);
  });

  it('leaves Brick classes as Brick defines them', () => {
    expect(site().kindsOfTypes([`${BRICK}Temperature_Sensor`])).toEqual(new Set(['Point']));
    expect(brick.resolveClass('Firing_Rate_Sensor')).toBeUndefined();
  });
});
