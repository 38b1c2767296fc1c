/**
 * Derives ontology/brick-hierarchy.ttl from a full Brick.ttl: the classes, their subclass, equivalence and
 * replacement links, the substances with skos:broader, and the inverse object properties. Also derives
 * ontology/brick-shapes.ttl: the SHACL shapes the model validator checks (scripts/lib/brick-shapes.ts), and
 * ontology/brick-1.0-renames.json: the class and relation renames of Brick 1.0.x → 1.1, from Brick's own
 * conversion tables in a `brick-1.0-conversions/` folder beside Brick.ttl (scripts/lib/brick-renames.ts).
 *
 * Usage: npm run build:ontology [-- path/to/Brick.ttl]   (default: the maintainers' copy outside the
 * checkout; ontology/README.md, "How it was produced")
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compareCodeUnits } from '../src/ontology/compare-code-units.ts';
import { BRICK, OWL, RDF, RDFS, REC, SKOS } from '../src/ontology/prefixes.ts';
import type { IriPair, OntologyHierarchy, QuadLike } from '../src/ontology/hierarchy-extractor.ts';
import { readHierarchy } from '../src/ontology/read-hierarchy.ts';
import N3 from 'n3';
import { SH, selectBrickShapes } from './lib/brick-shapes.ts';
import { readBrickRenames } from './lib/brick-renames.ts';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const DEFAULT_SOURCE = resolve(REPO_ROOT, '../shared/ontology/Brick.ttl');
const OUTPUT_DIR = join(REPO_ROOT, 'ontology');
const OUTPUT = join(OUTPUT_DIR, 'brick-hierarchy.ttl');
const SHAPES_OUTPUT = join(OUTPUT_DIR, 'brick-shapes.ttl');
const RENAMES_OUTPUT = join(OUTPUT_DIR, 'brick-1.0-renames.json');
// Brick's 1.0.x → 1.1 conversion tables, in a folder beside the source Brick.ttl (ontology/README.md,
// "`brick-1.0-renames.json`").
const CONVERSIONS_DIR = 'brick-1.0-conversions';
const LICENCE_NAME = 'LICENSE-Brick.txt';

// Every namespace a class of Brick 1.4 lives in; an IRI outside them is written in full.
const OUTPUT_PREFIXES: readonly (readonly [string, string])[] = [
  ['brick', BRICK],
  ['owl', OWL],
  ['qudt', 'http://qudt.org/schema/qudt/'],
  ['rdf', RDF],
  ['rdfs', RDFS],
  ['rec', REC],
  ['skos', SKOS],
  ['sosa', 'http://www.w3.org/ns/sosa/'],
];

// A local part N3.js and every Turtle parser read back unchanged, without backslash escapes.
const SAFE_LOCAL = /^[_a-zA-Z0-9](?:\.?[-_a-zA-Z0-9])*$/;
// Characters IRIREF forbids; Brick's IRIs never contain them, so meeting one is a bug worth stopping for.
const UNSAFE_IRI = /[\u0000-\u0020<>"{}|^`\\]/;

function term(iri: string): string {
  for (const [prefix, namespace] of OUTPUT_PREFIXES) {
    if (iri.startsWith(namespace) && SAFE_LOCAL.test(iri.slice(namespace.length))) {
      return `${prefix}:${iri.slice(namespace.length)}`;
    }
  }
  if (UNSAFE_IRI.test(iri)) throw new Error(`Cannot write IRI ${JSON.stringify(iri)} in Turtle`);
  return `<${iri}>`;
}

/** One subject with its predicates in the order given and objects sorted. */
function statement(subject: string, predicates: readonly (readonly [string, readonly string[]])[]): string {
  const lines = predicates
    .filter(([, objects]) => objects.length > 0)
    .map(([predicate, objects]) => `${predicate} ${[...objects].sort(compareCodeUnits).map(term).join(', ')}`);
  return `${term(subject)} ${lines.join(' ;\n    ')} .\n`;
}

function objectsBySubject(pairs: readonly IriPair[]): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const [s, o] of pairs) {
    const list = map.get(s);
    if (list) list.push(o);
    else map.set(s, [o]);
  }
  return map;
}

