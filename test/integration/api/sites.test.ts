// Sites over REST (docs/access.md, "Sites and the demo site"): list, create (admin), read, update (admin), delete with the graph and keys'
// references; 201/200/204, DRF-style 400 field errors, 409 on a duplicate id; the same routes answer
// under /api/sites/ without the version segment.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, exportTriples, fetchAs, jsonBody } from '../../support/api-client.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { hs256Token, JWT_SECRET } from '../../support/user-tokens.ts';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/small/${name}.ttl`, import.meta.url), 'utf8');

let h: Harness;
beforeAll(async () => {
  h = await createHarness({
    sites: { alpha: fixture('tenant-a'), beta: fixture('tenant-b') },
    env: { BKG_JWT_SECRET: JWT_SECRET },
  });
});
afterAll(async () => {
  await h?.close();
});

const fullSite = {
  id: 'harbour-office',
  name: 'Harbour Office',
  organization: 'Example Estates',
  address: 'Am Sandtorkai 1',
  city: 'Hamburg',
  country: 'Germany',
  country_code: 'DE',
  latitude: 53.5436,
  longitude: 9.9885,
  timezone: 'Europe/Berlin',
};

const createSite = (body: unknown, base = '/api/v1/sites/') => h.fetch(base, jsonBody('POST', body));

