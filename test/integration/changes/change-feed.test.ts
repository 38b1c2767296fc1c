// The feed of a site's graph changes: GET …/graph/changes (Server-Sent Events) and
// Subscription.graphChanges push each version as it commits, in order, with who made it and the
// entities it touched; a follower that was away resumes (Last-Event-ID, ?since=, since:) with
// every version it missed, or is told to read again where they are no longer kept; the access
// rules of reads, and one cap with the other subscriptions.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, fetchAs, jsonBody, type CreatedKey } from '../../support/api-client.ts';
import { createHarness, type Harness } from '../../support/harness.ts';
import { openEventStream, subscribe, type EventStream, type StreamEvent } from '../../support/sse-client.ts';

const EX = 'https://example.org/feed#';
const BRICK = 'https://brickschema.org/schema/Brick#';
const LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';
const MODEL = `<${EX}ahu> a <${BRICK}AHU> ; <${LABEL}> "AHU" ; <${BRICK}feeds> <${EX}vav1> .
<${EX}vav1> a <${BRICK}VAV> .
<${EX}sat> a <${BRICK}Supply_Air_Temperature_Sensor> ; <${BRICK}isPointOf> <${EX}ahu> .
`;

/** Follows a site's graph changes as the holder of `token` (null: no key). */
function follow(
  h: Harness,
  token: string | null,
  site: string,
  headers: Record<string, string> = {},
  query = '',
): Promise<EventStream<StreamEvent>> {
  const auth: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
  return openEventStream(`${h.url}/api/v1/sites/${site}/graph/changes${query}`, {
    headers: { accept: 'text/event-stream', ...auth, ...headers },
  });
}

let h: Harness;
let writer: CreatedKey;
let reader: CreatedKey;
let stranger: CreatedKey;

const write = (site: string, method: string, path: string, type: string, body: string) =>
  fetchAs(h, writer.key)(`/api/v1/sites/${site}${path}`, { method, headers: { 'content-type': type }, body });
const insert = (site: string, triples: string) =>
  write(site, 'PATCH', '/graph', 'application/sparql-update', `INSERT DATA { ${triples} }`);

beforeAll(async () => {
  h = await createHarness({ sites: {}, env: { BKG_MAX_SUBSCRIPTIONS_KEY: '3', BKG_HISTORY_KEEP_VERSIONS: '2' } });
  for (const id of ['feed', 'resume', 'gone', 'other'])
    expect((await h.fetch('/api/v1/sites/', jsonBody('POST', { id, name: id }))).status).toBe(201);
  writer = await createKey(h, { name: 'writer', sites: ['feed', 'resume', 'gone'], write: true });
  reader = await createKey(h, { name: 'reader', sites: ['feed'] });
  stranger = await createKey(h, { name: 'stranger', sites: ['other'] });
});
afterAll(async () => {
  await h?.close();
});

