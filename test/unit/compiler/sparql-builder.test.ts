import type { Expression, GraphPattern, GroupPattern, Pattern, SelectQuery } from 'sparqljs';
import { describe, expect, it } from 'vitest';
import type {
  Attribute,
  Constraint,
  EntityKind,
  RelationArgs,
  RelationName,
  RootPlan,
} from '../../../src/compiler/plan.ts';
import { isTraversal, relations } from '../../../src/compiler/relations.ts';
import { SiteIds } from '../../../src/compiler/site-ids.ts';
import { propertiesQuery, relationQuery, rootQuery } from '../../../src/compiler/sparql-builder.ts';
import {
  contentsOf,
  parsePatterns,
  parseSelect,
  projection,
  subExpressions,
  usesOperator,
  valuesOf,
} from './sparql-support.ts';

const BRICK = 'https://brickschema.org/schema/Brick#';
const EX = 'http://example.org/site#';
const SITE_GRAPH = 'urn:bkg:site:demo';
const ONTOLOGY_GRAPH = 'urn:bkg:ontology';
const KIND = 'urn:bkg:vocab#kind';
const HOSTILE = 'x" } ; DROP GRAPH <a> ; #';
const ALL_ATTRIBUTES: ReadonlySet<Attribute> = new Set(['ifc', 'timeseries', 'unit', 'literals', 'owner', 'output']);
const NO_ATTRIBUTES: ReadonlySet<Attribute> = new Set();
const PARENTS = [`${EX}AHU1`, `${EX}Floor_1`];

// Tiny class lists: the builder only writes them out, so they need not be the ontology's.
const KIND_CLASSES: Record<EntityKind, string[]> = {
  Building: [`${BRICK}Building`],
  Location: [`${BRICK}Location`, `${BRICK}Floor`, `${BRICK}Room`],
  Zone: [`${BRICK}Zone`, `${BRICK}HVAC_Zone`],
  Equipment: [`${BRICK}Equipment`, `${BRICK}AHU`, `${BRICK}VAV`],
  Point: [`${BRICK}Point`, `${BRICK}Temperature_Sensor`],
  System: [`${BRICK}System`],
};
const AHU = { iri: `${BRICK}AHU`, closure: [`${BRICK}AHU`, `${BRICK}Air_Handling_Unit`] };

const kind = (k: EntityKind): Constraint => ({ type: 'kind', kind: k, classes: KIND_CLASSES[k] });

function rootPlan(k: EntityKind | undefined, constraints: Constraint[]): RootPlan {
  return {
    key: 'root',
    query: k === undefined ? 'entityByIfcId' : (k.toLowerCase() as RootPlan['query']),
    siteId: 'demo',
    graph: SITE_GRAPH,
    kind: k,
    answer: k === undefined ? 'one' : 'list',
    constraints,
    selection: { kind: k ?? 'Equipment', attributes: NO_ATTRIBUTES, fields: [] },
  };
}

function root(k: EntityKind | undefined, constraints: Constraint[], attributes = NO_ATTRIBUTES): SelectQuery {
  const query = rootQuery(rootPlan(k, constraints), attributes);
  if (!query) throw new Error('rootQuery returned undefined');
  return query;
}

/** The one GRAPH the query reads, and what is inside it. */
function siteGraphPatterns(query: SelectQuery): Pattern[] {
  expect(query.where).toHaveLength(1);
  const graph = query.where![0] as GraphPattern;
  expect(graph.type).toBe('graph');
  expect(graph.name).toMatchObject({ termType: 'NamedNode', value: SITE_GRAPH });
  return graph.patterns;
}

/**
 * The checks every generated query must pass: one SELECT, no FROM, no SERVICE, everything inside
 * the site's GRAPH, and only `bkg:kind` lookups in the ontology graph nested in it.
 */
