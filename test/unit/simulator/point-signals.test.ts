import { describe, expect, it } from 'vitest';
import { conditionsAt, signalValue, smoothNoise } from '../../../src/simulator/point-signals.ts';

const BERLIN = 'Europe/Berlin';
// Wednesday 2026-11-18: 03:00 and 11:00 local (UTC+1); Sunday 2026-11-22 11:00 local.
const NIGHT = Date.parse('2026-11-18T02:00:00Z');
const MIDDAY = Date.parse('2026-11-18T10:00:00Z');
const SUNDAY = Date.parse('2026-11-22T10:00:00Z');
const point = (type: string, unit: string | null = null) => ({ type, unit, timeseriesId: `ts-${type}` });

describe('the demo signals', () => {
  it('are deterministic and smooth', () => {
    expect(signalValue(point('Zone_Air_Temperature_Sensor'), MIDDAY, BERLIN)).toBe(
      signalValue(point('Zone_Air_Temperature_Sensor'), MIDDAY, BERLIN),
    );
    for (let t = MIDDAY; t < MIDDAY + 3_600_000; t += 60_000)
      expect(Math.abs(smoothNoise('k', t + 60_000) - smoothNoise('k', t))).toBeLessThan(0.25);
  });

  it('follow occupancy: occupied on a weekday midday, empty at night and on Sunday', () => {
    expect(conditionsAt(MIDDAY, BERLIN)).toMatchObject({ on: true });
    expect(conditionsAt(MIDDAY, BERLIN).occupancy).toBeGreaterThan(0.8);
    expect(conditionsAt(NIGHT, BERLIN)).toMatchObject({ on: false });
    expect(conditionsAt(SUNDAY, BERLIN)).toMatchObject({ on: false });
    expect(signalValue(point('Supply_Air_Flow_Sensor'), MIDDAY, BERLIN)).toBeGreaterThan(
      signalValue(point('Supply_Air_Flow_Sensor'), NIGHT, BERLIN),
    );
    expect(signalValue(point('Fan_Status'), MIDDAY, BERLIN)).toBe(1);
    expect(signalValue(point('Fan_Status'), NIGHT, BERLIN)).toBe(0);
    expect(signalValue(point('Fault_Status'), MIDDAY, BERLIN)).toBe(0);
  });

  it('keep zone temperatures near their setpoints', () => {
    for (const t of [MIDDAY, NIGHT, SUNDAY]) {
      const setpoint = signalValue(point('Zone_Air_Temperature_Setpoint'), t, BERLIN);
      expect(Math.abs(signalValue(point('Zone_Air_Temperature_Sensor'), t, BERLIN) - setpoint)).toBeLessThan(2);
    }
  });

  it('convert to the point’s unit and count energy upwards', () => {
    const pa = signalValue(point('Chilled_Water_Differential_Pressure_Sensor'), MIDDAY, BERLIN);
    const kpa = signalValue(point('Chilled_Water_Differential_Pressure_Sensor', 'KiloPA'), MIDDAY, BERLIN);
    expect(kpa).toBeCloseTo(pa / 1000, 6);
    expect(signalValue(point('Electric_Energy_Sensor'), MIDDAY + 60_000, BERLIN)).toBeGreaterThan(
      signalValue(point('Electric_Energy_Sensor'), MIDDAY, BERLIN),
    );
  });
});