describe('GET …/graph/changes', () => {
  it('pushes each version in order as it commits: who, how, counts, and the entities touched with their kinds', async () => {
    const feed = await follow(h, reader.key, 'feed');
    try {
      expect(feed.status).toBe(200);
      const put = await write('feed', 'PUT', '/graph', 'text/turtle', MODEL);
      expect(put.status, await put.clone().text()).toBe(200);
      expect((await insert('feed', `<${EX}vav1> <${LABEL}> "VAV 1"`)).status).toBe(200);
      expect(
        (
          await write(
            'feed',
            'PATCH',
            '/graph?message=sensor%20gone',
            'application/sparql-update',
            `DELETE WHERE { <${EX}sat> ?p ?o }`,
          )
        ).status,
      ).toBe(200);
      const events = [await feed.next(), await feed.next(), await feed.next()];
      expect(events.map((e) => [e.event, e.id, e.data.version, e.data.via])).toEqual([
        ['version', '1', 1, 'put'],
        ['version', '2', 2, 'patch'],
        ['version', '3', 3, 'patch'],
      ]);
      expect(events[0]!.data).toMatchObject({
        site: 'feed',
        by: { kind: 'key', id: writer.id, name: 'writer' },
        added: 6,
        removed: 0,
        entityCount: 3,
        entitiesCut: false,
      });
      expect(events[0]!.data.entities).toEqual([
        { id: 'ahu', uri: `${EX}ahu`, kind: 'Equipment' },
        { id: 'sat', uri: `${EX}sat`, kind: 'Point' },
        { id: 'vav1', uri: `${EX}vav1`, kind: 'Equipment' },
      ]);
      expect(events[1]!.data.entities).toEqual([{ id: 'vav1', uri: `${EX}vav1`, kind: 'Equipment' }]);
      // A removed entity keeps the kind its removed class gave it.
      expect(events[2]!.data).toMatchObject({
        message: 'sensor gone',
        removed: 2,
        entities: [{ id: 'sat', kind: 'Point' }],
      });
      expect(await feed.drain(200)).toEqual([]);
    } finally {
      feed.close();
    }
  });

  it('resumes after a gap: from Last-Event-ID or ?since=, every missed version in order, then the live ones', async () => {
    for (let i = 0; i < 2; i++) expect((await insert('resume', `<${EX}e${i}> a <${BRICK}VAV>`)).status).toBe(200);
    // The versions a follower missed are described together: one store query, not one per version.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    h.resetRoundTrips();
    const all = await follow(h, writer.key, 'resume', {}, '?since=0');
    try {
      expect([(await all.next()).data.version, (await all.next()).data.version]).toEqual([1, 2]);
      expect(h.roundTrips()).toBe(1);
    } finally {
      all.close();
    }
    const resumed = await follow(h, writer.key, 'resume', { 'last-event-id': '1' });
    const since = await follow(h, writer.key, 'resume', {}, '?since=1');
    try {
      for (const feed of [resumed, since])
        expect((await feed.next()).data).toMatchObject({ version: 2, entities: [{ id: 'e1' }] });
      expect((await insert('resume', `<${EX}e2> a <${BRICK}VAV>`)).status).toBe(200);
      for (const feed of [resumed, since])
        expect((await feed.next()).data).toMatchObject({ version: 3, entities: [{ id: 'e2' }] });
    } finally {
      resumed.close();
      since.close();
    }
  });

  it('tells a follower to read again when what it missed is past retention, or names a version the site never had', async () => {
    for (let i = 3; i < 6; i++) expect((await insert('resume', `<${EX}e${i}> a <${BRICK}VAV>`)).status).toBe(200);
    const away = await follow(h, writer.key, 'resume', {}, '?since=1');
    const ahead = await follow(h, writer.key, 'resume', { 'last-event-id': '99' });
    try {
      const reread = await away.next();
      expect([reread.event, reread.id, reread.data.version]).toEqual(['reread', '6', 6]);
      expect(reread.data.reason).toMatch(/no longer kept/);
      expect((await ahead.next()).data).toMatchObject({ version: 6, reason: expect.stringMatching(/no version 99/) });
      expect((await insert('resume', `<${EX}e6> a <${BRICK}VAV>`)).status).toBe(200);
      expect((await away.next()).data.version).toBe(7);
    } finally {
      away.close();
      ahead.close();
    }
  });

  it('follows the access rules of reads: 401 without a key, 404 for a site the key may not read, 400 for a bad Last-Event-ID', async () => {
    expect((await follow(h, null, 'feed')).status).toBe(401);
    expect((await follow(h, stranger.key, 'feed')).status).toBe(404);
    expect((await follow(h, reader.key, 'nowhere')).status).toBe(404);
    expect((await follow(h, reader.key, 'feed', { 'last-event-id': 'v2' })).status).toBe(400);
    expect((await follow(h, reader.key, 'feed', {}, '?since=-1')).status).toBe(400);
  });

  it('counts feeds and GraphQL subscriptions against one cap per key, and frees a slot when a follower leaves', async () => {
    const open = [await follow(h, reader.key, 'feed'), await follow(h, reader.key, 'feed')];
    const sub = await subscribe(
      `${h.url}/graphql`,
      reader.key,
      `subscription { graphChanges(siteId: "feed") { version } }`,
    );
    try {
      expect([...open.map((f) => f.status), sub.status]).toEqual([200, 200, 200]);
      const refused = await fetchAs(h, reader.key)('/api/v1/sites/feed/graph/changes');
      expect(refused.status).toBe(429);
      expect((await refused.json()).code).toBe('RATE_LIMITED');
      open[0]!.close();
      await expect
        .poll(async () => {
          const again = await follow(h, reader.key, 'feed');
          again.close();
          return again.status;
        })
        .toBe(200);
    } finally {
      for (const f of open) f.close();
      sub.close();
    }
  });

  it('ends with a deleted event when the site is deleted', async () => {
    const feed = await follow(h, writer.key, 'gone');
    expect((await h.fetch('/api/v1/sites/gone', { method: 'DELETE' })).status).toBe(204);
    expect((await feed.next()).event).toBe('deleted');
  });
});

describe('Subscription.graphChanges', () => {
  const CHANGES = `subscription ($site: String!, $since: Int) {
    graphChanges(siteId: $site, since: $since) { siteId type version via by { kind name } added removed entityCount entities { id kind } entitiesCut reason }
  }`;

  it('pushes the same changes, resumes with since, and refuses a site the caller may not read', async () => {
    const live = await subscribe(`${h.url}/graphql`, reader.key, CHANGES, { site: 'feed' });
    const resumed = await subscribe(`${h.url}/graphql`, reader.key, CHANGES, { site: 'feed', since: 2 });
    try {
      expect((await resumed.next()).data.graphChanges).toMatchObject({ type: 'VERSION', version: 3, via: 'patch' });
      expect((await insert('feed', `<${EX}vav2> a <${BRICK}VAV>`)).status).toBe(200);
      const pushed = (await live.next()).data.graphChanges;
      expect(pushed).toEqual({
        siteId: 'feed',
        type: 'VERSION',
        version: 4,
        via: 'patch',
        by: { kind: 'key', name: 'writer' },
        added: 1,
        removed: 0,
        entityCount: 1,
        entities: [{ id: 'vav2', kind: 'Equipment' }],
        entitiesCut: false,
        reason: null,
      });
      expect((await resumed.next()).data.graphChanges.version).toBe(4);
    } finally {
      live.close();
      resumed.close();
    }
    const refused = await subscribe(`${h.url}/graphql`, stranger.key, CHANGES, { site: 'feed' });
    expect((await refused.next()).errors[0].extensions.code).toBe('NOT_FOUND');
    refused.close();
  });
});