function expectConfined(sparql: SelectQuery | string): SelectQuery {
  const query = parseSelect(sparql);
  expect(query.from).toBeUndefined();
  siteGraphPatterns(query);
  const contents = contentsOf(query.where ?? []);
  expect(contents.services).toEqual([]);
  expect(contents.triples.length).toBeGreaterThan(0);
  for (const { triple, graphs } of contents.triples) {
    expect(graphs[0]).toBe(SITE_GRAPH);
    if (graphs.length > 1) {
      expect(graphs).toEqual([SITE_GRAPH, ONTOLOGY_GRAPH]);
      expect(triple.predicate).toMatchObject({ termType: 'NamedNode', value: KIND });
    }
  }
  for (const found of [...contents.filters, ...contents.values]) expect(found.graphs[0]).toBe(SITE_GRAPH);
  return query;
}

/** The literal values a query's FILTERs compare with. */
const filterLiterals = (query: SelectQuery): string[] =>
  contentsOf(query.where ?? [])
    .filters.flatMap((f) => subExpressions(f.expression))
    .filter(
      (e): e is Expression & { termType: 'Literal'; value: string } =>
        typeof e === 'object' && e !== null && 'termType' in e && e.termType === 'Literal',
    )
    .map((e) => e.value);

/** What the VALUES clauses of a query bind to a variable, one list per clause. */
const valuesFor = (query: SelectQuery, variable: string): string[][] =>
  contentsOf(query.where ?? []).values.flatMap((v) => {
    const bound = valuesOf(v, variable);
    return bound ? [bound] : [];
  });

/** Compares parsed patterns with the meaning of a fragment written by hand. */
const sameMeaning = (actual: readonly Pattern[], expected: string) => expect(actual).toEqual(parsePatterns(expected));

// The relationship paths as docs/brick-mapping.md reads them, both directions, written out by hand.
const POINT = '(brick:hasPoint|rec:hasPoint|^brick:isPointOf|^rec:isPointOf)';
const LOCATED = '(brick:hasLocation|rec:locatedIn|^brick:isLocationOf|^rec:isLocationOf)';
const PART = '(brick:hasPart|rec:hasPart|^brick:isPartOf|^rec:isPartOf)';
const PART_EITHER =
  '(brick:hasPart|rec:hasPart|^brick:isPartOf|^rec:isPartOf|^brick:hasPart|^rec:hasPart|brick:isPartOf|rec:isPartOf)';

describe('the confinement check used below', () => {
  it('rejects a triple outside the site graph, however deeply it is nested', () => {
    expect(() => expectConfined(`SELECT ?e WHERE { GRAPH <${SITE_GRAPH}> { ?e a ?t } ?e ?p ?o }`)).toThrow();
    expect(() =>
      expectConfined(
        `SELECT ?e WHERE { GRAPH <${SITE_GRAPH}> { ?e a ?t FILTER EXISTS { GRAPH <urn:other> { ?e ?p ?o } } } }`,
      ),
    ).toThrow();
    expect(() =>
      expectConfined(
        `SELECT ?e WHERE { GRAPH <${SITE_GRAPH}> { BIND(IF(EXISTS { GRAPH ?g { ?e ?p ?o } }, 1, 0) AS ?x) ?e a ?t } }`,
      ),
    ).toThrow();
    expect(() =>
      expectConfined(`SELECT ?e WHERE { GRAPH <${SITE_GRAPH}> { ?e a ?t GRAPH <${ONTOLOGY_GRAPH}> { ?t ?p ?o } } }`),
    ).toThrow();
  });

  it('accepts kind lookups in the ontology graph', () => {
    expect(() =>
      expectConfined(
        `SELECT ?e WHERE { GRAPH <${SITE_GRAPH}> { ?e a ?t FILTER EXISTS { GRAPH <${ONTOLOGY_GRAPH}> { ?t <${KIND}> ?k } } } }`,
      ),
    ).not.toThrow();
  });
});

