import { BrickRenames } from './brick-renames.ts';
import { ClassGraph } from './class-graph.ts';
import { suggestClassNames } from './class-suggestions.ts';
import { computeKindClasses, ENTITY_KINDS, HIERARCHY_KIND, KIND_ROOTS, type EntityKind } from './entity-kind.ts';
import { extractHierarchy, type IriPair, type OntologyHierarchy, type QuadLike } from './hierarchy-extractor.ts';
import { MEDIUM_VALUES, resolveMedium, type Medium } from './medium.ts';
import { mostSpecificClass } from './most-specific-class.ts';
import { OUTPUT_SUBSTANCE_DEFAULTS } from './output-substance-defaults.ts';
import { OutputSubstanceResolver } from './output-substance-resolver.ts';
import { BRICK, OWL, RDF, RDFS, REC, expandPrefixedName, localName } from './prefixes.ts';
import { readHierarchy } from './read-hierarchy.ts';
import { partitionReplacements, type IgnoredReplacement } from './replacement-links.ts';
import { SubstanceHierarchy } from './substance-hierarchy.ts';
import { typeHierarchy } from './type-hierarchy.ts';

export type { EntityKind } from './entity-kind.ts';
export type { Medium } from './medium.ts';
export type { IgnoredReplacement } from './replacement-links.ts';
export { localName } from './prefixes.ts';

/** Class sets remembered per question before the memo starts over (a bound, not a tuning). */
const CLASS_SET_MEMO_MAX = 10_000;
/** Site ontologies remembered before the memo starts over. */
const SITE_MEMO_MAX = 256;

/** What a site's own graph says of classes: the classes its entities are typed with, and its subclass declarations. */
export interface SiteClassStatements {
  readonly types: readonly string[];
  /** [subclass, superclass] */
  readonly subClassOf: readonly IriPair[];
}

/** How a site's classes outside Brick 1.4 are read: mapped from an older Brick name, or declared by the site. */
export interface SiteClassReading {
  /** Classes of older Brick vintages, each with the Brick 1.4 class it is read as. */
  readonly renamed: ReadonlyMap<string, string>;
  /** Classes the site declares (rdfs:subClassOf in its own graph). */
  readonly declared: ReadonlySet<string>;
}

const NO_READING: SiteClassReading = { renamed: new Map(), declared: new Set() };

// RDF and OWL's own classes (owl:NamedIndividual, rdfs:Resource) say nothing about what an entity is.
const isSchemaClass = (iri: string) => iri.startsWith(OWL) || iri.startsWith(RDFS) || iri.startsWith(RDF);
// Brick's and REC's own classes are theirs to define: a site's graph does not redefine them.
const isBrickOrRec = (iri: string) =>
  iri.startsWith(BRICK) || iri.startsWith(REC) || /^https?:\/\/brickschema\.org\//.test(iri);

/**
 * What the service knows of Brick: class matching, entity kinds, type names and media. Built once from
 * the derived ontology/brick-hierarchy.ttl or a full Brick.ttl (the same rules read both), then only read.
 */
export class Ontology {
  /** The values the `medium` argument accepts. */
  readonly mediumValues: readonly Medium[] = MEDIUM_VALUES;
  /** Brick replacement links class matching leaves out, and why (see replacement-links.ts). */
  readonly ignoredReplacements: readonly IgnoredReplacement[];
  private readonly graph: ClassGraph;
  private readonly substances: SubstanceHierarchy;
  private readonly kinds: ReadonlyMap<EntityKind, ReadonlySet<string>>;
  private readonly outputSubstances: OutputSubstanceResolver;
  private readonly inverses = new Map<string, string>();
  // Sorted lists go into most queries' SPARQL; sorting a kind's ~1,000 classes per request cost a
  // quarter of a millisecond (bench/results-*.md).
  private readonly sortedKinds = new Map<EntityKind, readonly string[]>();
  private readonly sortedClosures = new Map<string, readonly string[]>();
  // Answers that depend only on an entity's asserted classes, by those classes: a site's entities
  // share a few hundred class sets, and a 2,000-entity answer asked each anew (bench/results-*.md).
  private readonly byClassSet = new Map<string, Map<string, unknown>>();
  private readonly sites = new Map<string, Ontology>();
  private readonly byStatements = new WeakMap<SiteClassStatements, Ontology>();
  private readonly unmarked = new Map<EntityKind, readonly string[]>();

