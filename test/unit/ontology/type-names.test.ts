import { beforeAll, describe, expect, it } from 'vitest';
import type { Ontology } from '../../../src/ontology/ontology.ts';
import { BRICK, REC, loadDerivedOntology } from './derived-ontology.ts';

let ontology: Ontology;
beforeAll(async () => {
  ontology = await loadDerivedOntology();
});

describe('mostSpecific', () => {
  it('picks Air_Temperature_Sensor over Temperature_Sensor and Point', () => {
    const types = [`${BRICK}Point`, `${BRICK}Temperature_Sensor`, `${BRICK}Air_Temperature_Sensor`];
    expect(ontology.mostSpecific(types)).toBe(`${BRICK}Air_Temperature_Sensor`);
  });

  it('breaks a tie between equivalent classes alphabetically by local name', () => {
    expect(ontology.mostSpecific([`${BRICK}Air_Handling_Unit`, `${BRICK}AHU`])).toBe(`${BRICK}AHU`);
  });

  it('breaks a tie between equal local names by IRI', () => {
    expect(ontology.mostSpecific([`${REC}Room`, `${BRICK}Room`])).toBe(`${BRICK}Room`);
  });

  it('counts a class outside the ontology as a candidate', () => {
    expect(ontology.mostSpecific(['http://example.org/Foo'])).toBe('http://example.org/Foo');
    expect(ontology.mostSpecific(['http://example.org/Zed', `${BRICK}VAV`])).toBe(`${BRICK}VAV`);
  });

  it('is undefined without types', () => {
    expect(ontology.mostSpecific([])).toBeUndefined();
  });
});

describe('typeHierarchy', () => {
  it('lists a point class and its ancestors up to Point, nearest first', () => {
    const hierarchy = ontology.typeHierarchy(`${BRICK}Air_Temperature_Sensor`, 'Point');
    expect(hierarchy.slice(0, 2)).toEqual(['Air_Temperature_Sensor', 'Temperature_Sensor']);
    expect(hierarchy.at(-1)).toBe('Point');
    expect(hierarchy).toEqual(['Air_Temperature_Sensor', 'Temperature_Sensor', 'Sensor', 'Point']);
  });

  it('lists equipment up to Equipment', () => {
    expect(ontology.typeHierarchy(`${BRICK}VAV`, 'Equipment')).toEqual([
      'VAV',
      'Terminal_Unit',
      'HVAC_Equipment',
      'Equipment',
    ]);
  });

  it('ends a rec: class with the kind root, not rec:Architecture', () => {
    expect(ontology.typeHierarchy(`${REC}Room`, 'Location')).toEqual(['Room', 'Location']);
    expect(ontology.typeHierarchy(`${REC}HVACZone`, 'Zone')).toEqual(['HVACZone', 'Zone']);
  });

  it('ends a building with Location, since a building is a location', () => {
    expect(ontology.typeHierarchy(`${BRICK}Building`, 'Building')).toEqual(['Building', 'Location']);
  });

  it('is just the root for the root class itself', () => {
    expect(ontology.typeHierarchy(`${BRICK}Equipment`, 'Equipment')).toEqual(['Equipment']);
  });

  it('puts a class outside the ontology directly under the root', () => {
    expect(ontology.typeHierarchy('http://example.org/Foo', 'Equipment')).toEqual(['Foo', 'Equipment']);
  });

  it('has no duplicates', () => {
    for (const cls of ontology.kindClasses('Location')) {
      const hierarchy = ontology.typeHierarchy(cls, 'Location');
      expect(new Set(hierarchy).size).toBe(hierarchy.length);
      expect(hierarchy.at(-1)).toBe('Location');
    }
  });
});

describe('localName', () => {
  it('takes what follows the last # or /', () => {
    expect(ontology.localName(`${BRICK}AHU`)).toBe('AHU');
    expect(ontology.localName('http://example.org/site/vav-1')).toBe('vav-1');
  });
});

describe('typeWithinKind and kindsOfTypes (memoized per class set)', () => {
  const vav = `${BRICK}VAV`;
  const sensor = `${BRICK}Air_Temperature_Sensor`;
  const owl = 'http://www.w3.org/2002/07/owl#NamedIndividual';

  it('answers each kind for the same classes, whichever was asked first', () => {
    expect(ontology.typeWithinKind([vav, sensor], 'Point')).toBe(sensor);
    expect(ontology.typeWithinKind([vav, sensor], 'Equipment')).toBe(vav);
    expect(ontology.typeWithinKind([sensor, vav], 'Point')).toBe(sensor);
  });

  it('falls back to the most specific class outside the kind, never RDF or OWL’s own', () => {
    expect(ontology.typeWithinKind([owl, 'http://example.org/Foo'], 'Equipment')).toBe('http://example.org/Foo');
    expect(ontology.typeWithinKind([owl], 'Equipment')).toBeUndefined();
  });

  it('gives the same kinds for a class set in any order, and none for unknown classes', () => {
    expect([...ontology.kindsOfTypes([vav, sensor])].sort()).toEqual(['Equipment', 'Point']);
    expect([...ontology.kindsOfTypes([sensor, vav])].sort()).toEqual(['Equipment', 'Point']);
    expect(ontology.kindsOfTypes(['http://example.org/Foo']).size).toBe(0);
  });
});