describe('relationQuery', () => {
  const names = Object.keys(relations) as RelationName[];
  const variants: Array<[string, RelationArgs]> = [
    ['no arguments', { recursive: false }],
    ['recursive', { recursive: true }],
    ['name and is', { recursive: false, name: { value: 'Sup', match: 'CONTAINS' }, classes: AHU }],
    ['recursive with an exact name and is', { recursive: true, name: { value: 'Sup', match: 'EXACT' }, classes: AHU }],
  ];
  const cases = names.flatMap((name) => variants.map(([label, args]) => [name, label, args] as const));

  it('covers every relation of the API', () => {
    expect(names).toHaveLength(27);
  });

  it.each(cases)('%s (%s) is one SELECT confined to the site graph', (name, _label, args) => {
    for (const attributes of [NO_ATTRIBUTES, ALL_ATTRIBUTES]) {
      const query = expectConfined(relationQuery(SITE_GRAPH, name, args, PARENTS, attributes));
      expect(projection(query)).toEqual(expect.arrayContaining(['parent', 'e', 'tag', 't', 'l0', 'l1', 'l2']));
      const anchors = valuesFor(query, 'parent');
      expect(anchors.length).toBeGreaterThan(0);
      for (const anchor of anchors) expect(anchor).toEqual(PARENTS);
    }
  });

  it.each(cases.filter(([name, , args]) => !isTraversal(relations[name]) && args.name))(
    '%s (%s) filters by name and class',
    (name, _label, args) => {
      const query = parseSelect(relationQuery(SITE_GRAPH, name, args, PARENTS, NO_ATTRIBUTES));
      expect(filterLiterals(query)).toContain('Sup');
      const classFilter = contentsOf(query.where ?? []).filters.find((f) => usesOperator(f.expression, 'in'));
      expect(classFilter).toBeDefined();
      const named = subExpressions(classFilter!.expression)
        .flatMap((e) => (Array.isArray(e) ? e : []))
        .map((e) => (e as { value: string }).value);
      expect(named).toEqual(AHU.closure);
    },
  );

  it('matches CONTAINS case-insensitively and EXACT exactly', () => {
    const filterOf = (match: 'CONTAINS' | 'EXACT') => {
      const query = parseSelect(
        relationQuery(
          SITE_GRAPH,
          'Equipment.points',
          { recursive: false, name: { value: 'Sup', match } },
          PARENTS,
          NO_ATTRIBUTES,
        ),
      );
      return contentsOf(query.where ?? []).filters.map((f) => f.expression);
    };
    const [contains] = parsePatterns('FILTER(CONTAINS(LCASE(?name), LCASE("Sup")))') as Array<{
      expression: Expression;
    }>;
    const [exact] = parsePatterns('FILTER(?name = "Sup")') as Array<{ expression: Expression }>;
    expect(filterOf('CONTAINS')).toContainEqual(contains!.expression);
    expect(filterOf('EXACT')).toContainEqual(exact!.expression);
  });

  it('puts a hostile name into the query only as the exact literal', () => {
    for (const match of ['CONTAINS', 'EXACT'] as const) {
      const query = expectConfined(
        relationQuery(
          SITE_GRAPH,
          'Location.equipment',
          { recursive: true, name: { value: HOSTILE, match } },
          PARENTS,
          ALL_ATTRIBUTES,
        ),
      );
      expect(filterLiterals(query)).toContain(HOSTILE);
    }
  });

  it('repeats the parent anchor in every branch of a relation with alternatives', () => {
    const withAlternatives: Array<[RelationName, RelationArgs, number]> = [
      ['Equipment.location', { recursive: false }, 2],
      ['Point.location', { recursive: false }, 3],
      ['System.points', { recursive: false }, 2],
    ];
    for (const [name, args, branches] of withAlternatives) {
      const patterns = siteGraphPatterns(parseSelect(relationQuery(SITE_GRAPH, name, args, PARENTS, NO_ATTRIBUTES)));
      const union = patterns[0];
      expect(union?.type).toBe('union');
      const branchList = (union as { patterns: Pattern[] }).patterns;
      expect(branchList).toHaveLength(branches);
      for (const branch of branchList) {
        const first = contentsOf([branch]).values[0];
        expect(first && valuesOf(first, 'parent')).toEqual(PARENTS);
      }
    }
  });

  it('ranks an own location before the location of a whole', () => {
    const patterns = siteGraphPatterns(
      parseSelect(relationQuery(SITE_GRAPH, 'Equipment.location', { recursive: false }, [`${EX}VAV1`], NO_ATTRIBUTES)),
    );
    sameMeaning(
      patterns.slice(0, 1),
      `{ VALUES ?parent { <${EX}VAV1> } ?parent ${LOCATED} ?e . BIND(1 AS ?rank) }
       UNION { VALUES ?parent { <${EX}VAV1> } ?parent (^${PART})+/${LOCATED} ?e . BIND(2 AS ?rank) }`,
    );
  });

  it('reads points of a non-recursive system without sub-systems’ own points', () => {
    const query = parseSelect(
      relationQuery(SITE_GRAPH, 'System.points', { recursive: false }, [`${EX}HW`], NO_ATTRIBUTES),
    );
    const patterns = siteGraphPatterns(query);
    // The member test removes members typed with a System class (MINUS, bench/shapes-1M.md).
    const minus = JSON.stringify(query).match(/"type":"minus"/g) ?? [];
    expect(minus).toHaveLength(1);
    expect(
      contentsOf(patterns).triples.some(
        (t) =>
          t.graphs.includes(ONTOLOGY_GRAPH) && (t.triple.object as { value: string }).value === 'urn:bkg:vocab#System',
      ),
    ).toBe(true);
  });

  describe('traversals', () => {
    const traversals = names.filter((n) => isTraversal(relations[n]));

    it('are the upstream and downstream relations', () => {
      expect(traversals.sort()).toEqual(['Equipment.downstream', 'Equipment.upstream', 'Zone.upstream']);
    });

    it.each(traversals)('%s fetches start nodes, feeds edges and node facts, each branch anchored', (name) => {
      const query = expectConfined(
        relationQuery(
          SITE_GRAPH,
          name,
          { recursive: false, maxDepth: 2, medium: `${BRICK}Air`, classes: AHU },
          PARENTS,
          NO_ATTRIBUTES,
        ),
      );
      expect(projection(query)).toEqual(expect.arrayContaining(['parent', 'start', 'x', 'y', 'e', 'tag', 'out']));
      const patterns = siteGraphPatterns(query);
      expect(patterns).toHaveLength(1);
      const union = patterns[0] as { type: string; patterns: Pattern[] };
      expect(union.type).toBe('union');
      expect(union.patterns).toHaveLength(3);
      for (const branch of union.patterns)
        expect(valuesFor({ ...query, where: [branch] }, 'parent')).toEqual([PARENTS]);
      // The medium and the output substance are checked in JavaScript: the query always fetches outputs.
      const outputs = contentsOf(patterns).triples.filter(
        (t) => (t.triple.predicate as { value?: string }).value === `${BRICK}hasOutputSubstance`,
      );
      expect(outputs).toHaveLength(1);
    });

    it('starts a zone’s upstream walk from the zone and the locations linked to it', () => {
      const query = parseSelect(
        relationQuery(SITE_GRAPH, 'Zone.upstream', { recursive: false }, [`${EX}Z1`], NO_ATTRIBUTES),
      );
      const starts = contentsOf(query.where ?? []).triples.filter(
        (t) => (t.triple.object as { value: string }).value === 'start',
      );
      expect(starts.length).toBeGreaterThan(0);
      for (const { triple } of starts) {
        expect(triple.subject).toMatchObject({ termType: 'Variable', value: 'parent' });
        expect(triple.predicate).toMatchObject({ type: 'path', pathType: '?' });
      }
    });
  });
});

