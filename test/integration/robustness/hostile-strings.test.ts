// Hostile strings through every string argument (one escaping path for everything a
// user sends: docs/architecture.md, "Design"). 2,000 generated strings (quotes, backslashes, newlines, braces, `#`,
// `>`, control characters, SPARQL keywords, regex metacharacters, any unicode, up to 10,000
// characters) are each an entity's label, and each is sent through every string argument of the
// API (a string longer than an argument's limit, docs/security.md, is refused there at once, as
// BAD_USER_INPUT naming the argument: those are sent one field at a time and checked for that): no query may break, EXACT must find exactly the entities labelled with the string and
// CONTAINS every entity whose label contains it, case-insensitively (docs/brick-mapping.md, "Names").
//
// Cost: about 20,000 GraphQL fields, most of them a SPARQL query, at several milliseconds of CPU
// each. Requests carry 40 strings as aliased fields; entities are spread over sites of 40, so a
// root query scans 40 entities; and the ontology is a dozen-class fixture, which makes the class
// lists every root query writes a few IRIs instead of ~400 (about 1.5 times cheaper). Escaping does
// not depend on the ontology. 2,000 strings hold at least ten of every kind the generator promises
// (the first test checks five), each sent through every argument; the escaper itself meets far more
// in the unit tests (test/unit/rdf/sparql-algebra.test.ts). BKG_TEST_HOSTILE_STRINGS=<n> runs
// another number: fewer while working on this file, 10,000 for a longer search (docs/development.md).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type GraphQLResult, type Harness } from '../../support/harness.ts';
import { sampleHostileStrings, show, turtleString } from '../../unit/rdf/hostile-strings.ts';
import { selectQuery } from '../../support/select-query.ts';
import { serialize } from '../../../src/rdf/sparql-serializer.ts';
import { MAX_IRI_LENGTH, MAX_NAME_LENGTH } from '../../../src/compiler/filter-text-limits.ts';

const COUNT = Number(process.env.BKG_TEST_HOSTILE_STRINGS ?? 2_000);
const SEED = 20_261_121;
const SITE_SIZE = 40;
const STRINGS_PER_REQUEST = 40;
const NS = 'https://example.org/hostile#';

const ONTOLOGY = `@prefix brick: <https://brickschema.org/schema/Brick#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
brick:Equipment a owl:Class .
brick:AHU a owl:Class ; rdfs:subClassOf brick:Equipment .
brick:Point a owl:Class .
brick:Sensor a owl:Class ; rdfs:subClassOf brick:Point .
brick:Temperature_Sensor a owl:Class ; rdfs:subClassOf brick:Sensor .
brick:Location a owl:Class .
brick:Building a owl:Class ; rdfs:subClassOf brick:Location .
brick:Room a owl:Class ; rdfs:subClassOf brick:Location .
brick:Zone a owl:Class .
brick:HVAC_Zone a owl:Class ; rdfs:subClassOf brick:Zone .
brick:System a owl:Class .
`;

const strings = sampleHostileStrings(COUNT, SEED);
const siteOf = (i: number) => `h${String(Math.floor(i / SITE_SIZE)).padStart(3, '0')}`;
const membersOf = (i: number) => {
  const first = Math.floor(i / SITE_SIZE) * SITE_SIZE;
  return Array.from({ length: Math.min(SITE_SIZE, COUNT - first) }, (_, k) => first + k);
};
const siteIds = [...new Set(strings.map((_, i) => siteOf(i)))];

/**
 * Entity i: equipment `e<i>` labelled with string i, with the string also as a property value and as
 * its IFC GlobalId, located in room `r<i>` and having point `p<i>`, both labelled with the string too.
 */
