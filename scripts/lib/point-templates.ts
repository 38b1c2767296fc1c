/**
 * Point lists of common HVAC and metering equipment, with real Brick 1.4 point classes and, where
 * Brick 1.4 renamed a class, the pre-1.4 name older models still carry (`legacy`). Generators pick
 * from these so every generated model speaks the same vocabulary.
 *
 * A template names the point relative to its owner: id `${owner}-${key}`, label `${owner label} ${text}`.
 */

export interface PointTemplate {
  /** Suffix of the point id. */
  readonly key: string;
  /** Brick local class name (Brick 1.4). */
  readonly cls: string;
  /** Label text after the owner's label. */
  readonly text: string;
  /** QUDT local name. */
  readonly unit?: string;
  /** The pre-1.4 Brick local class name for the same point, when Brick renamed it. */
  readonly legacy?: string;
}

export function pt(key: string, cls: string, text: string, unit?: string, legacy?: string): PointTemplate {
  return { key, cls, text, ...(unit === undefined ? {} : { unit }), ...(legacy === undefined ? {} : { legacy }) };
}

/** The class a template gets in a model that uses pre-1.4 names where it can. */
export function templateClass(t: PointTemplate, legacy: boolean): string {
  return legacy && t.legacy ? t.legacy : t.cls;
}

/** Whether a point class is one of the kinds a configuration parameter is (never trended). */
export function isParameterClass(cls: string): boolean {
  return /_Limit$|_Parameter$/.test(cls);
}

/** Whether operators may write a point of this class by default (commands and setpoints). */
export function isWritableClass(cls: string): boolean {
  return /_Command$|_Setpoint$/.test(cls);
}

export const AHU_POINTS: readonly PointTemplate[] = [
  pt('SAT', 'Supply_Air_Temperature_Sensor', 'Supply Air Temp', 'DEG_C'),
  pt('SAT-SP', 'Supply_Air_Temperature_Setpoint', 'Supply Air Temp Setpoint', 'DEG_C'),
  pt('RAT', 'Return_Air_Temperature_Sensor', 'Return Air Temp', 'DEG_C'),
  pt('MAT', 'Mixed_Air_Temperature_Sensor', 'Mixed Air Temp', 'DEG_C'),
  pt('OAT', 'Outside_Air_Temperature_Sensor', 'Outside Air Temp', 'DEG_C'),
  pt('SAP', 'Supply_Air_Static_Pressure_Sensor', 'Supply Air Static Pressure', 'PA'),
  pt('SAP-SP', 'Supply_Air_Static_Pressure_Setpoint', 'Supply Air Static Pressure Setpoint', 'PA'),
  pt('FLT-DP', 'Filter_Differential_Pressure_Sensor', 'Filter Differential Pressure', 'PA'),
  pt('OAH', 'Outside_Air_Humidity_Sensor', 'Outside Air Humidity', 'PERCENT_RH'),
  pt('RAH', 'Return_Air_Humidity_Sensor', 'Return Air Humidity', 'PERCENT_RH'),
  pt('OAD-CMD', 'Damper_Position_Command', 'Outside Air Damper Command', 'PERCENT'),
  pt('SAF', 'Supply_Air_Flow_Sensor', 'Supply Air Flow', 'M3-PER-SEC'),
  pt('RA-CO2', 'Return_Air_CO2_Sensor', 'Return Air CO2', 'PPM'),
  pt('MODE', 'Operating_Mode_Status', 'Operating Mode'),
];

export const FAN_POINTS: readonly PointTemplate[] = [
  pt('SPD-CMD', 'Fan_Speed_Command', 'Speed Command', 'PERCENT'),
  pt('STS', 'Fan_Status', 'Status'),
  pt('SS-CMD', 'Start_Stop_Command', 'Start Stop Command'),
  pt('FREQ', 'Frequency_Sensor', 'Drive Frequency', 'HZ'),
  pt('PWR', 'Electric_Power_Sensor', 'Electric Power', 'KiloW'),
  pt('FAULT', 'Fault_Status', 'Fault'),
];

export const CHILLED_WATER_COIL_POINTS: readonly PointTemplate[] = [
  pt('VLV-CMD', 'Valve_Position_Command', 'Valve Command', 'PERCENT'),
  pt('VLV-POS', 'Valve_Position_Sensor', 'Valve Position', 'PERCENT'),
  pt(
    'ECHWT',
    'Entering_Chilled_Water_Temperature_Sensor',
    'Entering Chilled Water Temp',
    'DEG_C',
    'Chilled_Water_Return_Temperature_Sensor',
  ),
  pt(
    'LCHWT',
    'Leaving_Chilled_Water_Temperature_Sensor',
    'Leaving Chilled Water Temp',
    'DEG_C',
    'Chilled_Water_Supply_Temperature_Sensor',
  ),
  pt('LAT', 'Discharge_Air_Temperature_Sensor', 'Leaving Air Temp', 'DEG_C'),
];

