// Text no engine can store as sent (U+0000, unpaired surrogates, non-characters, control
// characters) in every kind of text input: JSON bodies (sites, keys, readings, timeseries),
// multipart fields and file names (files and models), query strings. Each is a 400 naming the
// field, never a 500 from the database; in a batch of readings the bad items are refused one by
// one and the good ones stored. Meanwhile another site's request answers as usual. On PGlite, and
// on PostgreSQL when DATABASE_URL is set (PostgreSQL is the engine that refuses U+0000).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createHarness, type Harness } from '../../support/harness.ts';
import { describeVariants } from '../../support/needs.ts';
import { file, postForm } from '../files/files-support.ts';
import { iso, post, postReadings } from '../readings/readings-support.ts';
import { duringAttack, INNOCENT_TTL, innocentHistory, recordEngines, seedInnocent } from './hostile-support.ts';

const T = Date.parse('2026-03-01T12:00:00Z');
const PROBLEM = /^(The file's name: )?Contains U\+[0-9A-F]{4,6} at index \d+; text may not hold control characters/;

/** One hostile input: the request that carries it, and the field the 400 must name. */
interface Attack {
  readonly name: string;
  readonly field: string;
  send(h: Harness): Promise<Response>;
}

const site =
  (body: Record<string, unknown>): Attack['send'] =>
  (h) =>
    h.fetch('/api/v1/sites/', post({ name: 'Hostile', ...body }));
const upload =
  (fields: Record<string, string | Blob>): Attack['send'] =>
  (h) =>
    postForm(h, '/api/files/', { site_id: 'attacked', category: 'other', ...fields });

/** A multipart upload to the attacked site whose file part names its file in `filename*` (RFC 5987), percent-encoded. */
function encodedFileName(encoded: string): RequestInit {
  const boundary = 'hostile-boundary';
  const part = (headers: string, body: string) => `--${boundary}\r\n${headers}\r\n\r\n${body}\r\n`;
  const body =
    part('Content-Disposition: form-data; name="site_id"', 'attacked') +
    part('Content-Disposition: form-data; name="category"', 'other') +
    part(
      `Content-Disposition: form-data; name="file"; filename*=UTF-8''${encoded}\r\nContent-Type: application/pdf`,
      'bytes',
    ) +
    `--${boundary}--\r\n`;
  return { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}` }, body };
}

const ATTACKS: Attack[] = [
  { name: 'U+0000 in a site name', field: 'name', send: site({ id: 'nul-name', name: 'HQ\u0000' }) },
  { name: 'U+0000 in a city', field: 'city', send: site({ id: 'nul-city', city: 'Ber\u0000lin' }) },
  {
    name: 'an unpaired surrogate in an organization',
    field: 'organization',
    send: site({ id: 'lone-surrogate', organization: 'Acme \ud800' }),
  },
  {
    name: 'a non-character in an address',
    field: 'address',
    send: site({ id: 'non-character', address: 'Main St \uffff' }),
  },
  { name: 'an ESC sequence in a country', field: 'country', send: site({ id: 'escape', country: '\u001b[2Jcleared' }) },
  {
    name: 'U+0000 in a key name',
    field: 'name',
    send: (h) => h.fetch('/api/v1/keys/', post({ name: 'ci\u0000', sites: '*' })),
  },
  {
    name: 'U+0000 in a multipart name',
    field: 'name',
    send: upload({ name: 'plan\u0000.pdf', file: file('bytes', 'plan.pdf') }),
  },
  {
    name: 'U+0000 in a multipart storey',
    field: 'storey',
    send: upload({ storey: 'L1\u0000', file: file('bytes', 'plan.pdf') }),
  },
  // A raw U+0000 in a part header is refused by the multipart parser itself; percent-encoded in
  // RFC 5987's `filename*`, it reaches the service.
  {
    name: 'U+0000 in an uploaded file name',
    field: 'file',
    send: (h) => h.fetch('/api/files/', encodedFileName('plan%00.pdf')),
  },
  {
    name: 'U+0000 in the file list’s entity_uri',
    field: 'entity_uri',
    send: (h) => h.fetch('/api/files/?entity_uri=%00'),
  },
  {
    name: 'U+0000 in the file list’s site_id',
    field: 'site_id',
    send: (h) => h.fetch('/api/files/?site_id=attacked%00'),
  },
  {
    name: 'U+0000 in the model list’s storey',
    field: 'storey',
    send: (h) => h.fetch('/api/v1/sites/attacked/models?storey=L1%00'),
  },
  {
    name: 'U+0000 in a timeseries id of a history query',
    field: 'timeseriesIds.1',
    send: (h) => h.fetch('/api/v1/sites/attacked/timeseries', post({ timeseriesIds: ['ts-sat', 'ts\u0000'] })),
  },
  {
    name: 'U+0000 in a history query’s start',
    field: 'start',
    send: (h) => h.fetch('/api/v1/sites/attacked/timeseries', post({ timeseriesIds: ['ts-sat'], start: '-1h\u0000' })),
  },
];

describeVariants('hostile text on $name', recordEngines(), (engine) => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ sites: { attacked: INNOCENT_TTL, innocent: INNOCENT_TTL }, env: await engine.env() });
    await seedInnocent(h, 'innocent');
  });
  afterAll(async () => {
    await h?.close();
    await engine.teardown();
  });

  it.each(ATTACKS)('$name: 400 naming $field, while another site answers', async ({ field, send }) => {
    const { attack } = await duringAttack(
      () => send(h),
      () => innocentHistory(h, 'innocent'),
    );
    expect(attack.status, await attack.clone().text()).toBe(400);
    const body = await attack.json();
    expect(body[field], JSON.stringify(body)).toEqual([expect.stringMatching(PROBLEM)]);
  });

  it('stores no record and no bytes for any refused input', async () => {
    const sites = (await (await h.fetch('/api/v1/sites/')).json()).map((s: { id: string }) => s.id);
    expect(sites.sort()).toEqual(['attacked', 'innocent']);
    expect(await (await h.fetch('/api/files/?site_id=attacked')).json()).toEqual([]);
    const blobs: string[] = [];
    for await (const blob of h.services.blobs.list('files/')) blobs.push(blob.key);
    expect(blobs).toEqual([]);
  });

  it('still takes tab, line feed and carriage return (an address over several lines)', async () => {
    const res = await h.fetch(
      '/api/v1/sites/',
      post({ id: 'multi-line', name: 'Multi\tline', address: 'Main St 1\r\n10115 Berlin' }),
    );
    expect(res.status, await res.clone().text()).toBe(201);
    expect(await res.json()).toMatchObject({ name: 'Multi\tline', address: 'Main St 1\r\n10115 Berlin' });
    expect((await h.fetch('/api/v1/sites/multi-line', { method: 'DELETE' })).status).toBe(204);
  });

  it('a batch of readings refuses its bad items one by one and stores the good ones', async () => {
    const { attack: report } = await duringAttack(
      () =>
        postReadings(h, 'attacked', [
          { timeseriesId: 'ts-sat', timestamp: iso(T), value: 13 },
          { timeseriesId: 'ts\u0000sat', timestamp: iso(T), value: 1 },
          { timeseriesId: 'ts-zat', timestamp: iso(T), value: 21 },
          { timeseriesId: 'ts-\udc00', timestamp: iso(T), value: 2 },
          { timeseriesId: 'ts-\u0007', timestamp: iso(T), value: 3 },
          { timeseriesId: 'ts-fan', timestamp: iso(T), value: true },
        ]),
      () => innocentHistory(h, 'innocent'),
    );
    expect(report).toEqual({
      received: 6,
      stored: 3,
      rejected: [1, 3, 4].map((index) => ({ index, errors: { timeseriesId: [expect.stringMatching(PROBLEM)] } })),
    });
    const res = await h.fetch(
      '/api/v1/sites/attacked/timeseries',
      post({ timeseriesIds: ['ts-sat', 'ts-zat', 'ts-fan'], start: iso(T), end: iso(T + 1) }),
    );
    const stored = Object.fromEntries(
      (await res.json()).series.map((s: { timeseriesId: string; data: Array<{ v: number }> }) => [
        s.timeseriesId,
        s.data.map((d) => d.v),
      ]),
    );
    expect(stored).toEqual({ 'ts-sat': [13], 'ts-zat': [21], 'ts-fan': [1] });
  });

  it('so does an NDJSON batch', async () => {
    const lines = [
      JSON.stringify({ timeseriesId: 'ts-rh', timestamp: iso(T), value: 40 }),
      JSON.stringify({ timeseriesId: 'ts-rh\u0000', timestamp: iso(T), value: 41 }),
    ].join('\n');
    const res = await h.fetch('/api/v1/sites/attacked/readings', post(lines, 'application/x-ndjson'));
    expect(res.status, await res.clone().text()).toBe(200);
    expect(await res.json()).toEqual({
      received: 2,
      stored: 1,
      rejected: [{ index: 1, errors: { timeseriesId: [expect.stringMatching(PROBLEM)] } }],
    });
  });
});
