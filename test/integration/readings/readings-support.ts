// A small building for the readings suites, and helpers to make sites in a given timezone.
import { expect } from 'vitest';
import type { Harness } from '../../support/harness.ts';

/**
 * AHU-1 with a supply air temperature sensor (ref:TimeseriesReference), a setpoint (the Brick 1.2
 * `brick:timeseries` form) and a fan status; VAV-1 with a zone temperature that is stated by
 * `isPointOf`; a zone's own humidity sensor (no equipment); a point without a timeseries.
 */
export const BUILDING_TTL = `
@prefix brick: <https://brickschema.org/schema/Brick#> .
@prefix ref: <https://brickschema.org/schema/Brick/ref#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix unit: <http://qudt.org/vocab/unit/> .
@prefix : <https://example.org/bldg#> .

:AHU-1 a brick:AHU ; rdfs:label "AHU-1" ; brick:hasPoint :SAT, :SAT-SP, :FAN-STATUS, :NO-TS ; brick:feeds :VAV-1 .
:SAT a brick:Supply_Air_Temperature_Sensor ; rdfs:label "AHU-1 Supply Air Temp" ; brick:hasUnit unit:DEG_C ;
  ref:hasExternalReference [ a ref:TimeseriesReference ; ref:hasTimeseriesId "ts-sat" ] .
:SAT-SP a brick:Supply_Air_Temperature_Setpoint ; rdfs:label "AHU-1 Supply Air Temp Setpoint" ; brick:hasUnit unit:DEG_C ;
  brick:timeseries [ brick:hasTimeseriesId "ts-sat-sp" ] .
:FAN-STATUS a brick:Fan_Status ; rdfs:label "AHU-1 Fan Status" ;
  ref:hasExternalReference [ a ref:TimeseriesReference ; ref:hasTimeseriesId "ts-fan" ] .
:NO-TS a brick:Filter_Status ; rdfs:label "AHU-1 Filter Status" .
:VAV-1 a brick:VAV ; rdfs:label "VAV-1" .
:ZAT a brick:Zone_Air_Temperature_Sensor ; rdfs:label "VAV-1 Zone Temp" ; brick:isPointOf :VAV-1 ; brick:hasUnit unit:DEG_C ;
  ref:hasTimeseriesReference [ a ref:TimeseriesReference ; ref:hasTimeseriesId "ts-zat" ] .
:ZONE-1 a brick:HVAC_Zone ; rdfs:label "Zone 1" ; brick:hasPoint :ZONE-RH .
:ZONE-RH a brick:Zone_Air_Humidity_Sensor ; rdfs:label "Zone 1 Humidity" ; brick:hasUnit unit:PERCENT_RH ;
  ref:hasExternalReference [ a ref:TimeseriesReference ; ref:hasTimeseriesId "ts-rh" ] .
`;

/** A JSON POST. */
export const post = (body: unknown, contentType = 'application/json'): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': contentType },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

/** Creates a site in `timezone` through the API and loads `turtle` as its graph. */
export async function createSite(h: Harness, id: string, timezone: string, turtle = BUILDING_TTL): Promise<void> {
  const created = await h.fetch('/api/v1/sites/', post({ id, name: id, timezone }));
  expect(created.status, await created.clone().text()).toBe(201);
  const loaded = await h.fetch(`/api/v1/sites/${id}/graph`, {
    method: 'PUT',
    headers: { 'content-type': 'text/turtle' },
    body: turtle,
  });
  expect(loaded.status, await loaded.clone().text()).toBeLessThan(300);
}

/** Posts readings as the admin and answers the parsed report. */
export async function postReadings(
  h: Harness,
  siteId: string,
  readings: unknown,
): Promise<{ received: number; stored: number; rejected: Array<{ index: number; errors: Record<string, string[]> }> }> {
  const res = await h.fetch(`/api/v1/sites/${siteId}/readings`, post(readings));
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

/** Requests as the holder of `token` (null: no Authorization header). */
export function fetchAs(h: Harness, token: string | null): (path: string, init?: RequestInit) => Promise<Response> {
  return (path, init = {}) => {
    const headers = new Headers(init.headers);
    if (token !== null) headers.set('authorization', `Bearer ${token}`);
    return fetch(h.url + path, { ...init, headers });
  };
}

/** Creates an API key as the admin and answers its secret. */
export async function createKey(
  h: Harness,
  input: { sites: string[] | '*'; write?: boolean },
): Promise<{ key: string }> {
  const res = await h.fetch('/api/v1/keys/', post({ name: 'readings test key', ...input }));
  expect(res.status, await res.clone().text()).toBe(201);
  return res.json();
}

/** ISO-8601 UTC for `ms`. */
export const iso = (ms: number) => new Date(ms).toISOString();