  private constructor(
    private readonly hierarchy: OntologyHierarchy,
    private readonly renames: BrickRenames,
    /** The ontology a site's extends (undefined for Brick's own): its classes are marked in the ontology graph. */
    private readonly base?: Ontology,
    /** How this site's classes outside Brick 1.4 were read. */
    readonly siteClasses: SiteClassReading = NO_READING,
  ) {
    const { followed, ignored } = partitionReplacements(hierarchy);
    this.ignoredReplacements = ignored;
    this.graph = new ClassGraph(hierarchy, followed);
    this.substances = new SubstanceHierarchy(hierarchy);
    this.kinds = computeKindClasses(this.graph);
    this.outputSubstances = new OutputSubstanceResolver(this.graph, hierarchy.substances, OUTPUT_SUBSTANCE_DEFAULTS);
    for (const [a, b] of hierarchy.inverseOf) {
      this.inverses.set(a, b);
      this.inverses.set(b, a);
    }
  }

  /** Builds the ontology from RDF/JS-style triples (any graph; only the hierarchy is kept). */
  static fromQuads(quads: Iterable<QuadLike>): Ontology {
    return new Ontology(extractHierarchy(quads), BrickRenames.load());
  }

  /** Reads a Turtle file: the derived brick-hierarchy.ttl or a full Brick.ttl. */
  static async load(path: string): Promise<Ontology> {
    const { hierarchy } = await readHierarchy(path);
    return new Ontology(hierarchy, BrickRenames.load());
  }

  /**
   * This ontology as one site reads it (docs/brick-mapping.md, "How a site's classes are read"): classes
   * of older Brick vintages the site's entities use are read as the Brick 1.4 classes they were renamed
   * to (as deprecated classes, forward only), and subclasses the site declares of its own extend the
   * hierarchy. A site's declarations never change Brick's or REC's own classes. The same ontology when the site adds
   * nothing; memoized by what it adds.
   */
  forSite(statements: SiteClassStatements): Ontology {
    if (this.base) return this.base.forSite(statements);
    // A site's statements are read once per change of its graph (src/query/site-caches.ts) and asked
    // for by every root field: the ontology is made once per reading, not per request.
    let site = this.byStatements.get(statements);
    if (!site) this.byStatements.set(statements, (site = this.readSite(statements)));
    return site;
  }

  private readSite(statements: SiteClassStatements): Ontology {
    const renamed = new Map<string, string>();
    const readAs = (iri: string): string | undefined => {
      if (this.graph.has(iri)) return iri;
      if (!renamed.has(iri)) {
        const target = this.renames.candidates(iri).find((candidate) => this.graph.has(candidate));
        if (target === undefined) return undefined;
        renamed.set(iri, target);
      }
      return iri;
    };
    const declared = new Map<string, string[]>();
    for (const [sub, sup] of statements.subClassOf) {
      if (isBrickOrRec(sub) || this.graph.has(sub) || sub === sup) continue;
      const list = declared.get(sub) ?? [];
      list.push(readAs(sup) ?? sup);
      declared.set(sub, list);
    }
    for (const type of statements.types) readAs(type);
    if (renamed.size === 0 && declared.size === 0) return this;
    const key = JSON.stringify([[...renamed].sort(), [...declared].sort()]);
    let site = this.sites.get(key);
    if (!site) {
      const h = this.hierarchy;
      const classes = new Set([...h.classes, ...renamed.keys(), ...declared.keys(), ...[...declared.values()].flat()]);
      const hierarchy: OntologyHierarchy = {
        ...h,
        classes,
        subClassOf: [
          ...h.subClassOf,
          ...[...declared].flatMap(([sub, sups]) => sups.map((sup): IriPair => [sub, sup])),
        ],
        isReplacedBy: [...h.isReplacedBy, ...[...renamed]],
      };
      site = new Ontology(hierarchy, this.renames, this, { renamed, declared: new Set(declared.keys()) });
      if (this.sites.size >= SITE_MEMO_MAX) this.sites.clear();
      this.sites.set(key, site);
    }
    return site;
  }

