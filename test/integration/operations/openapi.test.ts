// The OpenAPI document: every route the app registers is in it, and answers of representative
// calls on every REST area validate against it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAppRoutes, openApiPath } from '../../../src/http/route-table.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { openApiChecker } from '../../support/openapi-check.ts';

const BUILDING = `
@prefix brick: <https://brickschema.org/schema/Brick#> .
@prefix ref: <https://brickschema.org/schema/Brick/ref#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix : <https://example.org/docs#> .
:AHU-1 a brick:AHU ; rdfs:label "AHU-1" ; brick:hasPoint :SAT .
:SAT a brick:Supply_Air_Temperature_Sensor ; rdfs:label "AHU-1 Supply Air Temp" ;
  ref:hasExternalReference [ a ref:TimeseriesReference ; ref:hasTimeseriesId "ts-sat" ] .
`;

describe('OpenAPI document (/openapi.json, /docs)', () => {
  let h: Harness;
  let document: any;
  let checker: ReturnType<typeof openApiChecker>;
  const json = (method: string, body: unknown): RequestInit => ({
    method,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  /** Sends a request and checks the answer against the document; answers the parsed body. */
  const call = async (path: string, init: RequestInit = {}, status?: number) => {
    const res = await h.fetch(path, init);
    if (status !== undefined)
      expect(res.status, `${init.method ?? 'GET'} ${path}: ${await res.clone().text()}`).toBe(status);
    return checker.check(init.method ?? 'GET', path, res) as Promise<any>;
  };

  beforeAll(async () => {
    h = await createHarness({ sites: { docs: BUILDING } });
    const res = await fetch(`${h.url}/openapi.json`);
    expect(res.status).toBe(200);
    document = await res.json();
    checker = openApiChecker(document);
  });
  afterAll(() => h?.close());

  it('is OpenAPI 3.1 and served without credentials', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBeTruthy();
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  // Site paths are served under /api/v1/sites, /api/sites (without the version) and, for the viewer's
  // models, /viewer/api/sites; the document names the first and says so (info.description).
  it('documents every route the app registers, with its methods', () => {
    const documented = new Map<string, Set<string>>();
    const shape = (path: string) =>
      openApiPath(path)
        .replace(/\{\w+\}/g, '{}')
        .replace(/^\/(api|viewer\/api)\/sites(\/|$)/, '/api/v1/sites$2');
    // The paths existing clients call without the version segment are documented under both names.
    for (const [path, operations] of Object.entries(document.paths as Record<string, object>))
      documented.set(shape(path), new Set([...(documented.get(shape(path)) ?? []), ...Object.keys(operations)]));
    const routes = listAppRoutes(h.app);
    expect(routes.length).toBeGreaterThan(20);
    const missing = routes.flatMap((route) =>
      route.methods
        .filter((method) => !documented.get(shape(route.path))?.has(method.toLowerCase()))
        .map((method) => `${method} ${route.path}`),
    );
    expect(missing).toEqual([]);
  });

  it('documents the request schemas that validate requests (site, key, file, reading, timeseries)', () => {
    const body = (path: string, method: string, type = 'application/json') =>
      document.paths[path][method].requestBody.content[type].schema;
    expect(document.components.schemas.NewSite.required).toEqual(['id', 'name']);
    expect(document.components.schemas.NewSite.properties.id.pattern).toBeTruthy();
    expect(document.components.schemas.NewApiKey.properties.sites.anyOf).toHaveLength(2);
    expect(body('/api/files/', 'post', 'multipart/form-data').properties.category.enum).toEqual([
      'kg-csv',
      'model-3d',
      'bim-source',
      'spec-sheet',
      'maintenance',
      'other',
    ]);
    expect(document.components.schemas.Reading.required).toEqual(['timeseriesId', 'timestamp', 'value']);
    expect(document.components.schemas.TimeseriesQuery.properties.limit).toMatchObject({ minimum: 1, maximum: 10000 });
    expect(
      document.paths['/api/v1/sites/{siteId}/models'].get.parameters.find((p: any) => p.name === 'file_format').schema
        .enum,
    ).toEqual(['ifc', 'frag', 'glb', 'obj']);
  });

  it('answers of the sites, keys and graph endpoints fit the document', async () => {
    await call(
      '/api/v1/sites/',
      json('POST', { id: 'hq', name: 'Head office', timezone: 'Europe/Berlin', country_code: 'de' }),
      201,
    );
    await call('/api/v1/sites/', json('POST', { id: 'Not A Slug', name: '' }), 400);
    expect(await call('/api/v1/sites/', {}, 200)).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: 'hq' })]),
    );
    await call('/api/sites/hq', {}, 200);
    await call('/api/v1/sites/nowhere', {}, 404);
    await call(
      '/api/v1/sites/hq/graph',
      { method: 'PUT', headers: { 'content-type': 'text/turtle' }, body: BUILDING },
      200,
    );
    await call(
      '/api/v1/sites/hq/graph',
      { method: 'POST', headers: { 'content-type': 'text/turtle' }, body: '<a> <b> .' },
      400,
    );
    await call('/api/v1/sites/hq/graph', { headers: { accept: 'text/turtle' } }, 200);
    const key = await call('/api/v1/keys/', json('POST', { name: 'reader', sites: ['hq'] }), 201);
    await call('/api/v1/keys/', {}, 200);
    await call(`/api/v1/keys/${key.id}`, { method: 'DELETE' }, 204);
    const anonymous = await fetch(`${h.url}/api/v1/sites/`);
    await checker.check('GET', '/api/v1/sites/', anonymous);
  });

  it('answers of the readings, timeseries, files and models endpoints fit the document', async () => {
    const now = Date.now();
    const report = await call(
      '/api/v1/sites/docs/readings',
      json('POST', [
        { timeseriesId: 'ts-sat', timestamp: now - 60_000, value: 13.5 },
        { timeseriesId: 'ts-sat', timestamp: 'yesterday', value: 1 },
      ]),
      200,
    );
    expect(report).toMatchObject({ received: 2, stored: 1 });
    await call('/api/v1/sites/docs/timeseries', json('POST', { timeseriesIds: ['ts-sat', 'nope'], start: '-1h' }), 200);
    await call('/api/v1/sites/docs/timeseries', json('POST', { timeseriesIds: [] }), 400);
    const form = new FormData();
    form.set('site_id', 'docs');
    form.set('category', 'model-3d');
    form.set('file', new Blob(['o 1\nv 0 0 0\n']), 'tower.obj');
    const file = await call('/api/files/', { method: 'POST', body: form }, 201);
    await call('/api/files/', {}, 200);
    await call('/api/files/?site_id=docs&limit=1', {}, 200);
    await call(`/api/files/${file.id}/`, {}, 200);
    await call(`/api/files/${file.id}/`, json('PUT', { storey: 'Level 1' }), 200);
    await call('/api/v1/sites/docs/models?file_format=obj', {}, 200);
    await call('/api/v1/sites/docs/models?file_format=dwg', {}, 400);
    await call(`/api/v1/sites/docs/models/${file.id}/download`, {}, 200);
    await call(`/api/files/${file.id}/download/`, {}, 200);
    await call(`/api/files/${file.id}/`, { method: 'DELETE' }, 204);
  });

  it('answers of GraphQL, the probes and the documentation fit the document', async () => {
    await call(
      '/graphql',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: '{ equipment(siteId: "docs") { name } }' }),
      },
      200,
    );
    await call('/healthz', {}, 200);
    await call('/readyz', {}, 200);
    await call('/graphql/schema.graphql', {}, 200);
    const page = await fetch(`${h.url}/docs`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('/openapi.json');
    // Swagger UI comes from this service, not a CDN.
    for (const src of html.match(/(?:src|href)="[^"]+"/g) ?? []) expect(src).toMatch(/="\/docs\//);
    const script = await fetch(`${h.url}/docs/swagger-ui-bundle.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${h.url}/docs/package.json`)).status).toBe(404);
  });
});