function siteTurtle(siteId: string): string {
  const lines = [
    '@prefix ex: <https://example.org/hostile#> .',
    '@prefix brick: <https://brickschema.org/schema/Brick#> .',
    '@prefix ref: <https://brickschema.org/schema/Brick/ref#> .',
    '@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .',
  ];
  strings.forEach((value, i) => {
    if (siteOf(i) !== siteId) return;
    const label = turtleString(value);
    lines.push(
      `ex:e${i} a brick:AHU ; rdfs:label ${label} ; ex:note ${label} ; brick:hasLocation ex:r${i} ; brick:hasPoint ex:p${i} ;`,
      `    ref:hasExternalReference [ a ref:IFCReference ; ref:ifcGlobalID ${label} ] .`,
      `ex:r${i} a brick:Room ; rdfs:label ${label} .`,
      `ex:p${i} a brick:Temperature_Sensor ; rdfs:label ${label} .`,
    );
  });
  return lines.join('\n');
}

const lower = (s: string) => s.toLowerCase();
/** Indices of the entities of i's site whose label is exactly string i. */
const exactMatches = (i: number) => membersOf(i).filter((j) => strings[j] === strings[i]);
/** Indices of the entities of i's site whose label contains string i, ignoring case (docs/brick-mapping.md, "Names"). */
const containsMatches = (i: number) => membersOf(i).filter((j) => lower(strings[j]!).includes(lower(strings[i]!)));
const ids = (prefix: string, indices: number[]) => indices.map((j) => `${prefix}${j}`).sort();
/** Whether a string names an entity by id (local name or IRI), which a hostile string could do by chance. */
const namesEntity = (s: string) => /^(https:\/\/example\.org\/hostile#)?[erp]\d+$/.test(s);

/** The fields sent for string i, by name; `$s` stands for the string's variable. */
function fieldsFor(i: number): Record<string, string> {
  const site = JSON.stringify(siteOf(i));
  return {
    // name, root: a scan of the site's equipment.
    exact: `equipment(siteId: ${site}, name: $s, nameMatch: EXACT) { id }`,
    contains: `equipment(siteId: ${site}, name: $s) { id }`,
    // name (CONTAINS), locationName and propertyValue on entity i, and name (EXACT) on a relation.
    combined: `equipment(siteId: ${site}, id: "${NS}e${i}", name: $s, locationName: $s, propertyValue: $s) { id points(name: $s, nameMatch: EXACT) { id } }`,
    ids: `point(siteId: ${site}, id: $s, equipmentId: $s, locationId: $s, zoneId: $s, systemId: $s) { id }`,
    hasProperty: `equipment(siteId: ${site}, id: "${NS}e${i}", hasProperty: $s) { id }`,
    ifc: `entityByIfcId(siteId: ${site}, ifcId: $s) { ... on Equipment { id } }`,
    location: `location(siteId: ${site}, locationId: $s) { id }`,
    // Refused arguments, under a nullable root so that each refusal is reported on its own.
    is: `location(siteId: ${site}, locationId: "r${i}") { equipment(is: $s) { id } }`,
    medium: `location(siteId: ${site}, locationId: "r${i}") { equipment { downstream(medium: $s) { id } } }`,
    site: `location(siteId: $s, locationId: "r0") { id }`,
  };
}

/** The shortest filter-text limit among the arguments each field of `fieldsFor` passes the string to. */
const FIELD_LIMITS: Record<string, number> = {
  exact: MAX_NAME_LENGTH,
  contains: MAX_NAME_LENGTH,
  combined: MAX_NAME_LENGTH,
  ids: MAX_IRI_LENGTH,
  hasProperty: MAX_IRI_LENGTH,
  ifc: MAX_IRI_LENGTH,
  location: MAX_IRI_LENGTH,
  is: MAX_IRI_LENGTH,
  medium: MAX_IRI_LENGTH,
  site: Infinity,
};
/** Whether string i is within every argument's limit, so that every field can answer it. */
const sendable = (i: number) => strings[i]!.length <= MAX_NAME_LENGTH;

/** One string's answers by field name, with the errors reported on its fields. */
interface Answers {
  readonly data: Record<string, unknown>;
  readonly errors: Record<string, NonNullable<GraphQLResult['errors']>[number]>;
}

type Field = { i: number; name: string; text: string };

/** The fields of `fieldsFor` whose root field is a non-null list. */
const NON_NULL = new Set(['exact', 'contains', 'combined', 'ids', 'hasProperty']);

let h: Harness;
let dir: string;
const answers: Answers[] = strings.map(() => ({ data: {}, errors: {} }));
const rootEquipmentIs: GraphQLResult[] = [];
const brokenQueries: string[] = [];
/** The answers of the fields sent a string past their limit. */
const refused: Array<{ i: number; name: string; errors: NonNullable<GraphQLResult['errors']> }> = [];
let storeQueries = 0;

/**
 * Sends fields as one request, aliased `<name>_<i>`, and files each answer and error under its
 * string. An error on a non-null root field nulls the whole response and is the only one reported:
 * that field's error is filed and the rest sent again without it.
 */
async function send(fields: Field[]): Promise<void> {
  if (fields.length === 0) return;
  const variables = [...new Set(fields.map((f) => f.i))];
  const query = `query (${variables.map((i) => `$s${i}: String!`).join(', ')}) {\n${fields.map((f) => `  ${f.name}_${f.i}: ${f.text.replaceAll('$s', `$s${f.i}`)}`).join('\n')}\n}`;
  const res = await h.graphql(query, Object.fromEntries(variables.map((i) => [`s${i}`, strings[i]])));
  const alias = (key: unknown) => /^([a-zA-Z]+)_(\d+)$/.exec(String(key));
  for (const error of res.errors ?? []) {
    const match = alias(error.path?.[0]);
    if (!match) throw new Error(`an error on no field: ${JSON.stringify(error).slice(0, 500)}`);
    answers[Number(match[2])]!.errors[match[1]!] = error;
  }
  if (!res.data) {
    // Only an error on a non-null root field nulls the response; other fields' errors come with it.
    const failed = new Set(
      (res.errors ?? []).map((e) => String(e.path?.[0])).filter((key) => NON_NULL.has(alias(key)?.[1] ?? '')),
    );
    if (failed.size === 0)
      throw new Error(`no data and no failed root list: ${JSON.stringify(res.errors?.slice(0, 3))}`);
    return send(fields.filter((f) => !failed.has(`${f.name}_${f.i}`)));
  }
  for (const [key, value] of Object.entries(res.data)) {
    const match = alias(key)!;
    answers[Number(match[2])]!.data[match[1]!] = value;
  }
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'bkg-hostile-'));
  await writeFile(join(dir, 'ontology.ttl'), ONTOLOGY);
  h = await createHarness({
    sites: Object.fromEntries(siteIds.map((id) => [id, siteTurtle(id)])),
    env: {
      BKG_ONTOLOGY: join(dir, 'ontology.ttl'),
      BKG_GRAPHQL_MAX_ALIASES: '1000',
      BKG_GRAPHQL_MAX_COST: '1000000',
      BKG_GRAPHQL_MAX_TOKENS: '100000',
    },
  });
  h.services.store.onQuery(({ query, ok }) => {
    storeQueries++;
    if (!ok) brokenQueries.push(serialize(query));
  });

  for (let first = 0; first < COUNT; first += STRINGS_PER_REQUEST) {
    const batch: Field[] = [];
    for (let i = first; i < Math.min(COUNT, first + STRINGS_PER_REQUEST); i++) {
      for (const [name, text] of Object.entries(fieldsFor(i))) {
        if (sendable(i) || strings[i]!.length <= FIELD_LIMITS[name]!) batch.push({ i, name, text });
      }
    }
    await send(batch);
  }
  // A string past a field's limit refuses the whole request: one request per such field.
  for (let i = 0; i < COUNT; i++) {
    for (const [name, text] of Object.entries(fieldsFor(i))) {
      if (strings[i]!.length <= FIELD_LIMITS[name]!) continue;
      const res = await h.graphql(`query ($s: String!) { ${name}_${i}: ${text} }`, { s: strings[i] });
      refused.push({ i, name, errors: res.errors ?? [] });
    }
  }
  // equipmentIs exists only on the root point field, a non-null list: an error there nulls the whole
  // response and is the only one reported, so one string per request. (`is` is sent on a relation,
  // under a nullable root, and checked by the same code as on a root field.)
  for (let first = 0; first < COUNT; first += STRINGS_PER_REQUEST) {
    const batch = strings.slice(first, first + STRINGS_PER_REQUEST).map((s, k) => ({ s, site: siteOf(first + k) }));
    rootEquipmentIs.push(
      ...(await Promise.all(
        batch.map(({ s, site }) =>
          h.graphql(`query ($s: String!) { point(siteId: "${site}", equipmentIs: $s) { id } }`, { s }),
        ),
      )),
    );
  }
}, 60 * 60_000);

