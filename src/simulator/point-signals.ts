/**
 * Plausible values for a building's points as pure functions of the point and the instant, so a
 * backfill and the live minute-by-minute values draw the same curves: temperatures near their
 * setpoints with a daily cycle, airflow, positions, speeds and power following occupancy, commands
 * and statuses following the operating schedule. Noise is smooth (interpolated between quarter
 * hours) and deterministic per timeseries.
 */
import { zoneOffsetMinutes } from '../readings/zoned-time.ts';

/** What a signal is computed from: the point's class (local name), its unit, its timeseries id. */
export interface SignalPoint {
  readonly type: string;
  readonly unit: string | null;
  readonly timeseriesId: string;
}

/** The building's state at an instant, shared by all its points. */
interface Conditions {
  /** Occupancy, 0 (empty) to 1 (full). */
  readonly occupancy: number;
  /** Whether the HVAC schedule runs the plant (weekdays 06:00–20:00). */
  readonly on: boolean;
  /** Daily cycle, -1 at 03:00 local to +1 at 15:00. */
  readonly daily: number;
  /** Outside air temperature, °C. */
  readonly outside: number;
  /** Local hour of day, fractional. */
  readonly hour: number;
}

type Model = (c: Conditions, noise: number, t: number) => number;

const QUARTER_HOUR = 15 * 60_000;
const HOUR = 3_600_000;
// Energy meters count from here, so their readings only ever grow.
const METER_ORIGIN = Date.UTC(2024, 0, 1);

const smoothstep = (from: number, to: number, x: number) => {
  const u = Math.min(1, Math.max(0, (x - from) / (to - from)));
  return u * u * (3 - 2 * u);
};
const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;

/** The building's conditions at `t` in its timezone. */
export function conditionsAt(t: number, timeZone: string): Conditions {
  const local = new Date(t + zoneOffsetMinutes(t, timeZone) * 60_000);
  const hour = local.getUTCHours() + local.getUTCMinutes() / 60;
  const weekday = local.getUTCDay() >= 1 && local.getUTCDay() <= 5;
  const occupancy = weekday
    ? 0.9 * smoothstep(6.5, 8.5, hour) * (1 - smoothstep(17, 19.5, hour)) + 0.03 * Math.sin(hour) ** 2
    : 0.03;
  const daily = Math.sin(((hour - 9) / 24) * 2 * Math.PI);
  const dayOfYear = Math.floor((t - Date.UTC(local.getUTCFullYear(), 0, 1)) / (24 * HOUR));
  const season = -Math.cos(((dayOfYear - 15) / 365) * 2 * Math.PI); // -1 mid-January, +1 mid-July
  return { occupancy, on: weekday && hour >= 6 && hour < 20, daily, outside: 10 + 9 * season + 5 * daily, hour };
}

/** A deterministic number in [-1, 1] for a key and a knot. */
function hash(key: string, knot: number): number {
  let h = 2166136261 ^ knot;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 16777619);
  h = Math.imul(h ^ (h >>> 15), 2246822507);
  h = Math.imul(h ^ (h >>> 13), 3266489909);
  return (((h ^ (h >>> 16)) >>> 0) / 4294967295) * 2 - 1;
}

/** Smooth noise in [-1, 1]: cosine interpolation between quarter-hour knots. */
export function smoothNoise(key: string, t: number): number {
  const knot = Math.floor(t / QUARTER_HOUR);
  const fraction = (t - knot * QUARTER_HOUR) / QUARTER_HOUR;
  const w = (1 - Math.cos(fraction * Math.PI)) / 2;
  return hash(key, knot) * (1 - w) + hash(key, knot + 1) * w;
}

const zoneSetpoint = (c: Conditions) => (c.on ? 21.5 : 18);
const running = (c: Conditions) => (c.on ? 1 : 0);
const airflow = (c: Conditions) => (c.on ? 120 + 380 * c.occupancy : 0);
const power = (c: Conditions) => 25 + 90 * c.occupancy + (c.on ? 20 : 0);

