import { beforeAll, describe, expect, it } from 'vitest';
import type { Ontology } from '../../../src/ontology/ontology.ts';
import { BRICK, REC, loadDerivedOntology } from './derived-ontology.ts';

let ontology: Ontology;
beforeAll(async () => {
  ontology = await loadDerivedOntology();
});

describe('closure', () => {
  it('makes AHU match Air_Handling_Unit and its subclasses, both ways', () => {
    const ahu = ontology.closure(`${BRICK}AHU`);
    expect(ahu).toContain(`${BRICK}Air_Handling_Unit`);
    expect(ahu).toContain(`${BRICK}Rooftop_Unit`);
    expect(ontology.closure(`${BRICK}Air_Handling_Unit`)).toContain(`${BRICK}AHU`);
  });

  it('makes Floor match rec:Level (a replacement) and its subclasses', () => {
    const floor = ontology.closure(`${BRICK}Floor`);
    expect(floor).toContain(`${REC}Level`);
    expect(floor).toContain(`${REC}BasementLevel`);
    expect(floor).toContain(`${BRICK}Storey`);
    expect(ontology.closure(`${REC}Level`)).toContain(`${BRICK}Floor`);
  });

  it('includes AHU, VAV, Chiller and Pump under HVAC_Equipment', () => {
    const hvac = ontology.closure(`${BRICK}HVAC_Equipment`);
    for (const name of ['AHU', 'Air_Handling_Unit', 'VAV', 'Chiller', 'Pump', 'Chilled_Water_Pump']) {
      expect(hvac).toContain(`${BRICK}${name}`);
    }
  });

  it('includes Air_Temperature_Sensor under Temperature_Sensor', () => {
    expect(ontology.closure(`${BRICK}Temperature_Sensor`)).toContain(`${BRICK}Air_Temperature_Sensor`);
  });

  it('never climbs to superclasses', () => {
    const sensor = ontology.closure(`${BRICK}Air_Temperature_Sensor`);
    expect(sensor).not.toContain(`${BRICK}Temperature_Sensor`);
    expect(sensor).not.toContain(`${BRICK}Point`);
  });

  it('includes rec:Architecture and rec:Room under brick:Location', () => {
    const location = ontology.closure(`${BRICK}Location`);
    expect(location).toContain(`${REC}Architecture`);
    expect(location).toContain(`${REC}Room`);
  });

  it('matches a deprecated class to its replacement and back', () => {
    expect(ontology.closure(`${BRICK}Heat_Sensor`)).toContain(`${BRICK}Air_Temperature_Sensor`);
    expect(ontology.closure(`${BRICK}Temperature_Sensor`)).toContain(`${BRICK}Heat_Sensor`);
    expect(ontology.closure(`${BRICK}Furniture`)).toContain(`${REC}Chair`);
  });

  it('is the class alone for a class outside the ontology', () => {
    expect([...ontology.closure('http://example.org/Foo')]).toEqual(['http://example.org/Foo']);
  });

  it('returns the same set on a second call (memoized)', () => {
    expect(ontology.closure(`${BRICK}Point`)).toBe(ontology.closure(`${BRICK}Point`));
  });
});

describe('deprecated classes, forward only', () => {
  const setpoint = `${BRICK}Supply_Hot_Water_Temperature_Setpoint`;
  const domestic = `${BRICK}Domestic_Hot_Water_Supply_Temperature_Setpoint`;

  it('never makes a deprecated setpoint a sensor through its own superclass', () => {
    for (const sensor of [
      'Temperature_Sensor',
      'Sensor',
      'Supply_Water_Temperature_Sensor',
      'Water_Temperature_Sensor',
    ]) {
      expect(ontology.closure(`${BRICK}${sensor}`), sensor).not.toContain(setpoint);
      expect(ontology.closure(`${BRICK}${sensor}`), sensor).not.toContain(domestic);
    }
    expect(ontology.kindsOfTypes([setpoint])).toEqual(new Set(['Point']));
  });

  it('matches a deprecated class where its final replacement matches', () => {
    expect(ontology.closure(`${BRICK}Setpoint`)).toContain(setpoint);
    expect(ontology.closure(`${BRICK}Leaving_Hot_Water_Temperature_Setpoint`)).toContain(setpoint);
    expect(ontology.closure(`${BRICK}Setpoint`)).toContain(domestic);
  });

  it('takes an old name as an argument to mean its replacement, not its old superclasses', () => {
    expect(ontology.closure(setpoint)).toEqual(ontology.closure(`${BRICK}Leaving_Hot_Water_Temperature_Setpoint`));
    expect(ontology.closure(setpoint)).not.toContain(`${BRICK}Supply_Water_Temperature_Sensor`);
  });

  it("gives a deprecated class its replacement's hierarchy", () => {
    const names = ontology.typeHierarchy(setpoint, 'Point');
    expect(names[0]).toBe('Supply_Hot_Water_Temperature_Setpoint');
    expect(names[1]).toBe('Leaving_Hot_Water_Temperature_Setpoint');
    expect(names).toContain('Setpoint');
    expect(names.at(-1)).toBe('Point');
    expect(names.some((name) => name.endsWith('Sensor'))).toBe(false);
  });
});

