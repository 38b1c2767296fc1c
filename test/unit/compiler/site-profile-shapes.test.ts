// With a site's profile (src/compiler/site-profile.ts) the planner anchors what would otherwise scan
// the site: local-name ids become the IRIs they can be, the kind fallback a list of the untyped
// entities (or nothing), a property name its predicates. Without one, the shapes stay as they were.
import { describe, expect, it } from 'vitest';
import type { Constraint, EntityKind, RelationName, RootPlan } from '../../../src/compiler/plan.ts';
import { SiteIds } from '../../../src/compiler/site-ids.ts';
import type { SiteProfile } from '../../../src/compiler/site-profile.ts';
import { externalReferencesQuery, relationQuery, rootQuery } from '../../../src/compiler/sparql-builder.ts';
import { serialize } from '../../../src/rdf/sparql-serializer.ts';
import type { SelectQuery } from 'sparqljs';
import { contentsOf, parseSelect, valuesOf } from './sparql-support.ts';

/** A query's text as the serializer prints it, on one line. */
const textOf = (query: SelectQuery) => serialize(query).replace(/\s+/g, ' ');

const BRICK = 'https://brickschema.org/schema/Brick#';
const A = 'https://example.org/a#';
const B = 'https://example.org/b/';
const POINT_PREDICATES = [
  `${BRICK}hasPoint`,
  'https://w3id.org/rec#hasPoint',
  `${BRICK}isPointOf`,
  'https://w3id.org/rec#isPointOf',
];

const kind = (k: EntityKind): Constraint => ({ type: 'kind', kind: k, classes: [`${BRICK}${k}`] });

function plan(k: EntityKind, constraints: Constraint[]): RootPlan {
  return {
    key: 'root',
    query: k.toLowerCase() as RootPlan['query'],
    siteId: 'x',
    graph: 'urn:bkg:site:x',
    kind: k,
    answer: 'list',
    constraints: [kind(k), ...constraints],
    selection: { kind: k, attributes: new Set(), fields: [] },
  };
}

const profile = (over: Partial<SiteProfile> = {}): SiteProfile => ({
  untyped: new Map<EntityKind, string[]>([
    ['Equipment', [`${A}LCP1`]],
    ['Point', []],
    ['Location', []],
  ]),
  namespaces: [A, B],
  predicates: new Set([`${A}controllerName`, `${B}controllerName`, `${A}area`, `${BRICK}hasPoint`]),
  plainIfcIds: true,
  tags: undefined,
  ids: SiteIds.UNIQUE,
  ...over,
});

/** What a root query reads: its text, VALUES by variable, and its property paths. */
function read(k: EntityKind, constraints: Constraint[], p: SiteProfile | undefined) {
  const query = rootQuery(plan(k, constraints), new Set(), p);
  if (!query) return undefined;
  const contents = contentsOf(parseSelect(query).where ?? []);
  const values = (variable: string) => contents.values.flatMap((v) => valuesOf(v, variable) ?? []);
  const pathPredicates = contents.triples.flatMap(({ triple }) =>
    'items' in triple.predicate ? JSON.stringify(triple.predicate) : [],
  );
  return { text: textOf(query), values, pathPredicates };
}