describe('POST /api/v1/sites/', () => {
  it('creates a site with every field and answers 201 with the record', async () => {
    const res = await createSite(fullSite);
    expect(res.status).toBe(201);
    const body = await res.json();
    expect(body).toMatchObject(fullSite);
    expect(Date.parse(body.created_at)).not.toBeNaN();
    expect(Date.parse(body.updated_at)).not.toBeNaN();
  });

  it('reads back the created site by id, with and without the trailing slash', async () => {
    for (const path of [`/api/v1/sites/${fullSite.id}/`, `/api/v1/sites/${fullSite.id}`]) {
      const res = await h.fetch(path);
      expect(res.status, path).toBe(200);
      expect(await res.json()).toMatchObject(fullSite);
    }
  });

  it('needs only id and name; the time zone defaults to UTC and the rest to null', async () => {
    const res = await createSite({ id: 'minimal', name: 'Minimal' });
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({
      id: 'minimal',
      name: 'Minimal',
      organization: null,
      address: null,
      city: null,
      country: null,
      country_code: null,
      latitude: null,
      longitude: null,
      timezone: 'UTC',
    });
  });

  it.each(['UTC', 'America/Argentina/Buenos_Aires', 'Asia/Kolkata', 'Etc/GMT+5'])(
    'accepts the IANA time zone %s',
    async (timezone) => {
      const id = `tz-${timezone.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
      const res = await createSite({ id, name: 'Time zone', timezone });
      expect(res.status, await res.clone().text()).toBe(201);
      expect((await res.json()).timezone).toBe(timezone);
    },
  );

  it.each(['Mars/Olympus_Mons', 'Europe/Atlantis', 'CET+1', '+02:00', ''])(
    'refuses the time zone %j with a field error',
    async (timezone) => {
      const res = await createSite({ id: 'bad-tz', name: 'Bad time zone', timezone });
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(Object.keys(body)).toEqual(['timezone']);
      expect(body.timezone).toEqual([expect.any(String)]);
      expect((await h.fetch('/api/v1/sites/bad-tz/')).status).toBe(404);
    },
  );

  it('answers 400 with one entry per invalid field', async () => {
    const res = await createSite({
      id: 'Not A Slug',
      latitude: 91,
      longitude: 'east',
      country_code: 'DEU',
      address: 'x'.repeat(512),
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(Object.keys(body).sort()).toEqual(['address', 'country_code', 'id', 'latitude', 'longitude', 'name']);
    for (const messages of Object.values(body)) expect(messages).toEqual([expect.any(String)]);
  });

  it('answers 400 for a body that is not JSON, and for a JSON array', async () => {
    const notJson = await h.fetch('/api/v1/sites/', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"id": "x",',
    });
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ code: 'BAD_USER_INPUT' });
    const array = await createSite([fullSite]);
    expect(array.status).toBe(400);
    expect(await array.json()).toHaveProperty('non_field_errors');
  });

  it('answers 415 saying JSON is expected for a form, text or untyped body, on every JSON-only route', async () => {
    const form = await h.fetch('/api/v1/sites/', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'id=formed&name=Formed',
    });
    expect(form.status).toBe(415);
    expect(await form.json()).toEqual({
      detail: 'Send the body as JSON (Content-Type: application/json), not application/x-www-form-urlencoded.',
      code: 'UNSUPPORTED_MEDIA_TYPE',
      supported: ['application/json'],
    });
    expect((await h.fetch('/api/v1/sites/formed/')).status).toBe(404);
    const routes: Array<[string, string]> = [
      ['POST', '/api/v1/sites/'],
      ['PATCH', `/api/v1/sites/${fullSite.id}/`],
      ['POST', '/api/v1/keys/'],
      ['POST', `/api/v1/sites/${fullSite.id}/timeseries`],
    ];
    for (const [method, path] of routes) {
      for (const headers of [{ 'content-type': 'text/plain' }, {} as Record<string, string>]) {
        const res = await h.fetch(path, { method, headers, body: new TextEncoder().encode('{"name": "x"}') });
        expect(`${method} ${path} ${JSON.stringify(headers)}: ${res.status}`).toBe(
          `${method} ${path} ${JSON.stringify(headers)}: 415`,
        );
        expect(((await res.json()) as { detail: string }).detail).toMatch(/^Send the body as JSON/);
      }
    }
  });

  it('answers 409 for an id that exists, created over the API or loaded at start-up', async () => {
    for (const id of [fullSite.id, 'alpha']) {
      const res = await createSite({ ...fullSite, id, name: 'Another' });
      expect(res.status, id).toBe(409);
      expect(await res.json()).toMatchObject({ code: 'CONFLICT' });
    }
    expect((await (await h.fetch(`/api/v1/sites/${fullSite.id}/`)).json()).name).toBe(fullSite.name);
  });

  it('is for admins only: a write key and a user answer 403 and nothing is created', async () => {
    const writer = await createKey(h, { sites: '*', write: true });
    const user = await hs256Token({ sites: '*' });
    for (const token of [writer.key, user]) {
      const res = await fetchAs(h, token)('/api/v1/sites/', jsonBody('POST', { id: 'not-by-you', name: 'No' }));
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ code: 'FORBIDDEN' });
    }
    expect((await h.fetch('/api/v1/sites/not-by-you/')).status).toBe(404);
  });
});

describe('GET /api/v1/sites/', () => {
  it('lists every site to the admin, ordered by id', async () => {
    const res = await h.fetch('/api/v1/sites/');
    expect(res.status).toBe(200);
    const ids = ((await res.json()) as Array<{ id: string }>).map((s) => s.id);
    expect(ids).toEqual([...ids].sort());
    expect(ids).toEqual(expect.arrayContaining(['alpha', 'beta', fullSite.id, 'minimal']));
  });

  it('lists only the sites a key or a user may read', async () => {
    const key = await createKey(h, { sites: ['beta', 'no-such-site'] });
    const user = await hs256Token({ sites: ['alpha'] });
    const nobody = await hs256Token({ sites: [] });
    const idsFor = async (token: string) =>
      ((await (await fetchAs(h, token)('/api/v1/sites/')).json()) as Array<{ id: string }>).map((s) => s.id);
    expect(await idsFor(key.key)).toEqual(['beta']);
    expect(await idsFor(user)).toEqual(['alpha']);
    expect(await idsFor(nobody)).toEqual([]);
  });

  it('gives each site its full record', async () => {
    const sites = (await (await h.fetch('/api/v1/sites/')).json()) as Array<Record<string, unknown>>;
    expect(sites.find((s) => s.id === fullSite.id)).toMatchObject(fullSite);
  });
});

describe('PATCH /api/v1/sites/{id}/', () => {
  const patch = (id: string, body: unknown, token?: string | null) =>
    (token === undefined ? h.fetch : fetchAs(h, token))(`/api/v1/sites/${id}/`, jsonBody('PATCH', body));

  it('changes the name and the time zone (only the fields given) and answers 200 with the record', async () => {
    expect((await createSite({ id: 'renamed', name: 'Old name', city: 'Hamburg' })).status).toBe(201);
    const before = await (await h.fetch('/api/v1/sites/renamed/')).json();
    const res = await patch('renamed', { name: 'New name', timezone: 'America/New_York' });
    expect(res.status).toBe(200);
    const after = await res.json();
    expect(after).toMatchObject({
      id: 'renamed',
      name: 'New name',
      timezone: 'America/New_York',
      city: 'Hamburg',
      created_at: before.created_at,
    });
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    expect(await (await h.fetch('/api/sites/renamed/')).json()).toEqual(after);
    // null clears an optional field; the time zone goes back to UTC.
    expect(await (await patch('renamed', { city: null, timezone: null, country_code: 'us' })).json()).toMatchObject({
      city: null,
      timezone: 'UTC',
      country_code: 'US',
      name: 'New name',
    });
  });

  it('checks the fields as create does, and refuses to change the id', async () => {
    const bad = await patch('renamed', { timezone: 'Mars/Olympus', name: ' ', latitude: 91 });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toEqual({
      timezone: ['An IANA time zone name, e.g. "Europe/Berlin".'],
      name: ['This field may not be blank.'],
      latitude: ['From -90 to 90.'],
    });
    const id = await patch('renamed', { id: 'other' });
    expect(id.status).toBe(400);
    expect(JSON.stringify(await id.json())).toContain('id');
    expect((await (await h.fetch('/api/v1/sites/renamed/')).json()).name).toBe('New name');
  });

  it('is for admins only (403), and a site the caller cannot read is 404', async () => {
    const { key: writer } = await createKey(h, { name: 'writer', sites: ['alpha'], write: true });
    expect((await patch('alpha', { name: 'Mine' }, writer)).status).toBe(403);
    expect((await patch('alpha', { name: 'Mine' }, await hs256Token({ sites: ['alpha'] }))).status).toBe(403);
    expect((await patch('beta', { name: 'Mine' }, writer)).status).toBe(404);
    expect((await patch('no-such-site', { name: 'Mine' })).status).toBe(404);
    expect((await (await h.fetch('/api/v1/sites/alpha/')).json()).name).not.toBe('Mine');
  });
});

describe('DELETE /api/v1/sites/{id}/', () => {
  it('answers 204, then the site is gone from reads and the list', async () => {
    expect((await createSite({ id: 'short-lived', name: 'Short lived' })).status).toBe(201);
    const res = await h.fetch('/api/v1/sites/short-lived/', { method: 'DELETE' });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe('');
    expect((await h.fetch('/api/v1/sites/short-lived/')).status).toBe(404);
    const ids = ((await (await h.fetch('/api/v1/sites/')).json()) as Array<{ id: string }>).map((s) => s.id);
    expect(ids).not.toContain('short-lived');
  });

  it('removes the graph: a site created again with the same id starts empty', async () => {
    expect((await createSite({ id: 'rebuilt', name: 'Rebuilt' })).status).toBe(201);
    const load = await h.fetch('/api/v1/sites/rebuilt/graph', {
      method: 'PUT',
      headers: { 'content-type': 'text/turtle' },
      body: fixture('tenant-a'),
    });
    expect(load.status).toBe(200);
    expect((await exportTriples(h, 'rebuilt')).length).toBeGreaterThan(0);
    expect((await h.fetch('/api/v1/sites/rebuilt/', { method: 'DELETE' })).status).toBe(204);
    expect(await h.services.store.countTriples('urn:bkg:site:rebuilt')).toBe(0);
    expect((await createSite({ id: 'rebuilt', name: 'Rebuilt again' })).status).toBe(201);
    expect(await exportTriples(h, 'rebuilt')).toEqual([]);
    const graphql = await h.graphql('{ building(siteId: "rebuilt") { name } }');
    // Its graph's history starts anew too.
    expect(graphql).toEqual({ data: { building: [] }, extensions: { versions: { rebuilt: 0 } } });
  });

  it("removes the site from keys' site lists, so a site created later with that id is not theirs", async () => {
    expect((await createSite({ id: 'doomed', name: 'Doomed' })).status).toBe(201);
    const key = await createKey(h, { name: 'doomed and alpha', sites: ['doomed', 'alpha'] });
    const everything = await createKey(h, { name: 'everything', sites: '*' });
    expect((await fetchAs(h, key.key)('/api/v1/sites/doomed/')).status).toBe(200);
    expect((await h.fetch('/api/v1/sites/doomed/', { method: 'DELETE' })).status).toBe(204);
    const keys = (await (await h.fetch('/api/v1/keys/')).json()) as Array<{ id: string; sites: unknown }>;
    expect(keys.find((k) => k.id === key.id)?.sites).toEqual(['alpha']);
    expect(keys.find((k) => k.id === everything.id)?.sites).toBe('*');
    expect((await createSite({ id: 'doomed', name: 'Doomed again' })).status).toBe(201);
    expect((await fetchAs(h, key.key)('/api/v1/sites/doomed/')).status).toBe(404);
    expect((await fetchAs(h, everything.key)('/api/v1/sites/doomed/')).status).toBe(200);
  });

  it('answers 404 for an unknown site and for one already deleted', async () => {
    expect((await h.fetch('/api/v1/sites/never-was/', { method: 'DELETE' })).status).toBe(404);
    expect((await h.fetch('/api/v1/sites/short-lived/', { method: 'DELETE' })).status).toBe(404);
  });

  it('is for admins only: a write key for the site answers 403 and the site stays', async () => {
    const writer = await createKey(h, { sites: ['beta'], write: true });
    const res = await fetchAs(h, writer.key)('/api/v1/sites/beta/', { method: 'DELETE' });
    expect(res.status).toBe(403);
    expect((await h.fetch('/api/v1/sites/beta/')).status).toBe(200);
    expect((await exportTriples(h, 'beta')).length).toBeGreaterThan(0);
  });
});

describe('/api/sites/ without the version segment', () => {
  it('lists, creates, reads, loads, exports and deletes like /api/v1/sites/', async () => {
    const list = await h.fetch('/api/sites/');
    expect(list.status).toBe(200);
    expect(await list.json()).toEqual(await (await h.fetch('/api/v1/sites/')).json());

    const created = await createSite({ id: 'unversioned', name: 'Unversioned', timezone: 'Asia/Tokyo' }, '/api/sites/');
    expect(created.status).toBe(201);
    const read = await h.fetch('/api/sites/unversioned/');
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ id: 'unversioned', timezone: 'Asia/Tokyo' });
    expect((await h.fetch('/api/v1/sites/unversioned/')).status).toBe(200);

    const loaded = await h.fetch('/api/sites/unversioned/graph', {
      method: 'PUT',
      headers: { 'content-type': 'text/turtle' },
      body: fixture('tenant-b'),
    });
    expect(loaded.status).toBe(200);
    const exported = await h.fetch('/api/sites/unversioned/graph', { headers: { accept: 'application/n-triples' } });
    expect(exported.status).toBe(200);
    expect((await exported.text()).trim().split('\n').sort()).toEqual(await exportTriples(h, 'unversioned'));

    expect((await createSite({ id: 'unversioned', name: 'Again' }, '/api/sites/')).status).toBe(409);
    expect((await createSite({ id: 'Bad Id', name: 'Bad' }, '/api/sites/')).status).toBe(400);
    expect((await h.fetch('/api/sites/unversioned/', { method: 'DELETE' })).status).toBe(204);
    expect((await h.fetch('/api/v1/sites/unversioned/')).status).toBe(404);
  });
});