  /**
   * The classes of a kind the ontology graph does not mark (`bkg:kind`, ontology-graph.ts): those a
   * site reads from older Brick names or declares itself. Queries that test a kind through the
   * marks list these beside them. Empty for Brick's own ontology.
   */
  unmarkedKindClasses(kind: EntityKind): readonly string[] {
    if (!this.base) return [];
    let list = this.unmarked.get(kind);
    if (!list) {
      const marked = this.base.kindClasses(kind);
      this.unmarked.set(kind, (list = Object.freeze([...this.kindClasses(kind)].filter((c) => !marked.has(c)).sort())));
    }
    return list;
  }

  /** Every class the ontology knows. */
  get classes(): ReadonlySet<string> {
    return this.graph.classes;
  }

  /** Whether the ontology knows the class IRI. */
  isKnownClass(iri: string): boolean {
    return this.graph.has(iri);
  }

  /**
   * The IRI of a class argument: a Brick local name (`AHU`, else the rec: class of that name), a prefixed
   * name (`rec:Room`) or a full IRI. Undefined unless the ontology knows the class.
   */
  resolveClass(name: string): string | undefined {
    if (name === '') return undefined;
    const prefixed = expandPrefixedName(name);
    const candidates = prefixed !== undefined ? [prefixed] : name.includes(':') ? [name] : [BRICK + name, REC + name];
    const known = candidates.find((iri) => this.graph.has(iri));
    if (known !== undefined) return known;
    // A site's own class by its local name, then a Brick 1.0 name (`Zone_Temperature_Sensor`) as the class Brick renamed it to.
    if (prefixed === undefined && !name.includes(':')) {
      const declared = [...this.siteClasses.declared].find((iri) => localName(iri) === name);
      if (declared !== undefined) return declared;
    }
    return candidates.flatMap((iri) => this.renames.candidates(iri)).find((iri) => this.graph.has(iri));
  }

  /** Known class names closest to an unknown one, as users would write them (`Temperature_Sensor`, `rec:Room`). */
  suggest(name: string, max = 3): string[] {
    return suggestClassNames(name, this.graph.classes, max);
  }

  /** The classes a class argument matches: itself, subclasses, equivalents and (most) replacements, memoized. */
  closure(classIri: string): ReadonlySet<string> {
    return this.graph.closure(classIri);
  }

  /** `closure`, sorted (the order SPARQL lists them in), memoized. */
  sortedClosure(classIri: string): readonly string[] {
    let sorted = this.sortedClosures.get(classIri);
    if (!sorted) this.sortedClosures.set(classIri, (sorted = Object.freeze([...this.closure(classIri)].sort())));
    return sorted;
  }

  /** Whether a class means the root of a kind (`brick:Point`, `brick:Location` read as `rec:Architecture`, an equivalent of one). */
  isKindRoot(classIri: string, kind: EntityKind): boolean {
    // The kind's own root, not the other classes it gathers (brick:Collection beside brick:System).
    const root = KIND_ROOTS[kind][0]!;
    return (
      this.graph.canonical(root) === this.graph.canonical(classIri) ||
      (this.graph.closure(root).has(classIri) && this.graph.closure(classIri).has(root))
    );
  }

  /** The class a class means: itself, or the final replacement of a deprecated or renamed one. */
  meaningOf(classIri: string): string {
    return this.graph.canonical(classIri);
  }

  /** A class's direct superclasses, as the classes they mean. */
  superclassesOf(classIri: string): string[] {
    return [...this.graph.superclassesOf(classIri)];
  }

  /** The relations Brick 1.1 renamed, per 1.0 version (`isLocatedIn` → `hasLocation`). */
  relationRenames(): Readonly<Record<string, Readonly<Record<string, string>>>> {
    return this.renames.relations;
  }