describe('rootQuery with a site profile', () => {
  it('binds ?e to the IRIs a local-name id can be in the site’s namespaces', () => {
    const q = read('Equipment', [{ type: 'id', id: 'AHU1' }], profile())!;
    expect(q.values('e')).toEqual([`${A}AHU1`, `${B}AHU1`]);
  });

  it('matches nothing when no namespace makes an IRI of the id', () => {
    expect(read('Equipment', [{ type: 'id', id: 'not an iri' }], profile())).toBeUndefined();
  });

  it('anchors an equipment given by id on its candidate IRIs, tested for its kind by the ontology’s marks, the untyped equipment left out when none is a candidate', () => {
    const q = read(
      'Point',
      [{ type: 'ofEquipment', equipment: { id: 'AHU1' }, equipmentClasses: [`${BRICK}AHU`] }],
      profile(),
    )!;
    expect(q.values('c1_a')).toEqual([`${A}AHU1`, `${B}AHU1`]);
    expect(q.values('c1_k')).toEqual([]);
    expect(q.text).toContain('?c1_a rdf:type ?c1_k. GRAPH <urn:bkg:ontology> { ?c1_k bkg:kind bkg:Equipment. }');
    expect(q.text).not.toContain('UNION');
  });

  it('keeps, of the profile’s untyped equipment, the candidates an id can be (kinds add up)', () => {
    const q = read(
      'Point',
      [{ type: 'ofEquipment', equipment: { id: 'LCP1' }, equipmentClasses: [`${BRICK}AHU`] }],
      profile(),
    )!;
    // The candidates, then the one of them the profile knows by its links alone.
    expect(q.values('c1_a')).toEqual([`${A}LCP1`, `${B}LCP1`, `${A}LCP1`]);
    expect(q.text).toContain('UNION');
  });

  it('lists the untyped entities of a kind instead of scanning every hasPoint edge for them', () => {
    const q = read('Equipment', [], profile())!;
    expect(q.values('e')).toEqual([`${A}LCP1`]);
    expect(q.text).not.toContain('?f_b');
  });

  it('leaves the fallback out when the site has no untyped entity of the kind', () => {
    const q = read('Point', [], profile())!;
    expect(q.values('e')).toEqual([]);
    expect(q.text).not.toContain('UNION');
  });

  it('scans for untyped entities when the profile had too many to list', () => {
    const q = read('Equipment', [], profile({ untyped: new Map() }))!;
    expect(q.text).toContain('?e (brick:hasPoint|rec:hasPoint|^brick:isPointOf|^rec:isPointOf) ?f_b');
  });

  it('generates from the predicates a property name resolves to, with the value tested', () => {
    const q = read(
      'Equipment',
      [{ type: 'property', name: { localName: 'controllerName' }, value: 'DDC-1' }],
      profile(),
    )!;
    expect(q.values('prop_p')).toEqual([
      `${A}controllerName`,
      `${B}controllerName`,
      `${A}controllerName`,
      `${B}controllerName`,
    ]);
    expect(q.text).toContain('FILTER((STR(?prop_v)) = "DDC-1")');
  });

  it('matches nothing for a property name no predicate of the site has', () => {
    expect(read('Equipment', [{ type: 'property', name: { localName: 'nowhere' } }], profile())).toBeUndefined();
  });

  it('tests a property on a bound entity with one triple pattern per EXISTS', () => {
    const q = read(
      'Equipment',
      [
        { type: 'id', id: `${A}AHU1` },
        { type: 'property', name: { localName: 'controllerName' } },
      ],
      profile({ predicates: undefined }),
    )!;
    expect(q.values('e')).toEqual([`${A}AHU1`]);
    expect(q.text).toMatch(
      /FILTER\(\(EXISTS \{ \?e \?prop_p \?prop_v\. FILTER\(.*\) \}\) \|\| \(EXISTS \{ \?e \?prop_p \?prop_node\. FILTER\(.*\) FILTER\(EXISTS \{ \?prop_node brick:value \?prop_v\. \}\) \}\)\)/,
    );
  });

  it('looks an IFC GlobalId up as a plain literal where every GlobalId of the site is one', () => {
    expect(read('Equipment', [{ type: 'ifcId', ifcId: '2O2Fr$t4X7Zf8NOew3FLOH' }], profile())!.text).toContain(
      'ref:ifcGlobalID "2O2Fr$t4X7Zf8NOew3FLOH".',
    );
    expect(
      read('Equipment', [{ type: 'ifcId', ifcId: '2O2Fr$t4X7Zf8NOew3FLOH' }], profile({ plainIfcIds: false }))!.text,
    ).toContain('FILTER((STR(?c1_g)) = "2O2Fr$t4X7Zf8NOew3FLOH")');
  });

  it('leaves the fallback tag to JavaScript when the profile knows every untyped entity', () => {
    expect(read('Equipment', [], profile())!.text).toContain('AS ?tag)');
    expect(read('Equipment', [], profile({ tags: new Map([[`${A}LCP1`, 'hp']]) }))!.text).not.toContain('AS ?tag)');
  });
});