export const HOT_WATER_COIL_POINTS: readonly PointTemplate[] = [
  pt('VLV-CMD', 'Valve_Position_Command', 'Valve Command', 'PERCENT'),
  pt('VLV-POS', 'Valve_Position_Sensor', 'Valve Position', 'PERCENT'),
  pt(
    'EHWT',
    'Entering_Hot_Water_Temperature_Sensor',
    'Entering Hot Water Temp',
    'DEG_C',
    'Hot_Water_Return_Temperature_Sensor',
  ),
  pt(
    'LHWT',
    'Leaving_Hot_Water_Temperature_Sensor',
    'Leaving Hot Water Temp',
    'DEG_C',
    'Hot_Water_Supply_Temperature_Sensor',
  ),
  pt('FRZ', 'Freeze_Status', 'Freezestat'),
];

/** A VAV box's points; `reheat` adds the reheat valve and discharge temperature. */
export function vavPoints(options: { reheat: boolean; humidity: boolean; limits: boolean }): PointTemplate[] {
  return [
    pt('ZAT', 'Zone_Air_Temperature_Sensor', 'Zone Air Temp', 'DEG_C'),
    pt(
      'ZAT-SP',
      'Target_Zone_Air_Temperature_Setpoint',
      'Zone Air Temp Setpoint',
      'DEG_C',
      'Zone_Air_Temperature_Setpoint',
    ),
    pt('DAF', 'Discharge_Air_Flow_Sensor', 'Discharge Air Flow', 'L-PER-SEC', 'Supply_Air_Flow_Sensor'),
    pt('DAF-SP', 'Discharge_Air_Flow_Setpoint', 'Discharge Air Flow Setpoint', 'L-PER-SEC', 'Supply_Air_Flow_Setpoint'),
    pt('DPR-CMD', 'Damper_Position_Command', 'Damper Command', 'PERCENT'),
    pt('DPR-POS', 'Damper_Position_Sensor', 'Damper Position', 'PERCENT'),
    ...(options.humidity ? [pt('ZAH', 'Zone_Air_Humidity_Sensor', 'Zone Air Humidity', 'PERCENT_RH')] : []),
    pt('OCC', 'Occupancy_Sensor', 'Occupancy'),
    ...(options.reheat
      ? [
          pt('RHV-CMD', 'Valve_Position_Command', 'Reheat Valve Command', 'PERCENT'),
          pt('DAT', 'Discharge_Air_Temperature_Sensor', 'Discharge Air Temp', 'DEG_C'),
        ]
      : []),
    ...(options.limits
      ? [
          pt('MINF', 'Min_Air_Flow_Setpoint_Limit', 'Min Air Flow Limit', 'L-PER-SEC'),
          pt('MAXF', 'Max_Air_Flow_Setpoint_Limit', 'Max Air Flow Limit', 'L-PER-SEC'),
        ]
      : []),
  ];
}

export const FCU_POINTS: readonly PointTemplate[] = [
  pt('ZAT', 'Zone_Air_Temperature_Sensor', 'Zone Air Temp', 'DEG_C'),
  pt(
    'ZAT-SP',
    'Target_Zone_Air_Temperature_Setpoint',
    'Zone Air Temp Setpoint',
    'DEG_C',
    'Zone_Air_Temperature_Setpoint',
  ),
  pt('DAT', 'Discharge_Air_Temperature_Sensor', 'Discharge Air Temp', 'DEG_C'),
  pt('FAN-SPD-CMD', 'Fan_Speed_Command', 'Fan Speed Command', 'PERCENT'),
  pt('FAN-STS', 'Fan_Status', 'Fan Status'),
  pt('CHW-VLV-CMD', 'Valve_Position_Command', 'Chilled Water Valve Command', 'PERCENT'),
  pt('HW-VLV-CMD', 'Valve_Position_Command', 'Hot Water Valve Command', 'PERCENT'),
  pt('MODE', 'Operating_Mode_Status', 'Operating Mode'),
];