describe('replacement links that would widen matches', () => {
  it('does not make rooms Equipment through Stage_Riser → rec:Room', () => {
    expect(ontology.closure(`${BRICK}Equipment`)).not.toContain(`${REC}Room`);
    expect(ontology.kindsOfTypes([`${REC}Room`])).toEqual(new Set(['Location']));
  });

  it('reads the deprecated brick:Space as rec:Space, as Brick 1.4 says: every space, a Brick 1.3 room included', () => {
    expect(ontology.closure(`${BRICK}Space`)).toEqual(ontology.closure(`${REC}Space`));
    expect(ontology.closure(`${BRICK}Space`)).toContain(`${BRICK}Room`);
    expect(ontology.closure(`${BRICK}Space`)).toContain(`${REC}Room`);
  });

  it('lists the six links it leaves out of Brick 1.4.4, each with a reason', () => {
    const ignored = ontology.ignoredReplacements.map(({ link: [from, to], reason }) => [
      ontology.localName(from),
      ontology.localName(to),
      reason,
    ]);
    expect(ignored).toEqual([
      ['Bench_Space', 'Zone', 'crosses-kinds'],
      ['Cubicle', 'Workspace', 'crosses-kinds'],
      ['Enclosed_Office', 'Workspace', 'crosses-kinds'],
      ['Fire_Zone', 'ServiceEntrance', 'crosses-kinds'],
      ['Parking_Space', 'ParkingSpace', 'crosses-kinds'],
      ['Stage_Riser', 'Room', 'crosses-kinds'],
    ]);
  });
});

describe('kinds', () => {
  it('excludes zones from Location but keeps rooms and buildings', () => {
    const location = ontology.kindClasses('Location');
    expect(location).not.toContain(`${BRICK}HVAC_Zone`);
    expect(location).not.toContain(`${REC}HVACZone`);
    expect(location).toContain(`${BRICK}Room`);
    expect(location).toContain(`${REC}Room`);
    expect(location).toContain(`${BRICK}Building`);
    expect(location).toContain(`${REC}Building`);
  });

  it('puts brick: and rec: zones in Zone', () => {
    expect(ontology.kindClasses('Zone')).toContain(`${BRICK}HVAC_Zone`);
    expect(ontology.kindClasses('Zone')).toContain(`${REC}HVACZone`);
  });

  it('gives a building both Building and Location', () => {
    expect(ontology.kindsOfTypes([`${BRICK}Building`])).toEqual(new Set(['Building', 'Location']));
  });

  it('classifies equipment, points and systems by any asserted class', () => {
    expect(ontology.kindsOfTypes([`${BRICK}VAV`])).toEqual(new Set(['Equipment']));
    expect(ontology.kindsOfTypes(['http://example.org/Foo', `${BRICK}Air_Temperature_Sensor`])).toEqual(
      new Set(['Point']),
    );
    expect(ontology.kindsOfTypes([`${BRICK}HVAC_System`])).toEqual(new Set(['System']));
  });

  it('is empty when no asserted class is in any kind', () => {
    expect(ontology.kindsOfTypes(['http://example.org/Foo'])).toEqual(new Set());
    expect(ontology.kindsOfTypes([])).toEqual(new Set());
  });

  it('keeps the kinds apart, apart from buildings being locations', () => {
    const kinds = ['Location', 'Zone', 'Equipment', 'Point', 'System'] as const;
    for (const a of kinds) {
      for (const b of kinds) {
        if (a >= b) continue;
        const shared = [...ontology.kindClasses(a)].filter((c) => ontology.kindClasses(b).has(c));
        expect(shared, `${a} ∩ ${b}`).toEqual([]);
      }
    }
  });
});

describe('resolveClass', () => {
  it('takes a Brick local name', () => {
    expect(ontology.resolveClass('AHU')).toBe(`${BRICK}AHU`);
  });

  it('falls back to rec: for a local name Brick lacks', () => {
    expect(ontology.resolveClass('Level')).toBe(`${REC}Level`);
  });

  it('takes prefixed names', () => {
    expect(ontology.resolveClass('brick:AHU')).toBe(`${BRICK}AHU`);
    expect(ontology.resolveClass('rec:Room')).toBe(`${REC}Room`);
  });

  it('takes a full IRI', () => {
    expect(ontology.resolveClass(`${BRICK}VAV`)).toBe(`${BRICK}VAV`);
  });

  it('is undefined for unknown classes, prefixes and empty names', () => {
    expect(ontology.resolveClass('Temprature_Sensor')).toBeUndefined();
    expect(ontology.resolveClass('ex:Foo')).toBeUndefined();
    expect(ontology.resolveClass('http://example.org/Foo')).toBeUndefined();
    expect(ontology.resolveClass('')).toBeUndefined();
  });

  it('is case-sensitive, as IRIs are', () => {
    expect(ontology.resolveClass('ahu')).toBeUndefined();
  });

  it('knows exactly the classes it resolves', () => {
    expect(ontology.isKnownClass(`${BRICK}AHU`)).toBe(true);
    expect(ontology.isKnownClass(`${BRICK}Air`)).toBe(false);
  });
});

describe('suggest', () => {
  it('finds Temperature_Sensor for Temprature_Sensor', () => {
    expect(ontology.suggest('Temprature_Sensor')[0]).toBe('Temperature_Sensor');
  });

  it('ignores case and prefixes, and names rec: classes with their prefix', () => {
    expect(ontology.suggest('ahu')[0]).toBe('AHU');
    expect(ontology.suggest('rec:Rom')).toContain('rec:Room');
  });

  it('returns at most max names, and none for nonsense', () => {
    expect(ontology.suggest('Temprature_Sensor', 1)).toHaveLength(1);
    expect(ontology.suggest('qqqqqqqqqqqqqqqqqq')).toEqual([]);
  });
});