describe('rootQuery without a site profile', () => {
  it('tests a local-name id on every entity of the kind', () => {
    const q = read('Equipment', [{ type: 'id', id: 'AHU1' }], undefined)!;
    expect(q.values('e')).toEqual([]);
    expect(q.text).toContain('STRENDS(STR(?e), "#AHU1")');
  });

  it('finds untyped entities by their hasPoint edges', () => {
    const q = read('Equipment', [], undefined)!;
    expect(q.pathPredicates.join(' ')).toContain(POINT_PREDICATES[0]);
  });
});

const RDFS_LABEL = 'http://www.w3.org/2000/01/rdf-schema#label';

describe('facts over the predicates a site holds', () => {
  const REF = 'https://brickschema.org/schema/Brick/ref#';
  const facts = (p: SiteProfile | undefined) => {
    const query = rootQuery(plan('Point', []), new Set(['labels', 'timeseries', 'unit', 'ifc'] as const), p)!;
    parseSelect(query);
    return textOf(query);
  };

  it('leaves out the probes for predicates the site does not hold', () => {
    const text = facts(
      profile({
        predicates: new Set([RDFS_LABEL, `${REF}hasExternalReference`, `${REF}hasTimeseriesId`, `${BRICK}hasUnit`]),
      }),
    );
    expect(text).toContain('OPTIONAL { ?e rdfs:label ?l0. }');
    expect(text).not.toMatch(/skos:prefLabel|brick:label|ifcGlobalID|hasUnits|brick:timeseries|hasTimeseriesReference/);
    expect(text).toContain('OPTIONAL { ?e (ref:hasExternalReference/ref:hasTimeseriesId) ?ts. }');
    expect(text).toContain('OPTIONAL { ?e brick:hasUnit ?u. }');
  });

  it('reads a timeseries id stated on the point where the site holds only that', () => {
    const text = facts(profile({ predicates: new Set([RDFS_LABEL, `${BRICK}hasTimeseriesId`]) }));
    expect(text).toContain('OPTIONAL { ?e brick:hasTimeseriesId ?ts. }');
  });

  it('drops a fact whose path cannot complete (a reference without timeseries ids)', () => {
    const text = facts(profile({ predicates: new Set([RDFS_LABEL, `${REF}hasExternalReference`]) }));
    expect(text).not.toContain('?ts. }');
  });

  it('asks for every fact without a profile, or when the site has too many predicates to list', () => {
    for (const p of [undefined, profile({ predicates: undefined })]) {
      const text = facts(p);
      expect(text).toMatch(
        /OPTIONAL \{ \?e rdfs:label \?l0\. \} OPTIONAL \{ \?e skos:prefLabel \?l1\. \} OPTIONAL \{ \?e brick:label \?l2\. \}/,
      );
      expect(text).toContain(
        'OPTIONAL { ?e (((ref:hasExternalReference|ref:hasTimeseriesReference)/ref:hasTimeseriesId)|(brick:timeseries/brick:hasTimeseriesId)|brick:hasTimeseriesId) ?ts. }',
      );
      expect(text).toContain('OPTIONAL { ?e (brick:hasUnit|brick:hasUnits) ?u. }');
      expect(text).toContain('ref:ifcGlobalID ?ifc');
    }
  });
});