describe('propertiesQuery', () => {
  it('is one SELECT over all parents, confined to the site graph, the parents anchoring both branches', () => {
    const query = expectConfined(propertiesQuery(SITE_GRAPH, PARENTS));
    expect(projection(query)).toEqual(['parent', 'p', 'v', 'u']);
    expect(valuesFor(query, 'parent')).toEqual([PARENTS, PARENTS]);
  });
});

describe('rootQuery', () => {
  const direct = (local: string) => `${EX}${local}`;
  const name = (value: string, match: 'CONTAINS' | 'EXACT' = 'CONTAINS') => ({ value, match });

  /** One of each constraint, by a label; kinds they apply to in brackets where it matters. */
  const constraints: Array<[string, Constraint]> = [
    ['id (IRI)', { type: 'id', id: direct('T1') }],
    ['id (local name)', { type: 'id', id: 'T1' }],
    ['name', { type: 'name', name: name('temp') }],
    [
      'class',
      { type: 'class', classes: { iri: `${BRICK}Temperature_Sensor`, closure: [`${BRICK}Temperature_Sensor`] } },
    ],
    ['kind', kind('Point')],
    [
      'inLocation (IRI)',
      { type: 'inLocation', location: { id: direct('Floor_1') }, locationClasses: KIND_CLASSES.Location },
    ],
    [
      'inLocation (local name)',
      { type: 'inLocation', location: { id: 'Floor_1' }, locationClasses: KIND_CLASSES.Location },
    ],
    [
      'inLocation (name)',
      { type: 'inLocation', location: { name: name('Floor') }, locationClasses: KIND_CLASSES.Location },
    ],
    [
      'ofEquipment (IRI)',
      { type: 'ofEquipment', equipment: { id: direct('VAV1') }, equipmentClasses: KIND_CLASSES.Equipment },
    ],
    [
      'ofEquipment (local name)',
      { type: 'ofEquipment', equipment: { id: 'VAV1' }, equipmentClasses: KIND_CLASSES.Equipment },
    ],
    ['equipmentClass', { type: 'equipmentClass', classes: AHU }],
    ['ofZone (IRI)', { type: 'ofZone', zone: { id: direct('Z1') }, zoneClasses: KIND_CLASSES.Zone }],
    ['ofZone (local name)', { type: 'ofZone', zone: { id: 'Z1' }, zoneClasses: KIND_CLASSES.Zone }],
    ['inSystem (IRI)', { type: 'inSystem', system: { id: direct('HW') }, systemClasses: KIND_CLASSES.System }],
    ['inSystem (local name)', { type: 'inSystem', system: { id: 'HW' }, systemClasses: KIND_CLASSES.System }],
    ['property (name)', { type: 'property', name: { localName: 'area' } }],
    ['property (value)', { type: 'property', value: '42' }],
    ['property (name and value)', { type: 'property', name: { localName: 'area' }, value: '42' }],
    ['ifcId', { type: 'ifcId', ifcId: '2O2Fr$t4X7Zf8NOew3FLOH' }],
    ['timeseries', { type: 'timeseries', ids: ['ts-1', 'ts-2'] }],
  ];
  const filtersOnly = new Set([
    'id (local name)',
    'name',
    'property (name)',
    'property (value)',
    'property (name and value)',
  ]);

  it('covers every constraint type', () => {
    const types = new Set(constraints.map(([, c]) => c.type));
    const all: Array<Constraint['type']> = [
      'id',
      'name',
      'class',
      'kind',
      'inLocation',
      'ofEquipment',
      'equipmentClass',
      'ofZone',
      'inSystem',
      'property',
      'ifcId',
      'timeseries',
    ];
    expect([...types].sort()).toEqual(all.sort());
  });

  it.each(constraints.filter(([label]) => !filtersOnly.has(label)))(
    '%s alone binds ?e in a confined SELECT',
    (_label, c) => {
      for (const attributes of [NO_ATTRIBUTES, ALL_ATTRIBUTES]) {
        const query = expectConfined(root('Point', [c], attributes));
        expect(projection(query)).toEqual(expect.arrayContaining(['e', 'tag', 't']));
      }
    },
  );

  it.each(constraints.filter(([label]) => filtersOnly.has(label)))(
    '%s alone cannot bind ?e (the kind always comes with it)',
    (_label, c) => {
      expect(() => rootQuery(rootPlan('Point', [c]), NO_ATTRIBUTES)).toThrow(/needs a constraint that binds \?e/);
    },
  );

  it.each(constraints)('%s with the kind is a confined SELECT', (_label, c) => {
    expectConfined(root('Point', [kind('Point'), c], ALL_ATTRIBUTES));
  });

  it.each(['Equipment', 'Zone', 'Point'] as const)('inLocation for %s by IRI, local name or name is confined', (k) => {
    for (const location of [{ id: direct('Floor_1') }, { id: 'Floor_1' }, { name: name('Floor') }]) {
      expectConfined(root(k, [kind(k), { type: 'inLocation', location, locationClasses: KIND_CLASSES.Location }]));
    }
  });

  it.each([
    ['Equipment', `^${LOCATED}`],
    ['Zone', `${PART_EITHER}`],
    ['Point', `(${POINT}|^${LOCATED}|(^${LOCATED}/${POINT}))`],
  ] as const)('inLocation for %s anchors on the location and reads everything under it', (k, link) => {
    const query = parseSelect(
      root(k, [
        kind(k),
        { type: 'inLocation', location: { id: direct('Floor_1') }, locationClasses: KIND_CLASSES.Location },
      ]),
    );
    sameMeaning(
      siteGraphPatterns(query).slice(0, 2),
      `VALUES ?c1_a { <${direct('Floor_1')}> } ?c1_a ${PART}*/${link} ?e .`,
    );
  });

  it.each(['Equipment', 'Point'] as const)('inSystem for %s is confined', (k) => {
    expectConfined(root(k, [kind(k), { type: 'inSystem', system: { id: 'HW' }, systemClasses: KIND_CLASSES.System }]));
  });

  it('combines every constraint in one confined SELECT, each beyond the generator as a check', () => {
    const all = constraints.map(([, c]) => c).filter((c) => !(c.type === 'id' && c.id.includes('/')));
    const query = expectConfined(root('Point', all, ALL_ATTRIBUTES));
    const literals = filterLiterals(query);
    for (const expected of [
      '#T1',
      '/T1',
      'temp',
      'Floor',
      '#Floor_1',
      '#VAV1',
      '#Z1',
      '#HW',
      'area',
      '42',
      '2O2Fr$t4X7Zf8NOew3FLOH',
    ]) {
      expect(literals).toContain(expected);
    }
  });

  it('runs every constraint of a building, zone, system and entity-by-IFC query through the same checks', () => {
    expectConfined(
      root('Building', [kind('Building'), { type: 'id', id: 'B1' }, { type: 'name', name: name('Main', 'EXACT') }]),
    );
    expectConfined(root('Zone', [kind('Zone'), { type: 'property', name: { localName: 'area' }, value: '1' }]));
    expectConfined(
      root('System', [
        kind('System'),
        { type: 'class', classes: { iri: `${BRICK}System`, closure: [`${BRICK}System`] } },
      ]),
    );
    expectConfined(root(undefined, [{ type: 'ifcId', ifcId: 'abc' }]));
  });

  describe('ids', () => {
    it('binds a direct IRI id with VALUES, first, and tests no local names', () => {
      const query = expectConfined(root('Point', [kind('Point'), { type: 'id', id: direct('T1') }]));
      const patterns = siteGraphPatterns(query);
      sameMeaning(patterns.slice(0, 1), `VALUES ?e { <${direct('T1')}> }`);
      const strends = contentsOf(patterns).filters.filter((f) => usesOperator(f.expression, 'strends'));
      expect(strends).toEqual([]);
      // The kind is checked on the results, not as a class scan.
      expect(valuesFor(query, 'c0_k')).toEqual([]);
    });

    it('matches a local-name id with STRENDS on # and /, generated from the kind', () => {
      const query = expectConfined(root('Point', [kind('Point'), { type: 'id', id: 'T1' }]));
      const patterns = siteGraphPatterns(query);
      expect(valuesFor(query, 'e')).toEqual([]);
      const filters = contentsOf(patterns).filters.map((f) => f.expression);
      const [expected] = parsePatterns('FILTER(STRENDS(STR(?e), "#T1") || STRENDS(STR(?e), "/T1"))') as Array<{
        expression: Expression;
      }>;
      expect(filters).toContainEqual(expected!.expression);
      expect(valuesFor(query, 'c0_k')).toEqual([KIND_CLASSES.Point]);
    });

    it('tests an IRI with no # or / both as an IRI and as a local name', () => {
      const query = parseSelect(root('Point', [kind('Point'), { type: 'id', id: 'urn:T1' }]));
      const [expected] = parsePatterns(
        'FILTER(?e = <urn:T1> || STRENDS(STR(?e), "#urn:T1") || STRENDS(STR(?e), "/urn:T1"))',
      ) as Array<{ expression: Expression }>;
      expect(contentsOf(query.where ?? []).filters.map((f) => f.expression)).toContainEqual(expected!.expression);
    });

    it('matches a suffix id (entities that share a local name) with STRENDS after #, / and :', () => {
      const query = parseSelect(root('Point', [kind('Point'), { type: 'id', id: 'b1/T1' }]));
      const [expected] = parsePatterns(
        'FILTER(STRENDS(STR(?e), "#b1/T1") || STRENDS(STR(?e), "/b1/T1") || STRENDS(STR(?e), ":b1/T1"))',
      ) as Array<{ expression: Expression }>;
      expect(contentsOf(query.where ?? []).filters.map((f) => f.expression)).toContainEqual(expected!.expression);
    });

    it('binds an id of a shared local name to the entities the site ids list for it', () => {
      const [b1, b3] = ['https://example.org/b1/T1', 'https://example.org/b3/T1'];
      const ids = new SiteIds(new Map([['T1', new Set([b1, b3])]]));
      const values = (c: Constraint, variable: string) =>
        valuesFor(
          expectConfined(rootQuery(rootPlan('Point', [kind('Point'), c]), NO_ATTRIBUTES, undefined, ids)!),
          variable,
        );
      expect(values({ type: 'id', id: 'b3/T1' }, 'e')).toEqual([[b3]]);
      expect(values({ type: 'id', id: 'T1' }, 'e')).toEqual([[b1, b3]]);
      expect(
        values({ type: 'ofEquipment', equipment: { id: 'b1/T1' }, equipmentClasses: KIND_CLASSES.Equipment }, 'c1_a'),
      ).toEqual([[b1]]);
    });

    it('anchors a reference given as an IRI with VALUES on the anchor', () => {
      const query = expectConfined(
        root('Point', [
          kind('Point'),
          { type: 'ofEquipment', equipment: { id: direct('VAV1') }, equipmentClasses: KIND_CLASSES.Equipment },
        ]),
      );
      sameMeaning(siteGraphPatterns(query).slice(0, 2), `VALUES ?c1_a { <${direct('VAV1')}> } ?c1_a ${POINT} ?e .`);
    });

    it('finds a reference given as a local name among the instances of its kind (without a site profile)', () => {
      const query = expectConfined(
        root('Point', [
          kind('Point'),
          { type: 'ofEquipment', equipment: { id: 'VAV1' }, equipmentClasses: KIND_CLASSES.Equipment },
        ]),
      );
      sameMeaning(
        siteGraphPatterns(query).slice(0, 4),
        `VALUES ?c1_k { ${KIND_CLASSES.Equipment.map((c) => `<${c}>`).join(' ')} } ?c1_a a ?c1_k .
         FILTER(STRENDS(STR(?c1_a), "#VAV1") || STRENDS(STR(?c1_a), "/VAV1")) ?c1_a ${POINT} ?e .`,
      );
    });

    it('prefers the most selective generator: a direct id over references, classes and kinds', () => {
      const query = parseSelect(
        root('Point', [
          kind('Point'),
          { type: 'equipmentClass', classes: AHU },
          { type: 'ofZone', zone: { id: 'Z1' }, zoneClasses: KIND_CLASSES.Zone },
          { type: 'id', id: direct('T1') },
        ]),
      );
      // The other two are joins walking out from the bound ?e (an EXISTS holding a path and a test
      // was planned from its far end), so the candidates are made distinct before their facts.
      const [candidates] = siteGraphPatterns(query) as [GroupPattern];
      const subquery = candidates.patterns[0] as SelectQuery;
      expect(subquery).toMatchObject({ queryType: 'SELECT', distinct: true, variables: [{ value: 'e' }] });
      const patterns = subquery.where!;
      sameMeaning(patterns.slice(0, 1), `VALUES ?e { <${direct('T1')}> }`);
      expect(patterns.filter((p) => p.type === 'filter' && usesOperator(p.expression, 'exists'))).toHaveLength(0);
      // Each walks a path from ?e to its anchor: the equipment's owner (c1_a), the zone (c2_a).
      const fromE = contentsOf(patterns)
        .triples.filter(
          ({ triple }) => 'value' in triple.subject && triple.subject.value === 'e' && 'items' in triple.predicate,
        )
        .map(({ triple }) => triple.object.value);
      expect(fromE).toEqual(['c1_a', 'c2_a']);
    });

    it.each([
      ['id, a suffix no IRI can end with', { type: 'id', id: 'floors/F 1' }],
      ['id, empty', { type: 'id', id: '' }],
      ['id, an IRI with a space', { type: 'id', id: 'http://example.org/a b' }],
      ['locationId', { type: 'inLocation', location: { id: 'floors/F 1' }, locationClasses: KIND_CLASSES.Location }],
      [
        'equipmentId',
        { type: 'ofEquipment', equipment: { id: 'ahus/AHU"1' }, equipmentClasses: KIND_CLASSES.Equipment },
      ],
      ['zoneId', { type: 'ofZone', zone: { id: 'zones#Z#1' }, zoneClasses: KIND_CLASSES.Zone }],
      ['systemId', { type: 'inSystem', system: { id: 'a/b<c' }, systemClasses: KIND_CLASSES.System }],
    ] satisfies Array<[string, Constraint]>)('is undefined for an impossible %s', (_label, c) => {
      expect(rootQuery(rootPlan('Point', [kind('Point'), c]), NO_ATTRIBUTES)).toBeUndefined();
      expect(
        rootQuery(rootPlan('Point', [kind('Point'), { type: 'name', name: name('x') }, c]), NO_ATTRIBUTES),
      ).toBeUndefined();
    });
  });

  describe('user strings', () => {
    const hostileCases: Array<[string, Constraint, string[]]> = [
      ['name', { type: 'name', name: name(HOSTILE) }, [HOSTILE]],
      ['name, exact', { type: 'name', name: name(HOSTILE, 'EXACT') }, [HOSTILE]],
      [
        'locationName',
        { type: 'inLocation', location: { name: name(HOSTILE) }, locationClasses: KIND_CLASSES.Location },
        [HOSTILE],
      ],
      ['hasProperty', { type: 'property', name: { localName: HOSTILE } }, [HOSTILE]],
      ['propertyValue', { type: 'property', value: HOSTILE }, [HOSTILE]],
      ['ifcId', { type: 'ifcId', ifcId: HOSTILE }, [HOSTILE]],
    ];

    it.each(hostileCases)('a hostile %s appears only as the exact literal in a FILTER', (_label, c, expected) => {
      const query = expectConfined(root('Point', [kind('Point'), c], ALL_ATTRIBUTES));
      const literals = filterLiterals(query);
      for (const value of expected) expect(literals).toContain(value);
    });

    it('a hostile local-name id (no # or /) appears only inside STRENDS literals', () => {
      const id = 'x" } ; DROP GRAPH <a> ; ';
      for (const c of [
        { type: 'id', id },
        { type: 'ofEquipment', equipment: { id }, equipmentClasses: KIND_CLASSES.Equipment },
        { type: 'ofZone', zone: { id }, zoneClasses: KIND_CLASSES.Zone },
        { type: 'inSystem', system: { id }, systemClasses: KIND_CLASSES.System },
        { type: 'inLocation', location: { id }, locationClasses: KIND_CLASSES.Location },
      ] satisfies Constraint[]) {
        const query = expectConfined(root('Point', [kind('Point'), c]));
        expect(filterLiterals(query)).toEqual(expect.arrayContaining([`#${id}`, `/${id}`]));
      }
    });

    it('a hostile id with # cannot be a local name or an IRI, so nothing is queried', () => {
      expect(rootQuery(rootPlan('Point', [kind('Point'), { type: 'id', id: HOSTILE }]), NO_ATTRIBUTES)).toBeUndefined();
    });

    it.each([
      ['quotes, backslashes and line breaks', 'a"b\\c\nd\re\tf'],
      ['a codepoint escape written out', 'x\\u0022 } ; DROP GRAPH <a> ; '],
      ['a trailing backslash', 'x\\'],
    ])('escapes %s in literals', (_label, value) => {
      const query = expectConfined(root('Point', [kind('Point'), { type: 'name', name: name(value, 'EXACT') }]));
      expect(filterLiterals(query)).toContain(value);
    });
  });
});