// First match wins; patterns test the point's class name. Values in the unit named by the comment.
const MODELS: ReadonlyArray<readonly [RegExp, Model]> = [
  [/Occupancy_Count/, (c, n) => Math.max(0, Math.round(c.occupancy * 28 + 2 * n))],
  [/Occupancy/, (c, n) => (c.occupancy + 0.1 * n > 0.35 ? 1 : 0)],
  [/Outside_Air_Dewpoint/, (c, n) => round(c.outside - 7 + 0.5 * n, 2)],
  [/Outside_Air_Wet_Bulb/, (c, n) => round(c.outside - 3 + 0.4 * n, 2)],
  [/Outside_Air_Temperature/, (c, n) => round(c.outside + 0.6 * n, 2)],
  [/Outside_Air_Humidity/, (c, n) => round(72 - 18 * c.daily + 4 * n, 1)], // %RH
  [/Humidity/, (c, n) => round(44 + 6 * c.occupancy + 2 * n, 1)],
  [/Zone_Air_Temperature_Setpoint/, (c) => zoneSetpoint(c)], // °C
  [
    /Zone_Air_Temperature_Sensor/,
    (c, n) => round(zoneSetpoint(c) + 0.5 + 0.6 * c.daily + 0.8 * c.occupancy - 0.4 + 0.3 * n, 2),
  ],
  [/Supply_Air_Temperature_Setpoint/, () => 13],
  [/(Discharge|Supply)_Air_Temperature/, (c, n) => round(c.on ? 13.2 + 0.4 * n : 17 + 2 * c.daily + 0.3 * n, 2)],
  [/Return_Air_Temperature/, (c, n) => round(22 + 0.5 * c.daily + 0.8 * c.occupancy + 0.2 * n, 2)],
  [/Mixed_Air_Temperature/, (c, n) => round(0.3 * c.outside + 0.7 * 22 + 0.3 * n, 2)],
  [/Leaving_Chilled_Water_Temperature_Setpoint/, () => 6.5],
  [/Leaving_Chilled_Water_Temperature/, (c, n) => round(6.5 + 0.3 * n, 2)],
  [/Entering_Chilled_Water_Temperature/, (c, n) => round(11 + 2 * c.occupancy + 0.3 * n, 2)],
  [/Condenser_Water_Temperature_Setpoint/, () => 29],
  [/Entering_Condenser_Water_Temperature/, (c, n) => round(28 + 1.5 * c.daily + 0.3 * n, 2)],
  [/Leaving_Condenser_Water_Temperature/, (c, n) => round(33.5 + 1.5 * c.daily + 2 * c.occupancy + 0.3 * n, 2)],
  [/Hot_Water_Temperature_Setpoint/, () => 60],
  [/(Leaving_Hot_Water|Hot_Water_Supply)_Temperature/, (c, n) => round(60 + 0.8 * n, 2)],
  [/Entering_Hot_Water_Temperature/, (c, n) => round(46 - 3 * c.daily + 0.8 * n, 2)],
  [/Leaving_Water_Temperature/, (c, n) => round(55 - 2 * c.daily + 0.6 * n, 2)],
  [/Temperature_Sensor/, (c, n) => round(21 + 1.5 * c.daily + 0.4 * n, 2)],
  [/Temperature_Setpoint/, (c) => zoneSetpoint(c)],
  [/Static_Pressure_Setpoint/, (c) => (c.on ? 250 : 0)], // Pa
  [/Static_Pressure/, (c, n) => round(c.on ? 250 + 8 * n : 0, 1)],
  [/Filter_Differential_Pressure/, (c, n) => round(c.on ? 115 + 6 * n : 0, 1)],
  [/Differential_Pressure_Setpoint/, () => 60_000], // Pa (water)
  [/Differential_Pressure/, (c, n) => round(c.on ? 60_000 + 1500 * n : 0, 0)],
  [/Min_Air_Flow_Setpoint/, () => 100], // L/s
  [/Max_Air_Flow_Setpoint/, () => 600],
  [/Air_Flow_Setpoint/, (c) => round(airflow(c), 0)],
  [/Air_Flow/, (c, n) => round(Math.max(0, airflow(c) + 15 * n), 1)],
  [/Chilled_Water_Flow/, (c, n) => round(c.on ? 8 + 14 * c.occupancy + n : 0, 2)],
  [/Hot_Water_Flow/, (c, n) => round(4 + 3 * (1 - c.daily) + 0.5 * n, 2)],
  [/Flow/, (c, n) => round(c.on ? 10 + 10 * c.occupancy + n : 0, 2)],
  [/(Damper|Valve)_Position/, (c, n) => round(c.on ? Math.min(100, Math.max(0, 25 + 55 * c.occupancy + 5 * n)) : 0, 1)], // %
  [/Speed_Command/, (c, n) => round(c.on ? 40 + 45 * c.occupancy + 3 * n : 0, 1)],
  [/Frequency/, (c, n) => round(c.on ? 25 + 23 * c.occupancy + n : 0, 2)], // Hz
  [/Fault|Freeze|Alarm/, () => 0],
  [/Status|Start_Stop|Enable/, (c) => running(c)],
  [/CO2/, (c, n) => Math.round(420 + 480 * c.occupancy + 25 * n)], // ppm
  [/Power_Factor/, (c, n) => round(0.93 + 0.02 * n, 3)],
  [/Reactive_Power/, (c, n) => round(0.3 * power(c) + 2 * n, 2)], // kVAR
  [/Thermal_Power/, (c, n) => round(Math.max(0, 60 - 40 * c.daily + 10 * n), 2)], // kW
  [/(Active|Electric)_Power/, (c, n) => round(power(c) + 5 * n, 2)], // kW
  [/Energy/, (c, _n, t) => round(((t - METER_ORIGIN) / HOUR) * 75, 1)], // kWh: a meter at 75 kW on average
  [/Voltage/, (c, n) => round(400 + 3 * n, 1)], // V
  [/Current/, (c, n) => round(power(c) * 1.5 + 3 * n, 1)], // A
  [/Wind_Speed/, (c, n) => round(Math.abs(3.5 + 2.5 * n), 2)], // m/s
  [/Solar_Irradiance/, (c, n) => round(Math.max(0, 650 * Math.sin((Math.PI * (c.hour - 6)) / 14) + 60 * n), 1)], // W/m2
  [/Setpoint|Parameter|Limit/, () => 50],
];

/** Units the models above do not use, and the factor from the model's unit to them. */
const UNIT_FACTORS: Readonly<Record<string, number>> = { KiloPA: 0.001, 'M3-PER-SEC': 0.001, MegaW: 0.001 };

/** The point's value at `t` (site time zone `timeZone`). */
export function signalValue(point: SignalPoint, t: number, timeZone: string): number {
  const conditions = conditionsAt(t, timeZone);
  const noise = smoothNoise(point.timeseriesId, t);
  const model =
    MODELS.find(([pattern]) => pattern.test(point.type))?.[1] ?? ((_c: Conditions, n: number) => round(50 + 10 * n, 2));
  const value = model(conditions, noise, t);
  const factor = point.unit ? UNIT_FACTORS[point.unit] : undefined;
  return factor === undefined ? value : round(value * factor, 6);
}
