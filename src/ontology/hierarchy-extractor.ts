import { compareCodeUnits } from './compare-code-units.ts';
import { BRICK, OWL, RDF, RDFS, REC, SKOS } from './prefixes.ts';

/** An RDF/JS-style term: all the extractor reads is its kind and value. */
export interface TermLike {
  readonly termType: string;
  readonly value: string;
}

/** An RDF/JS-style triple (a quad's graph is ignored). */
export interface QuadLike {
  readonly subject: TermLike;
  readonly predicate: TermLike;
  readonly object: TermLike;
}

/** A directed pair of IRIs, e.g. [subclass, superclass]. */
export type IriPair = readonly [string, string];

/** The part of Brick the service needs: the class hierarchy, substances and property inverses. */
export interface OntologyHierarchy {
  readonly classes: ReadonlySet<string>;
  /** [subclass, superclass] */
  readonly subClassOf: readonly IriPair[];
  readonly equivalentClass: readonly IriPair[];
  /** [deprecated class, replacement] */
  readonly isReplacedBy: readonly IriPair[];
  readonly substances: ReadonlySet<string>;
  /** [substance, broader substance] */
  readonly broader: readonly IriPair[];
  readonly inverseOf: readonly IriPair[];
  readonly objectProperties: ReadonlySet<string>;
}

const RDF_TYPE = `${RDF}type`;
const OWL_CLASS = `${OWL}Class`;
const RDFS_CLASS = `${RDFS}Class`;
const OWL_OBJECT_PROPERTY = `${OWL}ObjectProperty`;
const SUB_CLASS_OF = `${RDFS}subClassOf`;
const EQUIVALENT_CLASS = `${OWL}equivalentClass`;
const INVERSE_OF = `${OWL}inverseOf`;
const IS_REPLACED_BY = `${BRICK}isReplacedBy`;
const SUBSTANCE = `${BRICK}Substance`;
const SKOS_BROADER = `${SKOS}broader`;
const SKOS_NARROWER = `${SKOS}narrower`;

/** Substance properties the medium rules rely on; declared in the derived file so it documents them. */
export const SUBSTANCE_PROPERTIES: readonly string[] = [`${BRICK}hasInputSubstance`, `${BRICK}hasOutputSubstance`];

/** True for IRIs in the brick: and rec: namespaces, the only ones whose classes the service takes. */
function inScope(iri: string): boolean {
  return (
    (iri.startsWith(BRICK) && !iri.includes('#', BRICK.length) && !iri.includes('/', BRICK.length)) ||
    (iri.startsWith(REC) && !iri.includes('#', REC.length) && !iri.includes('/', REC.length))
  );
}

/**
 * Collects the hierarchy from a stream of triples, one at a time, so that the build script can stream a
 * full Brick.ttl and the service can load either that or the derived file with the same rules.
 * Which triples count is only known at the end (a replacement link counts when one end is a class), so
 * candidates are kept and filtered in `finish()`.
 */
export class HierarchyExtractor {
  private readonly declaredClasses = new Set<string>();
  private readonly substances = new Set<string>();
  private readonly objectProperties = new Set<string>();
  private readonly subClassOf: IriPair[] = [];
  private readonly equivalentClass: IriPair[] = [];
  private readonly isReplacedBy: IriPair[] = [];
  private readonly broader: IriPair[] = [];
  private readonly inverseOf: IriPair[] = [];

  /** Takes one triple into account. */
  add(quad: QuadLike): void {
    const { subject, predicate, object } = quad;
    // Blank nodes are OWL restrictions and SHACL shapes, never named classes.
    if (subject.termType !== 'NamedNode' || object.termType !== 'NamedNode') return;
    const s = subject.value;
    const o = object.value;
    switch (predicate.value) {
      case RDF_TYPE:
        if ((o === OWL_CLASS || o === RDFS_CLASS) && inScope(s)) this.declaredClasses.add(s);
        else if (o === SUBSTANCE) this.substances.add(s);
        else if (o === OWL_OBJECT_PROPERTY && inScope(s)) this.objectProperties.add(s);
        break;
      case SUB_CLASS_OF:
        if (inScope(s)) this.subClassOf.push([s, o]);
        break;
      case EQUIVALENT_CLASS:
        if (inScope(s) || inScope(o)) this.equivalentClass.push([s, o]);
        break;
      case IS_REPLACED_BY:
        this.isReplacedBy.push([s, o]);
        break;
      case SKOS_BROADER:
        this.broader.push([s, o]);
        break;
      case SKOS_NARROWER:
        // A link may be stated from either end; keep it one way so broader-matching sees both.
        this.broader.push([o, s]);
        break;
      case INVERSE_OF:
        if (inScope(s) && inScope(o)) this.inverseOf.push([s, o]);
        break;
    }
  }

  /** The hierarchy seen so far, deduplicated and sorted so that output built from it is deterministic. */
  finish(): OntologyHierarchy {
    const classes = new Set(this.declaredClasses);
    for (const [s, o] of [...this.subClassOf, ...this.equivalentClass]) classes.add(s).add(o);
    // Deprecated quantities and substances are replaced too (by QUDT kinds, by other substances):
    // only links where one end is a class are class replacements.
    const isReplacedBy = this.isReplacedBy.filter(([s, o]) => classes.has(s) || classes.has(o));
    for (const [s, o] of isReplacedBy) classes.add(s).add(o);
    const substances = this.substances;
    const objectProperties = new Set(
      [...this.objectProperties].filter(
        (p) => SUBSTANCE_PROPERTIES.includes(p) || this.inverseOf.some(([s, o]) => s === p || o === p),
      ),
    );
    return {
      classes: sortedSet(classes),
      subClassOf: sortedPairs(this.subClassOf),
      equivalentClass: sortedPairs(this.equivalentClass),
      isReplacedBy: sortedPairs(isReplacedBy),
      substances: sortedSet(substances),
      broader: sortedPairs(this.broader.filter(([s, o]) => substances.has(s) && substances.has(o))),
      inverseOf: sortedPairs(this.inverseOf),
      objectProperties: sortedSet(objectProperties),
    };
  }
}

/** Extracts the hierarchy from an in-memory collection of triples. */
export function extractHierarchy(quads: Iterable<QuadLike>): OntologyHierarchy {
  const extractor = new HierarchyExtractor();
  for (const quad of quads) extractor.add(quad);
  return extractor.finish();
}

function sortedSet(values: Iterable<string>): ReadonlySet<string> {
  return new Set([...new Set(values)].sort(compareCodeUnits));
}

function sortedPairs(pairs: readonly IriPair[]): IriPair[] {
  const unique = new Map<string, IriPair>();
  for (const pair of pairs) unique.set(`${pair[0]} ${pair[1]}`, pair);
  return [...unique.values()].sort((a, b) => compareCodeUnits(a[0], b[0]) || compareCodeUnits(a[1], b[1]));
}