export const CHILLER_POINTS: readonly PointTemplate[] = [
  pt(
    'LCHWT',
    'Leaving_Chilled_Water_Temperature_Sensor',
    'Leaving Chilled Water Temp',
    'DEG_C',
    'Chilled_Water_Supply_Temperature_Sensor',
  ),
  pt(
    'ECHWT',
    'Entering_Chilled_Water_Temperature_Sensor',
    'Entering Chilled Water Temp',
    'DEG_C',
    'Chilled_Water_Return_Temperature_Sensor',
  ),
  pt(
    'LCHWT-SP',
    'Leaving_Chilled_Water_Temperature_Setpoint',
    'Leaving Chilled Water Temp Setpoint',
    'DEG_C',
    'Supply_Chilled_Water_Temperature_Setpoint',
  ),
  pt(
    'LCWT',
    'Leaving_Condenser_Water_Temperature_Sensor',
    'Leaving Condenser Water Temp',
    'DEG_C',
    'Supply_Condenser_Water_Temperature_Sensor',
  ),
  pt(
    'ECWT',
    'Entering_Condenser_Water_Temperature_Sensor',
    'Entering Condenser Water Temp',
    'DEG_C',
    'Return_Condenser_Water_Temperature_Sensor',
  ),
  pt('CHWF', 'Chilled_Water_Flow_Sensor', 'Chilled Water Flow', 'L-PER-SEC'),
  pt('EN-CMD', 'Enable_Command', 'Enable Command'),
  pt('RUN', 'Run_Status', 'Run Status'),
  pt('FAULT', 'Fault_Status', 'Fault'),
  pt('PWR', 'Electric_Power_Sensor', 'Electric Power', 'KiloW'),
];

export const BOILER_POINTS: readonly PointTemplate[] = [
  pt(
    'LHWT',
    'Leaving_Hot_Water_Temperature_Sensor',
    'Leaving Hot Water Temp',
    'DEG_C',
    'Hot_Water_Supply_Temperature_Sensor',
  ),
  pt(
    'EHWT',
    'Entering_Hot_Water_Temperature_Sensor',
    'Entering Hot Water Temp',
    'DEG_C',
    'Hot_Water_Return_Temperature_Sensor',
  ),
  pt(
    'LHWT-SP',
    'Leaving_Hot_Water_Temperature_Setpoint',
    'Leaving Hot Water Temp Setpoint',
    'DEG_C',
    'Supply_Hot_Water_Temperature_Setpoint',
  ),
  pt('HWF', 'Hot_Water_Flow_Sensor', 'Hot Water Flow', 'L-PER-SEC'),
  pt('EN-CMD', 'Enable_Command', 'Enable Command'),
  pt('RUN', 'Run_Status', 'Run Status'),
  pt('FAULT', 'Fault_Status', 'Fault'),
];

export const COOLING_TOWER_POINTS: readonly PointTemplate[] = [
  pt(
    'LCWT',
    'Leaving_Condenser_Water_Temperature_Sensor',
    'Leaving Condenser Water Temp',
    'DEG_C',
    'Supply_Condenser_Water_Temperature_Sensor',
  ),
  pt(
    'ECWT',
    'Entering_Condenser_Water_Temperature_Sensor',
    'Entering Condenser Water Temp',
    'DEG_C',
    'Return_Condenser_Water_Temperature_Sensor',
  ),
  pt('LCWT-SP', 'Leaving_Condenser_Water_Temperature_Setpoint', 'Leaving Condenser Water Temp Setpoint', 'DEG_C'),
  pt('FAN-SPD-CMD', 'Fan_Speed_Command', 'Fan Speed Command', 'PERCENT'),
  pt('FAN-STS', 'Fan_Status', 'Fan Status'),
  pt('EN-CMD', 'Enable_Command', 'Enable Command'),
  pt('FAULT', 'Fault_Status', 'Fault'),
];

/** A pump's points; the differential pressure classes depend on the loop. */
export function pumpPoints(dpCls: string, dpSpCls?: string): PointTemplate[] {
  return [
    pt('SPD-CMD', 'Speed_Command', 'Speed Command', 'PERCENT'),
    pt('STS', 'Pump_Status', 'Status'),
    pt('SS-CMD', 'Start_Stop_Command', 'Start Stop Command'),
    pt('DP', dpCls, 'Differential Pressure', 'KiloPA'),
    ...(dpSpCls ? [pt('DP-SP', dpSpCls, 'Differential Pressure Setpoint', 'KiloPA')] : []),
    pt('FREQ', 'Frequency_Sensor', 'Drive Frequency', 'HZ'),
    pt('FAULT', 'Fault_Status', 'Fault'),
  ];
}

export const HEAT_EXCHANGER_POINTS: readonly PointTemplate[] = [
  pt(
    'PRI-EWT',
    'Entering_Hot_Water_Temperature_Sensor',
    'Primary Entering Water Temp',
    'DEG_C',
    'Hot_Water_Return_Temperature_Sensor',
  ),
  pt(
    'PRI-LWT',
    'Leaving_Hot_Water_Temperature_Sensor',
    'Primary Leaving Water Temp',
    'DEG_C',
    'Hot_Water_Supply_Temperature_Sensor',
  ),
  pt('SEC-LWT', 'Heat_Exchanger_Leaving_Water_Temperature_Sensor', 'Secondary Leaving Water Temp', 'DEG_C'),
  pt(
    'SEC-LWT-SP',
    'Leaving_Hot_Water_Temperature_Setpoint',
    'Secondary Leaving Water Temp Setpoint',
    'DEG_C',
    'Supply_Hot_Water_Temperature_Setpoint',
  ),
  pt('VLV-CMD', 'Valve_Position_Command', 'Control Valve Command', 'PERCENT'),
  pt('EN-STS', 'Heat_Exchanger_System_Enable_Status', 'Enable Status'),
];

