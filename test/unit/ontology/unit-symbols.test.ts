// Unit symbols come from QUDT's data (ontology/qudt-unit-symbols.json, derived by npm run build:units).
import { describe, expect, it } from 'vitest';
import { unitSymbol } from '../../../src/ontology/unit-symbols.ts';

const UNIT = 'http://qudt.org/vocab/unit/';

describe('unitSymbol', () => {
  it('gives QUDT’s symbol for the units building models state', () => {
    expect(unitSymbol(`${UNIT}DEG_C`)).toBe('°C');
    expect(unitSymbol(`${UNIT}M3-PER-SEC`)).toBe('m³/s');
    expect(unitSymbol(`${UNIT}KiloW-HR`)).toBe('kW·h');
    expect(unitSymbol(`${UNIT}PERCENT`)).toBe('%');
  });

  it('is null for an unknown unit or an IRI outside QUDT’s units', () => {
    expect(unitSymbol(`${UNIT}NOT_A_UNIT`)).toBeNull();
    expect(unitSymbol('https://example.org/units#DEG_C')).toBeNull();
  });
});