  /** The classes whose instances are of this kind. */
  kindClasses(kind: EntityKind): ReadonlySet<string> {
    return this.kinds.get(kind)!;
  }

  /** `kindClasses`, sorted, memoized. */
  sortedKindClasses(kind: EntityKind): readonly string[] {
    let sorted = this.sortedKinds.get(kind);
    if (!sorted) this.sortedKinds.set(kind, (sorted = Object.freeze([...this.kindClasses(kind)].sort())));
    return sorted;
  }

  /** The kinds an entity with these asserted classes has by class (empty when no class is in any kind), memoized. */
  kindsOfTypes(typeIris: Iterable<string>): ReadonlySet<EntityKind> {
    const types = [...typeIris];
    return this.memoByClassSet(
      'kinds',
      types,
      () => new Set(ENTITY_KINDS.filter((kind) => types.some((t) => this.kindClasses(kind).has(t)))),
    );
  }

  /** The most specific asserted class, ties broken by local name then IRI (docs/brick-mapping.md, `type`). */
  mostSpecific(typeIris: Iterable<string>): string | undefined {
    return mostSpecificClass(this.graph, typeIris);
  }

  /**
   * An entity's `type` as an IRI (docs/brick-mapping.md, `type`): the most specific asserted class within the kind,
   * else the most specific other asserted class that is not RDF's or OWL's own; memoized.
   */
  typeWithinKind(typeIris: Iterable<string>, kind: EntityKind): string | undefined {
    const types = [...typeIris];
    return this.memoByClassSet(`type ${kind}`, types, () => {
      // A name of an older Brick vintage is answered as the Brick 1.4 class it stands for.
      const read = [...new Set(types.map((t) => (this.siteClasses.renamed.has(t) ? this.graph.canonical(t) : t)))];
      const kindClasses = this.kindClasses(kind);
      const inKind = read.filter((t) => kindClasses.has(t));
      return this.mostSpecific(inKind.length > 0 ? inKind : read.filter((t) => !isSchemaClass(t)));
    });
  }

  /** The class's local name, then its ancestors within the kind, nearest first, ending with the kind's root. */
  typeHierarchy(classIri: string, kind: EntityKind): string[] {
    const root = HIERARCHY_KIND[kind];
    return typeHierarchy(this.graph, classIri, this.kindClasses(root), KIND_ROOTS[root], root);
  }

  /** The local name of an IRI (after the last `#` or `/`). */
  localName(iri: string): string {
    return localName(iri);
  }

  /** The brick:Substance IRI of a medium value (any case); undefined for an unknown medium. */
  resolveMedium(value: string): string | undefined {
    return resolveMedium(value);
  }

  /** Whether a substance matches a medium's substance: the same, narrower or broader (skos:broader*). */
  substanceMatches(substanceIri: string, mediumIri: string): boolean {
    return this.substances.matches(substanceIri, mediumIri);
  }

  /** Whether the IRI is a brick:Substance individual. */
  isSubstance(iri: string): boolean {
    return this.substances.substances.has(iri);
  }

  /** The substance equipment of these classes outputs by default (the project's table), if any. */
  defaultOutputSubstance(typeIris: Iterable<string>): string | undefined {
    return this.outputSubstances.defaultFor(typeIris);
  }

  private memoByClassSet<T>(question: string, types: readonly string[], answer: () => T): T {
    let answers = this.byClassSet.get(question);
    if (!answers) this.byClassSet.set(question, (answers = new Map()));
    // Most entities have one class: its IRI is the key as it is, with no string built.
    const key = types.length === 1 ? types[0]! : [...types].sort().join(' ');
    if (answers.has(key)) return answers.get(key) as T;
    const value = answer();
    if (answers.size >= CLASS_SET_MEMO_MAX) answers.clear();
    answers.set(key, value);
    return value;
  }

  /** The owl:inverseOf partner of a Brick object property (brick:isPointOf for brick:hasPoint). */
  inverseProperty(propertyIri: string): string | undefined {
    return this.inverses.get(propertyIri);
  }
}