export const ELECTRICAL_METER_POINTS: readonly PointTemplate[] = [
  pt('PWR', 'Active_Power_Sensor', 'Active Power', 'KiloW'),
  pt('ENERGY', 'Electric_Energy_Sensor', 'Active Energy', 'KiloW-HR'),
  pt('VOLT', 'Voltage_Sensor', 'Voltage', 'V'),
  pt('CURR', 'Current_Sensor', 'Current', 'A'),
  pt('PF', 'Power_Factor_Sensor', 'Power Factor', 'UNITLESS'),
  pt('FREQ', 'Frequency_Sensor', 'Frequency', 'HZ'),
];

export const VIRTUAL_METER_POINTS: readonly PointTemplate[] = [
  pt('PWR', 'Active_Power_Sensor', 'Active Power', 'KiloW'),
  pt('ENERGY', 'Electric_Energy_Sensor', 'Active Energy', 'KiloW-HR'),
  pt('RPWR', 'Reactive_Power_Sensor', 'Reactive Power', 'KiloV-A_Reactive'),
  pt('RENERGY', 'Reactive_Energy_Sensor', 'Reactive Energy', 'KiloV-A_Reactive-HR'),
  pt('PF', 'Power_Factor_Sensor', 'Power Factor', 'UNITLESS'),
];

export const CHILLED_WATER_METER_POINTS: readonly PointTemplate[] = [
  pt('THPWR', 'Thermal_Power_Sensor', 'Thermal Power', 'KiloW'),
  pt('THENERGY', 'Thermal_Energy_Usage_Sensor', 'Thermal Energy', 'KiloW-HR'),
  pt('FLOW', 'Chilled_Water_Flow_Sensor', 'Chilled Water Flow', 'L-PER-SEC'),
  pt(
    'ECHWT',
    'Entering_Chilled_Water_Temperature_Sensor',
    'Entering Chilled Water Temp',
    'DEG_C',
    'Chilled_Water_Return_Temperature_Sensor',
  ),
  pt(
    'LCHWT',
    'Leaving_Chilled_Water_Temperature_Sensor',
    'Leaving Chilled Water Temp',
    'DEG_C',
    'Chilled_Water_Supply_Temperature_Sensor',
  ),
];

export const WEATHER_STATION_POINTS: readonly PointTemplate[] = [
  pt('OAT', 'Outside_Air_Temperature_Sensor', 'Outside Air Temp', 'DEG_C'),
  pt('OAH', 'Outside_Air_Humidity_Sensor', 'Outside Air Humidity', 'PERCENT_RH'),
  pt('OAWB', 'Outside_Air_Wet_Bulb_Temperature_Sensor', 'Outside Air Wet Bulb Temp', 'DEG_C'),
  pt('OADP', 'Outside_Air_Dewpoint_Sensor', 'Outside Air Dewpoint', 'DEG_C'),
  pt('WIND', 'Wind_Speed_Sensor', 'Wind Speed', 'M-PER-SEC'),
  pt('SOLAR', 'Solar_Irradiance_Sensor', 'Solar Irradiance', 'W-PER-M2'),
];

export const LIGHTING_PANEL_POINTS: readonly PointTemplate[] = [
  pt('LTG-CMD', 'On_Off_Command', 'Lighting Command'),
  pt('LTG-LVL', 'Lighting_Level_Command', 'Lighting Level Command', 'PERCENT'),
  pt('LTG-STS', 'On_Off_Status', 'Lighting Status'),
  pt('OCC', 'Occupancy_Status', 'Occupancy Status'),
  pt('PWR', 'Electric_Power_Sensor', 'Electric Power', 'KiloW'),
  pt('FAULT', 'Fault_Status', 'Fault'),
];

export const ROOM_IAQ_POINTS: readonly PointTemplate[] = [
  pt('CO2', 'CO2_Level_Sensor', 'CO2', 'PPM'),
  pt('OCC', 'Occupancy_Sensor', 'Occupancy'),
];

export const ZONE_POINTS: readonly PointTemplate[] = [
  pt('AVG-ZAT', 'Average_Zone_Air_Temperature_Sensor', 'Average Air Temp', 'DEG_C'),
  pt('OCC-STS', 'Occupancy_Status', 'Occupancy Status'),
];