describe('relationship paths over the predicates a site holds', () => {
  const REC = 'https://w3id.org/rec#';
  const relation = (name: RelationName, predicates: string[] | undefined, recursive = false) => {
    const query = relationQuery(
      'urn:bkg:site:x',
      name,
      { recursive },
      [`${A}P1`],
      new Set(),
      profile({ predicates: predicates && new Set(predicates) }),
    );
    parseSelect(query);
    return textOf(query);
  };

  it('keeps only the alternatives whose predicate the site holds, each in its direction', () => {
    expect(relation('Equipment.points', [`${BRICK}hasPoint`, `${BRICK}isPointOf`])).toContain(
      '?parent (brick:hasPoint|^brick:isPointOf) ?e.',
    );
    expect(relation('Point.equipment', [`${REC}hasPoint`])).toContain('?e rec:hasPoint ?parent.');
    expect(relation('Zone.locations', [`${BRICK}isPartOf`])).toContain('?parent (^brick:isPartOf|brick:isPartOf) ?e.');
  });

  it('prunes every path of a composed pattern (recursive location contents)', () => {
    const text = relation('Building.equipment', [`${BRICK}hasPart`, `${REC}isPartOf`, `${BRICK}hasLocation`], true);
    expect(text).toContain('?parent (((brick:hasPart|^rec:isPartOf)*)/^brick:hasLocation) ?e.');
  });

  it('reads feeds both ways in a traversal over the predicates held', () => {
    const text = relation('Equipment.downstream', [`${REC}feeds`, `${BRICK}isFedBy`]);
    expect(text).toContain('?start ((rec:feeds|^brick:isFedBy)*) ?x. ?x (rec:feeds|^brick:isFedBy) ?y.');
    expect(relation('Equipment.upstream', [`${REC}feeds`, `${BRICK}isFedBy`])).toContain(
      '?start ((^rec:feeds|brick:isFedBy)*) ?y.',
    );
  });

  it('keeps one alternative, which matches nothing, when the site holds none of a path’s predicates', () => {
    expect(relation('Equipment.points', [RDFS_LABEL])).toContain('?parent brick:hasPoint ?e.');
  });

  it('walks every alternative without a profile, or when the site has too many predicates to list', () => {
    const full = '?parent (brick:hasPoint|rec:hasPoint|^brick:isPointOf|^rec:isPointOf) ?e.';
    expect(relation('Equipment.points', undefined)).toContain(full);
    const query = relationQuery('urn:bkg:site:x', 'Equipment.points', { recursive: false }, [`${A}P1`], new Set());
    expect(textOf(query)).toContain(full);
  });

  it('prunes the paths of root filters too', () => {
    const q = read(
      'Point',
      [{ type: 'ofEquipment', equipment: { id: `${A}AHU1` }, equipmentClasses: [`${BRICK}AHU`] }],
      profile({ predicates: new Set([`${BRICK}hasPoint`]) }),
    )!;
    expect(q.text).toContain('?c1_a brick:hasPoint ?e.');
  });
});

describe('externalReferences over the predicates a site holds', () => {
  const REF = 'https://brickschema.org/schema/Brick/ref#';
  const query = (p: SiteProfile | undefined) => externalReferencesQuery('urn:bkg:site:x', [`${A}P1`, `${A}P2`], p);

  it('asks for the references of every parent in one query, over the reference predicates the site holds', () => {
    const text = query(profile({ predicates: new Set([`${REF}hasExternalReference`, `${BRICK}timeseries`]) }))!;
    expect(contentsOf(parseSelect(text).where ?? []).values.flatMap((v) => valuesOf(v, 'parent') ?? [])).toEqual([
      `${A}P1`,
      `${A}P2`,
    ]);
    expect(textOf(text)).toContain('?parent (ref:hasExternalReference|brick:timeseries) ?r');
  });

  it('asks nothing of a site that states no reference, and everything without a profile', () => {
    expect(query(profile())).toBeUndefined();
    expect(textOf(query(undefined)!)).toContain(
      '?parent (ref:hasExternalReference|ref:hasTimeseriesReference|brick:timeseries) ?r',
    );
  });
});
