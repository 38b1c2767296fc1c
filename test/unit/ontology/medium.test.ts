import { beforeAll, describe, expect, it } from 'vitest';
import type { Ontology } from '../../../src/ontology/ontology.ts';
import { OUTPUT_SUBSTANCE_DEFAULTS } from '../../../src/ontology/output-substance-defaults.ts';
import { BRICK, loadDerivedOntology } from './derived-ontology.ts';

let ontology: Ontology;
beforeAll(async () => {
  ontology = await loadDerivedOntology();
});

const matches = (substance: string, medium: string): boolean =>
  ontology.substanceMatches(`${BRICK}${substance}`, ontology.resolveMedium(medium)!);

describe('resolveMedium', () => {
  it('maps each medium value to its brick:Substance, in any case', () => {
    expect(ontology.resolveMedium('HOT_WATER')).toBe(`${BRICK}Hot_Water`);
    expect(ontology.resolveMedium('air')).toBe(`${BRICK}Air`);
    for (const value of ontology.mediumValues) expect(ontology.isSubstance(ontology.resolveMedium(value)!)).toBe(true);
  });

  it('is undefined for an unknown medium', () => {
    expect(ontology.resolveMedium('PLASMA')).toBeUndefined();
    expect(ontology.resolveMedium('toString')).toBeUndefined();
  });
});

describe('substanceMatches', () => {
  it('matches Hot_Water to WATER (narrower) and HOT_WATER (same)', () => {
    expect(matches('Hot_Water', 'WATER')).toBe(true);
    expect(matches('Hot_Water', 'HOT_WATER')).toBe(true);
  });

  it('matches plain Water to HOT_WATER (broader)', () => {
    expect(matches('Water', 'HOT_WATER')).toBe(true);
  });

  it('does not match Chilled_Water to HOT_WATER', () => {
    expect(matches('Chilled_Water', 'HOT_WATER')).toBe(false);
  });

  it('matches Air to AIR and not to WATER', () => {
    expect(matches('Air', 'AIR')).toBe(true);
    expect(matches('Air', 'WATER')).toBe(false);
  });

  it('follows skos:broader transitively', () => {
    expect(matches('Leaving_Hot_Water', 'WATER')).toBe(true);
    expect(matches('Air', 'GAS')).toBe(true);
  });
});

describe('defaultOutputSubstance', () => {
  const defaultOf = (...classes: string[]): string | undefined =>
    ontology.defaultOutputSubstance(classes.map((c) => `${BRICK}${c}`))?.slice(BRICK.length);

  it('gives air for AHUs (through the AHU ≡ Air_Handling_Unit equivalence), VAVs, FCUs and fans', () => {
    expect(defaultOf('AHU')).toBe('Air');
    expect(defaultOf('Rooftop_Unit')).toBe('Air');
    expect(defaultOf('VAV')).toBe('Air');
    expect(defaultOf('FCU')).toBe('Air');
    expect(defaultOf('Supply_Fan')).toBe('Air');
  });

  it('gives chilled water for chillers, hot water for boilers, condenser water for cooling towers', () => {
    expect(defaultOf('Chiller')).toBe('Chilled_Water');
    expect(defaultOf('Centrifugal_Chiller')).toBe('Chilled_Water');
    expect(defaultOf('Boiler')).toBe('Hot_Water');
    expect(defaultOf('Cooling_Tower')).toBe('Condenser_Water');
  });

  it('gives water for a heat exchanger but air for a coil, a heat exchanger in an air stream', () => {
    expect(defaultOf('HX')).toBe('Water');
    expect(defaultOf('Hot_Water_Coil')).toBe('Air');
  });

  it('gives a pump a substance only when its class names one', () => {
    expect(defaultOf('Pump')).toBeUndefined();
    expect(defaultOf('Booster_Pump')).toBeUndefined();
    expect(defaultOf('Chilled_Water_Pump')).toBe('Chilled_Water');
    expect(defaultOf('Hot_Water_Circulator_Pump')).toBe('Hot_Water');
    expect(defaultOf('Condenser_Water_Booster_Pump')).toBe('Condenser_Water');
  });

  it('lets the most specific asserted class decide', () => {
    expect(defaultOf('Pump', 'Chilled_Water_Pump')).toBe('Chilled_Water');
    expect(defaultOf('Terminal_Unit', 'Hot_Water_Radiator')).toBeUndefined();
  });

  it('gives nothing for radiators, classes without an entry, or no classes', () => {
    expect(defaultOf('Radiator')).toBeUndefined();
    expect(defaultOf('Building_Meter')).toBeUndefined();
    expect(defaultOf()).toBeUndefined();
  });

  it('names only classes and substances that exist in Brick 1.4', () => {
    for (const { equipmentClass, substance } of OUTPUT_SUBSTANCE_DEFAULTS) {
      expect(ontology.isKnownClass(`${BRICK}${equipmentClass}`), equipmentClass).toBe(true);
      if (substance !== null) expect(ontology.isSubstance(`${BRICK}${substance}`), substance).toBe(true);
      expect(ontology.kindClasses('Equipment'), equipmentClass).toContain(`${BRICK}${equipmentClass}`);
    }
  });
});
