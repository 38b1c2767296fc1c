/**
 * What the service made of a model (the load report): the Brick version it looks like,
 * the classes read from older Brick names or declared by the site, the classes nobody declares (with
 * the closest Brick names), the entities without a class, and the relations no field reads. Pure:
 * it takes counts the store computed (src/query/graph-statistics.ts) and the ontology as the site reads it.
 */
import type { Ontology } from './ontology.ts';
import { RELATIONSHIP_PREDICATES } from '../rdf/relationships.ts';
import { BRICK, RDF, RDFS, REC, REF, localName } from './prefixes.ts';

/** Counts of a site graph, computed by the store. */
export interface ModelFacts {
  /** Entities with at least one class. */
  readonly typed: number;
  /** Entities per asserted class. */
  readonly classes: ReadonlyMap<string, number>;
  /** Triples per predicate whose object is an IRI or a blank node (literal-valued ones are properties). */
  readonly links: ReadonlyMap<string, number>;
  /**
   * Entities without a class that their links place in a kind (the kind fallback of
   * docs/brick-mapping.md, "Kinds add up"), listed up to 1,000 per kind; a few of them.
   */
  readonly untyped: { readonly count: number; readonly examples: readonly string[] };
}

export interface ClassLine {
  readonly class: string;
  readonly entities: number;
}

export interface ModelReading {
  /** The Brick version the model looks like, and why. */
  readonly brickVersion: { readonly looksLike: string; readonly evidence: readonly string[] };
  /** Entities typed with a class, and without one (placed by their links where they can be). */
  readonly entities: { readonly typed: number; readonly untyped: number; readonly untypedExamples: readonly string[] };
  /** Classes of older Brick versions, read as the Brick 1.4 class they were renamed to. */
  readonly renamedClasses: ReadonlyArray<ClassLine & { readonly readAs: string }>;
  /** Classes Brick 1.4 deprecated, read as their replacement (their own superclasses are not used). */
  readonly deprecatedClasses: ReadonlyArray<ClassLine & { readonly readAs: string }>;
  /** Classes the site declares, with their superclasses. */
  readonly siteClasses: ReadonlyArray<ClassLine & { readonly superclasses: readonly string[] }>;
  /** Classes neither Brick nor the site declares (W3C vocabularies' and Brick's reference classes aside): not matched by any class filter; their entities are placed by their links. */
  readonly unknownClasses: ReadonlyArray<ClassLine & { readonly suggestions: readonly string[] }>;
  /** Relationships between entities that no field of the API reads, with how many triples state them. */
  readonly ignoredRelations: ReadonlyArray<{
    readonly predicate: string;
    readonly triples: number;
    readonly note?: string;
  }>;
}

/** Predicates some field, filter or fact reads when their object is a resource. */
export const READ_LINKS = new Set<string>([
  `${RDF}type`,
  `${RDFS}subClassOf`,
  ...RELATIONSHIP_PREDICATES,
  ...['hasUnit', 'hasUnits', 'hasOutputSubstance', 'timeseries', 'value'].map((p) => BRICK + p),
  ...['hasExternalReference', 'hasTimeseriesReference'].map((p) => REF + p),
]);

const BRICK_FRAME = /^https?:\/\/brickschema\.org\/schema\/(\d+(?:\.\d+)+)\/BrickFrame#(.+)$/;
const VERSIONED = /^https?:\/\/brickschema\.org\/schema\/(\d+(?:\.\d+)+)\/Brick#/;

const byCount = <T extends { entities?: number; triples?: number; class?: string; predicate?: string }>(a: T, b: T) =>
  (b.entities ?? b.triples ?? 0) - (a.entities ?? a.triples ?? 0) ||
  String(a.class ?? a.predicate).localeCompare(String(b.class ?? b.predicate));

/** Reads a model's counts against the ontology as the site reads it (`Ontology.forSite`). */
export function readModel(facts: ModelFacts, site: Ontology): ModelReading {
  const renamed: Array<ClassLine & { readAs: string }> = [];
  const deprecated: Array<ClassLine & { readAs: string }> = [];
  const declared: Array<ClassLine & { superclasses: string[] }> = [];
  const unknown: Array<ClassLine & { suggestions: string[] }> = [];
  const versions = new Set<string>();
  const evidence: string[] = [];
  for (const [cls, entities] of facts.classes) {
    const version = VERSIONED.exec(cls)?.[1];
    if (version) versions.add(version);
    if (site.siteClasses.renamed.has(cls)) renamed.push({ class: cls, entities, readAs: site.meaningOf(cls) });
    else if (site.siteClasses.declared.has(cls))
      declared.push({ class: cls, entities, superclasses: site.superclassesOf(cls) });
    else if (site.isKnownClass(cls)) {
      if (site.meaningOf(cls) !== cls) deprecated.push({ class: cls, entities, readAs: site.meaningOf(cls) });
    } else if (!cls.startsWith('http://www.w3.org/') && !cls.startsWith(REF))
      unknown.push({ class: cls, entities, suggestions: site.suggest(localName(cls)) });
  }
  const ignored: Array<{ predicate: string; triples: number; note?: string }> = [];
  const renames = site.relationRenames();
  for (const [predicate, triples] of facts.links) {
    if (READ_LINKS.has(predicate)) continue;
    const frame = BRICK_FRAME.exec(predicate);
    if (frame) versions.add(frame[1]!);
    const renamedTo = frame ? (renames[frame[1]!]?.[frame[2]!] ?? frame[2]!) : undefined;
    const note =
      renamedTo && READ_LINKS.has(BRICK + renamedTo)
        ? `Brick ${frame![1]}'s ${frame![2]}: write it as brick:${renamedTo} to have it read`
        : undefined;
    ignored.push({ predicate, triples, ...(note ? { note } : {}) });
  }
  // The version: what the namespaces say, else the class names' vintage. Brick 1.4 deprecates its
  // location classes for RealEstateCore's (brick:Building → rec:Building) while still using them:
  // only a rename within Brick dates a model.
  const renamedWithinBrick = deprecated.filter((line) => line.readAs.startsWith(BRICK)).sort(byCount);
  let looksLike: string;
  if (versions.size > 0) {
    const sorted = [...versions].sort();
    looksLike = sorted.join(', ');
    evidence.push(`versioned Brick namespaces: ${sorted.join(', ')}`);
  } else if (renamed.length > 0) {
    looksLike = '1.0';
    evidence.push(
      `${renamed.length} class name${renamed.length === 1 ? '' : 's'} of Brick 1.0, renamed in 1.1 (e.g. ${localName(renamed[0]!.class)})`,
    );
  } else if (renamedWithinBrick.length > 0) {
    looksLike = '1.1–1.3';
    evidence.push(
      `${renamedWithinBrick.length} class${renamedWithinBrick.length === 1 ? '' : 'es'} Brick 1.4 renamed (e.g. ${localName(renamedWithinBrick[0]!.class)})`,
    );
  } else {
    looksLike = '1.4';
    evidence.push('every Brick class it uses is current in Brick 1.4');
  }
  if ([...facts.classes.keys()].some((c) => c.startsWith(REC)))
    evidence.push('RealEstateCore classes (rec:), which Brick 1.4 adopts');
  return {
    brickVersion: { looksLike, evidence },
    entities: { typed: facts.typed, untyped: facts.untyped.count, untypedExamples: facts.untyped.examples },
    renamedClasses: renamed.sort(byCount),
    deprecatedClasses: deprecated.sort(byCount),
    siteClasses: declared.sort(byCount),
    unknownClasses: unknown.sort(byCount),
    ignoredRelations: ignored.sort(byCount),
  };
}