function serialize(hierarchy: OntologyHierarchy, header: string): string {
  const sub = objectsBySubject(hierarchy.subClassOf);
  const equivalent = objectsBySubject(hierarchy.equivalentClass);
  const replaced = objectsBySubject(hierarchy.isReplacedBy);
  const broader = objectsBySubject(hierarchy.broader);
  const inverse = objectsBySubject(hierarchy.inverseOf);
  const properties = [...new Set([...hierarchy.objectProperties, ...inverse.keys()])].sort(compareCodeUnits);
  const out: string[] = [header, ''];
  for (const [prefix, namespace] of OUTPUT_PREFIXES) out.push(`@prefix ${prefix}: <${namespace}> .`);
  out.push('', '# Classes', '');
  for (const c of hierarchy.classes) {
    out.push(
      statement(c, [
        ['a', [`${OWL}Class`]],
        ['rdfs:subClassOf', sub.get(c) ?? []],
        ['owl:equivalentClass', equivalent.get(c) ?? []],
        ['brick:isReplacedBy', replaced.get(c) ?? []],
      ]),
    );
  }
  out.push('# Substances (brick:Substance individuals)', '');
  for (const s of hierarchy.substances) {
    out.push(
      statement(s, [
        ['a', [`${BRICK}Substance`]],
        ['skos:broader', broader.get(s) ?? []],
      ]),
    );
  }
  out.push('# Object properties', '');
  for (const p of properties) {
    const declared = hierarchy.objectProperties.has(p) ? [`${OWL}ObjectProperty`] : [];
    out.push(
      statement(p, [
        ['a', declared],
        ['owl:inverseOf', inverse.get(p) ?? []],
      ]),
    );
  }
  return out.join('\n');
}

/** The shapes as Turtle, blank nodes renumbered in order of appearance so the output only changes with the source. */
function serializeShapes(quads: readonly N3.Quad[], header: string): Promise<string> {
  const labels = new Map<string, N3.BlankNode>();
  const relabel = <T extends N3.Term>(t: T): T | N3.BlankNode => {
    if (t.termType !== 'BlankNode') return t;
    let label = labels.get(t.value);
    if (!label) labels.set(t.value, (label = N3.DataFactory.blankNode(`s${labels.size}`)));
    return label;
  };
  const prefixes = Object.fromEntries([
    ...OUTPUT_PREFIXES,
    ['sh', SH],
    ['bsh', 'https://brickschema.org/schema/BrickShape#'],
    ['xsd', 'http://www.w3.org/2001/XMLSchema#'],
    ['ref', 'https://brickschema.org/schema/Brick/ref#'],
  ]);
  const writer = new N3.Writer({ prefixes });
  for (const q of quads)
    writer.addQuad(
      N3.DataFactory.quad(relabel(q.subject) as N3.Quad_Subject, q.predicate, relabel(q.object) as N3.Quad_Object),
    );
  return new Promise((resolve, reject) =>
    writer.end((error, result) => (error ? reject(error) : resolve(`${header}\n\n${result}`))),
  );
}

/** JSON with each innermost entry on a line of its own (`"Old_Name": ["New_Name"]`): small, and diffs read well. */
function jsonOneEntryPerLine(value: unknown, indent = ''): string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return JSON.stringify(value);
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length === 0) return '{}';
  const inner = `${indent}  `;
  return `{\n${entries.map(([key, v]) => `${inner}${JSON.stringify(key)}: ${jsonOneEntryPerLine(v, inner)}`).join(',\n')}\n${indent}}${indent ? '' : '\n'}`;
}

function commented(text: string): string {
  return text
    .trimEnd()
    .split('\n')
    .map((line) => (line ? `# ${line}` : '#'))
    .join('\n');
}

function tripleCount(h: OntologyHierarchy): number {
  return (
    h.classes.size +
    h.subClassOf.length +
    h.equivalentClass.length +
    h.isReplacedBy.length +
    h.substances.size +
    h.broader.length +
    h.inverseOf.length +
    h.objectProperties.size
  );
}

function sameHierarchy(a: OntologyHierarchy, b: OntologyHierarchy): boolean {
  const key = (h: OntologyHierarchy): string =>
    JSON.stringify(Object.entries(h).map(([name, value]) => [name, [...(value as Iterable<unknown>)]]));
  return key(a) === key(b);
}