afterAll(async () => {
  await h?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs `check` for every string and fails with the first 20 problems (and their number) if any. */
function everyString(check: (i: number, s: string, a: Answers) => string | undefined): void {
  const problems: string[] = [];
  strings.forEach((s, i) => {
    // A string past the names' limit is checked where it is refused (below), not here.
    if (!sendable(i)) return;
    const problem = check(i, s, answers[i]!);
    if (problem !== undefined) problems.push(`#${i} ${show(s)}: ${problem}`);
  });
  expect({ count: problems.length, first: problems.slice(0, 20) }).toEqual({ count: 0, first: [] });
}

const idsOf = (value: unknown) => ((value ?? []) as Array<{ id: string }>).map((e) => e.id).sort();
const same = (actual: string[], expected: string[]) => JSON.stringify(actual) === JSON.stringify(expected);
/** A field's answer, or why there is none. */
const answered = (a: Answers, field: string): string | undefined => {
  const error = a.errors[field];
  if (error) return `${error.extensions?.code}: ${error.message.slice(0, 160)}`;
  return field in a.data ? undefined : 'no answer';
};

describe(`${COUNT} hostile strings`, () => {
  // At least five of each in the default 2,000; a smaller run (BKG_TEST_HOSTILE_STRINGS) may miss some kinds.
  it.runIf(COUNT >= 2_000)('cover every kind of hostile input the generator promises', () => {
    const has = (test: (s: string) => boolean) => strings.filter(test).length;
    const counts = {
      doubleQuote: has((s) => s.includes('"')),
      singleQuote: has((s) => s.includes("'")),
      backslash: has((s) => s.includes('\\')),
      newline: has((s) => s.includes('\n')),
      carriageReturn: has((s) => s.includes('\r')),
      braces: has((s) => s.includes('{') && s.includes('}')),
      hash: has((s) => s.includes('#')),
      angleBracket: has((s) => s.includes('>')),
      nul: has((s) => s.includes('\u0000')),
      otherControl: has((s) => /[\u0001-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/.test(s)),
      union: has((s) => s.includes('} UNION {')),
      dropGraph: has((s) => s.includes('DROP GRAPH')),
      regexMeta: has((s) => s.includes('.*') || s.includes('(?i)')),
      nonBmp: has((s) => /[\u{10000}-\u{10ffff}]/u.test(s)),
      combiningMark: has((s) => /\p{M}/u.test(s)),
      rightToLeft: has((s) => /[\u0590-\u08ff\u200f\u202e]/.test(s)),
      absoluteIri: has((s) => /^[A-Za-z][A-Za-z0-9+.-]*:/.test(s)),
      tenThousandChars: has((s) => Array.from(s).length === 10_000),
      empty: has((s) => s === ''),
    };
    for (const [kind, count] of Object.entries(counts))
      expect(count, kind).toBeGreaterThanOrEqual(kind === 'empty' ? 1 : 5);
  });

  it('are stored in the sites exactly as generated', async () => {
    const problems: string[] = [];
    for (const site of siteIds) {
      const rows = await h.services.store.select(
        selectQuery(
          `SELECT ?e ?label WHERE { GRAPH <urn:bkg:site:${site}> { ?e a <https://brickschema.org/schema/Brick#AHU> ; <http://www.w3.org/2000/01/rdf-schema#label> ?label } }`,
        ),
      );
      for (const row of rows) {
        const i = Number(row.e!.value.slice(`${NS}e`.length));
        if (row.label!.value !== strings[i])
          problems.push(`#${i} stored as ${show(row.label!.value)}, generated ${show(strings[i]!)}`);
      }
      if (rows.length !== membersOf(siteIds.indexOf(site) * SITE_SIZE).length)
        problems.push(`${site}: ${rows.length} labels`);
    }
    expect(problems.slice(0, 20)).toEqual([]);
  });
});

describe('every string argument, for every hostile string', () => {
  it('never breaks a SPARQL query', () => {
    expect(storeQueries).toBeGreaterThan(COUNT * 5);
    expect({ broken: brokenQueries.length, first: brokenQueries.slice(0, 2).map((q) => q.slice(0, 2500)) }).toEqual({
      broken: 0,
      first: [],
    });
  });

  it('never answers INTERNAL_SERVER_ERROR', () => {
    everyString((_i, _s, a) => {
      const internal = Object.entries(a.errors).filter(([, e]) => e.extensions?.code === 'INTERNAL_SERVER_ERROR');
      return internal.length > 0
        ? `INTERNAL_SERVER_ERROR on ${internal.map(([field]) => field).join(', ')}`
        : undefined;
    });
    everyString((i) =>
      rootEquipmentIs[i]!.errors?.some((e) => e.extensions?.code === 'INTERNAL_SERVER_ERROR')
        ? 'INTERNAL_SERVER_ERROR on point(equipmentIs:)'
        : undefined,
    );
  });
});

describe('a string longer than an argument takes', () => {
  it('is refused at once as BAD_USER_INPUT naming the argument and its limit, on every field that takes it', () => {
    expect(strings.filter((_, i) => !sendable(i)).length).toBeGreaterThanOrEqual(COUNT >= 2_000 ? 5 : 0);
    const problems = refused.flatMap(({ i, name, errors }) => {
      const error = errors[0];
      const limit = FIELD_LIMITS[name];
      return errors.length === 1 &&
        error?.extensions?.code === 'BAD_USER_INPUT' &&
        error.extensions.maxLength === limit &&
        typeof error.extensions.argument === 'string'
        ? []
        : [`#${i} ${name}: ${JSON.stringify(errors).slice(0, 200)}`];
    });
    expect(problems.slice(0, 20)).toEqual([]);
  });
});

describe('name', () => {
  it('EXACT finds exactly the equipment labelled with the string', () => {
    everyString((i, _s, a) => {
      const expected = ids('e', exactMatches(i));
      return (
        answered(a, 'exact') ??
        (same(idsOf(a.data.exact), expected)
          ? undefined
          : `found ${JSON.stringify(idsOf(a.data.exact))}, expected ${JSON.stringify(expected)}`)
      );
    });
  });

  it('EXACT finds only entity i when no other label in its site is the same string', () => {
    expect(strings.filter((_, i) => exactMatches(i).length === 1).length).toBeGreaterThan(COUNT * 0.7);
    everyString((i, _s, a) =>
      exactMatches(i).length === 1 && !answered(a, 'exact') && !same(idsOf(a.data.exact), [`e${i}`])
        ? `found ${JSON.stringify(idsOf(a.data.exact))}`
        : undefined,
    );
  });

  it('CONTAINS finds the equipment labelled with the string', () => {
    everyString(
      (i, _s, a) =>
        answered(a, 'contains') ??
        (idsOf(a.data.contains).includes(`e${i}`)
          ? undefined
          : `e${i} not among ${JSON.stringify(idsOf(a.data.contains).slice(0, 10))}`),
    );
  });

  it('CONTAINS finds every equipment whose label contains the string ignoring case, and nothing else', () => {
    everyString((i, _s, a) => {
      const problem = answered(a, 'contains');
      if (problem) return problem;
      const expected = ids('e', containsMatches(i));
      const found = idsOf(a.data.contains);
      if (same(found, expected)) return undefined;
      const label = (id: string) => `${id}=${show(strings[Number(id.slice(1))]!, 40)}`;
      return `missing ${expected
        .filter((id) => !found.includes(id))
        .map(label)
        .join(' ')} extra ${found
        .filter((id) => !expected.includes(id))
        .map(label)
        .join(' ')}`;
    });
  });

  it('CONTAINS with locationName and propertyValue finds entity i by its id, and EXACT on a relation its point', () => {
    everyString((i, _s, a) => {
      const problem = answered(a, 'combined');
      if (problem) return problem;
      const found = a.data.combined as Array<{ id: string; points: Array<{ id: string }> }>;
      const expected = [{ id: `e${i}`, points: [{ id: `p${i}` }] }];
      return JSON.stringify(found) === JSON.stringify(expected) ? undefined : `found ${JSON.stringify(found)}`;
    });
  });
});

describe('the other string arguments', () => {
  it('ifcId finds an equipment with the string as its IFC GlobalId', () => {
    everyString((i, _s, a) => {
      const found = a.data.ifc as { id?: string } | null | undefined;
      return (
        answered(a, 'ifc') ??
        (found?.id !== undefined && ids('e', exactMatches(i)).includes(found.id)
          ? undefined
          : `found ${JSON.stringify(found)}`)
      );
    });
  });

  it('id, equipmentId, locationId, zoneId and systemId find nothing for a string that names no entity, or refuse it as BAD_USER_INPUT', () => {
    everyString((_i, s, a) => {
      if (namesEntity(s)) return undefined;
      for (const field of ['ids', 'location']) {
        const error = a.errors[field];
        if (error && error.extensions?.code !== 'BAD_USER_INPUT')
          return `${field}: ${error.extensions?.code}: ${error.message.slice(0, 160)}`;
        if (!error && !(field in a.data)) return `${field}: no answer`;
      }
      if (idsOf(a.data.ids).length > 0) return `point found ${JSON.stringify(idsOf(a.data.ids))}`;
      if ('location' in a.data && a.data.location !== null) return `location found ${JSON.stringify(a.data.location)}`;
      return undefined;
    });
  });

  it('hasProperty finds nothing for a string that is no property name', () => {
    everyString(
      (i, s, a) =>
        answered(a, 'hasProperty') ??
        (same(idsOf(a.data.hasProperty), s === 'note' ? [`e${i}`] : [])
          ? undefined
          : `found ${JSON.stringify(idsOf(a.data.hasProperty))}`),
    );
  });
});

describe('arguments that name something the service knows', () => {
  const refused = (
    error: NonNullable<GraphQLResult['errors']>[number] | undefined,
    code: string,
    argument?: string,
  ): string | undefined => {
    if (!error) return 'no error';
    if (error.extensions?.code !== code) return `${error.extensions?.code}: ${error.message.slice(0, 160)}`;
    if (argument !== undefined && (error.extensions?.argument !== argument || !error.message.includes(`"${argument}"`)))
      return `does not name ${argument}: ${error.message.slice(0, 160)}`;
    return undefined;
  };
  const knownClass = (s: string) => h.services.ontology.resolveClass(s) !== undefined;

  it('is on a relation: UNKNOWN_CLASS naming the argument', () => {
    everyString((_i, s, a) => (knownClass(s) ? undefined : refused(a.errors.is, 'UNKNOWN_CLASS', 'is')));
  });

  it('equipmentIs on point: UNKNOWN_CLASS naming the argument', () => {
    everyString((i, s) =>
      knownClass(s) ? undefined : refused(rootEquipmentIs[i]!.errors?.[0], 'UNKNOWN_CLASS', 'equipmentIs'),
    );
  });

  it('medium: UNKNOWN_MEDIUM', () => {
    everyString((_i, s, a) =>
      h.services.ontology.resolveMedium(s) ? undefined : refused(a.errors.medium, 'UNKNOWN_MEDIUM'),
    );
  });

  it('siteId: NOT_FOUND', () => {
    everyString((_i, s, a) => (siteIds.includes(s) ? undefined : refused(a.errors.site, 'NOT_FOUND')));
  });
});
