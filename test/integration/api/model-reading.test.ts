// The load report: a load asked for it (`reading=1`) answers what the service made of the model,
// and `GET …/graph/reading` answers it for the graph as it is. Nothing a model states is dropped without
// a line in it: older Brick names with what they are read as, deprecated classes, the site's own
// classes, classes nobody declares with the closest Brick names, untyped entities, unread relations.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonBody } from '../../support/api-client.ts';
import { createHarness, type Harness } from '../../support/harness.ts';

const fixture = (name: string) =>
  readFileSync(new URL(`../../../fixtures/real-models/${name}.ttl`, import.meta.url), 'utf8');
const BRICK = 'https://brickschema.org/schema/Brick#';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ sites: {} });
  for (const id of ['old', 'messy', 'declared', 'plant', 'current']) {
    const res = await h.fetch('/api/v1/sites/', jsonBody('POST', { id, name: id }));
    if (res.status !== 201) throw new Error(`creating ${id}: ${res.status}`);
  }
});
afterAll(async () => {
  await h?.close();
});

async function load(site: string, turtle: string): Promise<any> {
  const res = await h.fetch(`/api/v1/sites/${site}/graph?reading=1`, {
    method: 'PUT',
    headers: { 'content-type': 'text/turtle' },
    body: turtle,
  });
  expect(res.status).toBe(200);
  return (await res.json()).reading;
}

describe('a load answers its reading', () => {
  it('names the Brick 1.0 classes it read as 1.4 ones, with how many entities each, and the version it looks like', async () => {
    const reading = await load('old', fixture('brick-1.0-class-names'));
    expect(reading.brickVersion.looksLike).toBe('1.0.2, 1.1');
    expect(reading.renamedClasses).toEqual(
      expect.arrayContaining([
        { class: `${BRICK}Zone_Temperature_Sensor`, entities: 1, readAs: `${BRICK}Zone_Air_Temperature_Sensor` },
        {
          class: 'https://brickschema.org/schema/1.0.2/Brick#AHU_Supply_Air_Temperature_Sensor',
          entities: 1,
          readAs: `${BRICK}Supply_Air_Temperature_Sensor`,
        },
        { class: 'https://brickschema.org/schema/1.1/Brick#AHU', entities: 1, readAs: `${BRICK}AHU` },
      ]),
    );
    expect(reading.unknownClasses).toEqual([]);
    expect(reading.entities).toMatchObject({ typed: 11, untyped: 0 });
  });

  it('names classes nobody declares with the closest Brick names, untyped entities, and relations no field reads', async () => {
    const turtle = `${fixture('kinds-add-up')}
@prefix bf: <https://brickschema.org/schema/1.0.2/BrickFrame#> .
:AHU-1 brick:controls :LCP-1 ; bf:isLocatedIn :Lab .
:Zone_Temp a x:Zone_Air_Temprature_Sensor .`;
    const reading = await load('messy', turtle);
    expect(reading.unknownClasses.map((c: { class: string }) => c.class)).toEqual(
      expect.arrayContaining([
        'https://example.org/vendor#Relay_State',
        'https://example.org/vendor#Wing',
        'https://example.org/vendor#Zone_Air_Temprature_Sensor',
      ]),
    );
    const relay = reading.unknownClasses.find((c: { class: string }) => c.class.endsWith('#Relay_State'));
    expect(relay.entities).toBe(2);
    const typo = reading.unknownClasses.find((c: { class: string }) => c.class.endsWith('#Zone_Air_Temprature_Sensor'));
    expect(typo.suggestions).toContain('Zone_Air_Temperature_Sensor');
    expect(reading.entities.untyped).toBe(1);
    expect(reading.entities.untypedExamples).toEqual(['https://example.org/messy#AHU-1-Mystery']);
    expect(reading.ignoredRelations).toEqual(
      expect.arrayContaining([
        { predicate: `${BRICK}controls`, triples: 1 },
        expect.objectContaining({
          predicate: 'https://brickschema.org/schema/1.0.2/BrickFrame#isLocatedIn',
          triples: 1,
          note: expect.stringContaining('brick:hasLocation'),
        }),
      ]),
    );
    expect(reading.brickVersion.looksLike).toBe('1.0.2');
  });

  it("names the site's own classes with their superclasses, and Brick 1.4's deprecated classes with what they are read as", async () => {
    const declared = await load('declared', fixture('site-declared-classes'));
    expect(declared.siteClasses).toEqual(
      expect.arrayContaining([
        {
          class: 'https://example.org/boilerhouse#Pilot_Flame_Sensor',
          entities: 1,
          superclasses: ['https://example.org/boilerhouse#Firing_Rate_Sensor'],
        },
        {
          class: 'https://example.org/boilerhouse#Steam_Header',
          entities: 1,
          superclasses: [`${BRICK}HVAC_Equipment`],
        },
      ]),
    );
    const plant = await load('plant', fixture('deprecated-hot-water-setpoints'));
    expect(plant.deprecatedClasses).toEqual(
      expect.arrayContaining([
        {
          class: `${BRICK}Supply_Hot_Water_Temperature_Setpoint`,
          entities: 1,
          readAs: `${BRICK}Leaving_Hot_Water_Temperature_Setpoint`,
        },
      ]),
    );
    expect(plant.brickVersion.looksLike).toBe('1.1–1.3');
  });

  it('is the same for the stored graph, and says 1.4 of a current model', async () => {
    const res = await h.fetch('/api/v1/sites/declared/graph/reading');
    expect(res.status).toBe(200);
    expect((await res.json()).siteClasses).toHaveLength(4);
    const current = await load(
      'current',
      '@prefix brick: <https://brickschema.org/schema/Brick#> .\n<urn:x:ahu> a brick:AHU ; brick:hasPoint <urn:x:sat> .\n<urn:x:sat> a brick:Supply_Air_Temperature_Sensor .\n',
    );
    expect(current.brickVersion.looksLike).toBe('1.4');
    expect(current.renamedClasses).toEqual([]);
  });

  it('is not waited for by a load that does not ask for it, and follows from GET …/graph/reading', async () => {
    const res = await h.fetch('/api/v1/sites/current/graph', {
      method: 'PUT',
      headers: { 'content-type': 'text/turtle' },
      body: fixture('brick-1.0-class-names'),
    });
    expect(res.status).toBe(200);
    const answer = await res.json();
    expect(answer).toMatchObject({ site: 'current', triples: expect.any(Number) });
    expect(answer).not.toHaveProperty('reading');
    const reading = await (await h.fetch('/api/v1/sites/current/graph/reading')).json();
    expect(reading.brickVersion.looksLike).toBe('1.0.2, 1.1');
  });
});