async function main(): Promise<void> {
  const source = resolve(process.argv[2] ?? DEFAULT_SOURCE);
  if (!existsSync(source)) throw new Error(`No Brick.ttl at ${source} (pass its path as the first argument)`);
  const licenceSource = [join(dirname(source), LICENCE_NAME), join(OUTPUT_DIR, LICENCE_NAME)].find(existsSync);
  if (!licenceSource) throw new Error(`No ${LICENCE_NAME} beside ${source} or in ontology/`);

  // The version and ontology IRI only name the source in the header; they are not part of the hierarchy.
  const ontologies = new Set<string>();
  const versions = new Map<string, string>();
  const everything = new N3.Store();
  const watchHeader = (quad: QuadLike): void => {
    everything.add(quad as N3.Quad);
    const { subject, predicate, object } = quad;
    if (predicate.value === `${RDF}type` && object.value === `${OWL}Ontology`) ontologies.add(subject.value);
    else if (predicate.value === `${OWL}versionInfo`) versions.set(subject.value, object.value);
  };
  process.stderr.write(`build-ontology: reading ${source}\n`);
  const { hierarchy, triples } = await readHierarchy(source, {
    onQuad: watchHeader,
    onProgress: (n) => process.stderr.write(`build-ontology: ${n.toLocaleString('en')} triples parsed\n`),
  });
  process.stderr.write(`build-ontology: ${triples.toLocaleString('en')} triples parsed, done\n`);
  const ontologyIri = [...ontologies].find((iri) => versions.has(iri));
  const version = ontologyIri ? `Brick ${versions.get(ontologyIri)} (${ontologyIri})` : 'Brick (version not stated)';
  const sha256 = createHash('sha256')
    .update(await readFile(source))
    .digest('hex');
  const licence = await readFile(licenceSource, 'utf8');

  const sourceLines = [
    `# Source: ${version}, file Brick.ttl, sha256 ${sha256}.`,
    '# Provenance and the reasons for this subset: ontology/README.md.',
    '# Generated by `npm run build:ontology` (scripts/build-ontology.ts). Do not edit by hand.',
    '#',
    '# Brick is distributed under the BSD 3-Clause licence; this derived file keeps its notice',
    `# (also in ${LICENCE_NAME}):`,
    '#',
    commented(licence),
  ];
  const header = [
    '# The part of the Brick ontology this service needs: every brick:/rec: class with its rdfs:subClassOf,',
    '# owl:equivalentClass and brick:isReplacedBy links between named classes, every brick:Substance with',
    '# skos:broader (skos:narrower folded in), and owl:inverseOf between brick: object properties.',
    '#',
    ...sourceLines,
  ].join('\n');
  const text = serialize(hierarchy, header);
  await writeFile(OUTPUT, text);
  // Written, not copied: a copy would keep a read-only source's mode and fail the next build.
  await writeFile(join(OUTPUT_DIR, LICENCE_NAME), licence);

  // Reading the output back must give the same hierarchy, or the service would see a different ontology.
  const { hierarchy: reread } = await readHierarchy(OUTPUT);
  if (!sameHierarchy(hierarchy, reread)) {
    throw new Error(`${OUTPUT} does not read back as the hierarchy it was built from`);
  }
  const shapes = selectBrickShapes(everything);
  const shapesHeader = [
    '# The SHACL shapes of Brick that the model validator checks (SHACL Core): shapes with a target, their',
    '# constraints, property shapes, lists and paths. Left out: SHACL-AF rules, SHACL-SPARQL constraints and',
    '# targets, shapes that only name a path, labels and definitions. Classes that are shapes get an explicit',
    '# sh:targetClass.',
    '#',
    ...sourceLines,
  ].join('\n');
  const shapesText = await serializeShapes(shapes, shapesHeader);
  await writeFile(SHAPES_OUTPUT, shapesText);
  process.stderr.write(
    `build-ontology: wrote ${relative(process.cwd(), SHAPES_OUTPUT)}: ${shapes.length.toLocaleString('en')} triples, ` +
      `${Buffer.byteLength(shapesText).toLocaleString('en')} bytes\n`,
  );
  const conversions = join(dirname(source), CONVERSIONS_DIR);
  if (existsSync(conversions)) {
    const renames = await readBrickRenames(conversions);
    const document = {
      about:
        "Brick 1.0.2 and 1.0.3 class and relation names that Brick 1.1 renamed, by local name; read by src/ontology/brick-renames.ts. Generated by `npm run build:ontology` (scripts/build-ontology.ts) from Brick's conversion tables (BrickSchema/Brick, tools/convert/conversions, commit e2ffd2b4f5ecda5b8f49c7a4788ffe32772a91ab). Do not edit by hand.",
      licence: `BSD 3-Clause, Copyright (c) 2016-2023, Brick Consortium, Inc.; the full notice is in ${LICENCE_NAME} beside this file.`,
      ...renames,
    };
    await writeFile(RENAMES_OUTPUT, jsonOneEntryPerLine(document));
    const count = Object.values(renames.classes).reduce((sum, table) => sum + Object.keys(table).length, 0);
    process.stderr.write(`build-ontology: wrote ${relative(process.cwd(), RENAMES_OUTPUT)}: ${count} class renames\n`);
  } else {
    process.stderr.write(
      `build-ontology: no ${CONVERSIONS_DIR}/ beside ${source}: ${relative(process.cwd(), RENAMES_OUTPUT)} left as it is\n`,
    );
  }
  process.stderr.write(
    `build-ontology: wrote ${relative(process.cwd(), OUTPUT)}: ${tripleCount(hierarchy).toLocaleString('en')} triples ` +
      `(${hierarchy.classes.size} classes, ${hierarchy.substances.size} substances, ` +
      `${hierarchy.inverseOf.length} inverse links), ${Buffer.byteLength(text).toLocaleString('en')} bytes\n`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(`build-ontology: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
