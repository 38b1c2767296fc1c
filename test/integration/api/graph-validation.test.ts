// Validation reports on load: POST /sites/{id}/graph/validate (a body, or the stored
// graph; JSON or Turtle), ?validate=1 and ?strict=1 on PUT and POST graph, and a validation that
// does not hold up other requests.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../support/harness.ts';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const VALID = read('fixtures/validation/valid.ttl');
const FAULTY = read('fixtures/validation/faulty.ttl');
const SITE = 'checked';

type Json = any;

let h: Harness;
const graphPath = `/api/v1/sites/${SITE}/graph`;
const send = (method: 'PUT' | 'POST', query: string, body: string, type = 'text/turtle') =>
  h.fetch(`${graphPath}${query}`, { method, headers: { 'content-type': type }, body });
const exported = async () => (await h.fetch(graphPath, { headers: { accept: 'application/n-triples' } })).text();

beforeAll(async () => {
  h = await createHarness({ sites: { [SITE]: VALID } });
});
afterAll(async () => {
  await h?.close();
});

describe('POST /sites/{id}/graph/validate', () => {
  it('answers the report on the body as JSON, without loading it', async () => {
    const before = await exported();
    const response = await h.fetch(`${graphPath}/validate`, {
      method: 'POST',
      headers: { 'content-type': 'text/turtle' },
      body: FAULTY,
    });
    expect(response.status).toBe(200);
    const report = (await response.json()) as Json;
    expect(report).toMatchObject({ conforms: false, summary: { violations: 6, warnings: 3, infos: 1 }, triples: 20 });
    expect(report.counts['unknown-class']).toBe(1);
    expect(report.results[0]).toMatchObject({
      severity: 'Violation',
      focusNode: expect.any(String),
      message: expect.any(String),
    });
    // A blank node (the IFC reference without a project) is named by the entity holding it.
    expect(report.results.find((f: Json) => f.focusNode.startsWith('_:'))).toMatchObject({
      kind: 'shacl:minCount',
      label: 'vav-2 › ref:hasExternalReference (a ref:IFCReference)',
      heldBy: {
        entity: 'https://example.org/faulty#vav-2',
        path: ['https://brickschema.org/schema/Brick/ref#hasExternalReference'],
      },
    });
    expect(await exported()).toBe(before);
  });

  it('answers a SHACL sh:ValidationReport in Turtle by Accept', async () => {
    const response = await h.fetch(`${graphPath}/validate`, {
      method: 'POST',
      headers: { 'content-type': 'text/turtle', accept: 'text/turtle' },
      body: FAULTY,
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/turtle/);
    const text = await response.text();
    expect(text).toContain('sh:ValidationReport');
    expect(text).toMatch(/sh:conforms "?false"?/);
  });

  it('validates the stored graph when there is no body', async () => {
    const report = (await (await h.fetch(`${graphPath}/validate`, { method: 'POST' })).json()) as Json;
    expect(report).toMatchObject({ conforms: true, triples: 17 });
  });

  it('answers 400 with the line of a syntax error, and 404 for a site the caller cannot read', async () => {
    const bad = await h.fetch(`${graphPath}/validate`, {
      method: 'POST',
      headers: { 'content-type': 'text/turtle' },
      body: '@prefix ex: <urn:ex#> .\nex:a ex:b .\n',
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as Json).line).toBe(2);
    expect((await h.fetch('/api/v1/sites/nowhere/graph/validate', { method: 'POST' })).status).toBe(404);
  });
});

describe('?validate=1 and ?strict=1 on PUT and POST graph', () => {
  it('loads with ?validate=1 whatever the findings, and answers the report with the load', async () => {
    const response = await send('PUT', '?validate=1', FAULTY);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(body).toMatchObject({ site: SITE, triples: 20, validation: { summary: { violations: 6 } } });
    expect(await exported()).toContain('Temprature_Sensor');
  });

  it('refuses with ?strict=1 a model with violations (400 with the report) and leaves the graph as it was', async () => {
    await send('PUT', '', VALID);
    const before = await exported();
    const response = await send('PUT', '?strict=1', FAULTY);
    expect(response.status).toBe(400);
    const body = (await response.json()) as Json;
    expect(body.code).toBe('MODEL_INVALID');
    expect(body.detail).toMatch(/6 violations .*the graph was not changed/);
    expect(body.report.counts['unknown-class']).toBe(1);
    expect(await exported()).toBe(before);
  });

  it('loads with ?strict=1 a model with warnings only', async () => {
    const warningsOnly = `${VALID}\n<https://example.org/valid#t-9> a <https://brickschema.org/schema/Brick#Zone_Air_Temperature_Sensor> .\n`;
    const response = await send('PUT', '?strict=1', warningsOnly);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Json;
    expect(body.validation.summary).toEqual({ violations: 0, warnings: 1, infos: 0 });
    expect(body.triples).toBe(18);
  });

  it('checks with POST the graph the merge would make', async () => {
    await send('PUT', '', VALID);
    const before = await exported();
    const merge =
      '<https://example.org/valid#vav-1> <https://brickschema.org/schema/Brick#hasLocation> <https://example.org/valid#ahu-1> .\n';
    const response = await send('POST', '?strict=1', merge, 'application/n-triples');
    expect(response.status).toBe(400);
    const body = (await response.json()) as Json;
    expect(body.report.triples).toBe(18);
    expect(body.report.results[0]).toMatchObject({
      focusNode: 'https://example.org/valid#vav-1',
      label: 'VAV 1',
      path: 'https://brickschema.org/schema/Brick#hasLocation',
    });
    expect(await exported()).toBe(before);
  });

  it('refuses flags other than 0 and 1', async () => {
    const response = await send('PUT', '?validate=yes', VALID);
    expect(response.status).toBe(400);
    expect(((await response.json()) as Json).validate).toEqual(['validate is 0 or 1.']);
  });
});

describe('while a model is validated', () => {
  it('other requests are answered (the validation runs in a worker thread)', async () => {
    // The demo building: a validation of a few seconds.
    const validation = h.fetch(`${graphPath}/validate`, {
      method: 'POST',
      headers: { 'content-type': 'text/turtle' },
      body: read('fixtures/demo.ttl'),
    });
    let validated = false;
    void validation.then(() => (validated = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    const answer = await h.graphql(`{ equipment(siteId: "${SITE}", is: "AHU") { name } }`);
    expect(answer.data.equipment).toEqual([{ name: 'AHU 1' }]);
    expect(validated).toBe(false);
    expect((await validation).status).toBe(200);
  });
});
