/**
 * Picks out of a full Brick.ttl the SHACL shapes a core SHACL validator can check: every shape with a
 * target (explicit, or a class that is also a NodeShape) whose constraints do something, with the
 * constraints, property shapes, lists and paths they reach. Left out: SHACL-AF rules (`sh:rule`,
 * inference, not validation), SHACL-SPARQL (`sh:sparql`, `sh:SPARQLTarget`: rdf-validate-shacl does
 * not run them), property shapes with only a path, and documentation (labels, definitions).
 */
import N3 from 'n3';
import { OWL, RDF, RDFS } from '../../src/ontology/prefixes.ts';

export const SH = 'http://www.w3.org/ns/shacl#';

const sh = (names: string) => names.split(' ').map((n) => SH + n);

/** Parameters of SHACL Core constraint components: a shape with one of them checks something. */
const CONSTRAINTS = new Set(
  sh(
    'class datatype nodeKind minCount maxCount minExclusive minInclusive maxExclusive maxInclusive minLength maxLength ' +
      'pattern flags languageIn uniqueLang equals disjoint lessThan lessThanOrEquals not and or xone node hasValue in closed ' +
      'ignoredProperties qualifiedValueShape qualifiedMinCount qualifiedMaxCount qualifiedValueShapesDisjoint',
  ),
);
/** What else a kept shape carries: its path, how results are worded and ranked, and property shapes. */
const CARRIED = new Set([...sh('path message severity deactivated property'), `${RDF}first`, `${RDF}rest`]);
/** SHACL property path forms (blank nodes under sh:path). */
const PATHS = new Set(sh('inversePath alternativePath zeroOrMorePath oneOrMorePath zeroOrOnePath'));
const TARGETS = new Set(sh('targetClass targetNode targetSubjectsOf targetObjectsOf'));
/** Parameters whose values are shapes (or lists of shapes), followed even when they are named. */
const SHAPE_VALUED = new Set(sh('property node not and or xone qualifiedValueShape'));

const RDF_TYPE = `${RDF}type`;
const SHAPE_TYPES = new Set(sh('NodeShape PropertyShape'));
const CLASS_TYPES = new Set([`${OWL}Class`, `${RDFS}Class`]);

type Quad = N3.Quad;

/** The selected shapes as quads, in a stable order (shapes by IRI, each followed by what it reaches). */
export function selectBrickShapes(source: N3.Store): Quad[] {
  const { namedNode, quad } = N3.DataFactory;
  const typesOf = (node: N3.Term) => new Set(source.getObjects(node, RDF_TYPE, null).map((t) => t.value));
  const out: Quad[] = [];
  const seen = new Set<string>();
  const checks = new Map<string, boolean>();

  /** Whether the shape checks anything: a constraint parameter, or a property shape that does. */
  const checksSomething = (node: N3.Term, visiting = new Set<string>()): boolean => {
    const key = node.termType + node.value;
    const known = checks.get(key);
    if (known !== undefined) return known;
    if (visiting.has(key)) return false;
    visiting.add(key);
    const result = source
      .getQuads(node, null, null, null)
      .some(({ predicate, object }) =>
        predicate.value === `${SH}property` ? checksSomething(object, visiting) : CONSTRAINTS.has(predicate.value),
      );
    checks.set(key, result);
    return result;
  };

  /** Copies a shape's constraint triples and, recursively, the blank nodes, lists and shapes they name. */
  const copy = (node: N3.Term): void => {
    const key = node.termType + node.value;
    if (seen.has(key)) return;
    seen.add(key);
    for (const q of source.getQuads(node, null, null, null)) {
      const p = q.predicate.value;
      const keep =
        CONSTRAINTS.has(p) || CARRIED.has(p) || PATHS.has(p) || (p === RDF_TYPE && SHAPE_TYPES.has(q.object.value));
      if (!keep || (p === `${SH}property` && !checksSomething(q.object))) continue;
      out.push(quad(q.subject, q.predicate, q.object));
      if (
        q.object.termType === 'BlankNode' ||
        (SHAPE_VALUED.has(p) && q.object.termType === 'NamedNode') ||
        p === `${RDF}first` ||
        p === `${RDF}rest`
      ) {
        if (q.object.termType !== 'Literal' && q.object.value !== `${RDF}nil`) copy(q.object);
      }
    }
  };

  const roots = new Set<string>();
  for (const q of source.getQuads(null, RDF_TYPE, null, null)) {
    if (q.subject.termType === 'NamedNode' && SHAPE_TYPES.has(q.object.value)) roots.add(q.subject.value);
  }
  for (const q of source.getQuads(null, null, null, null)) {
    if (TARGETS.has(q.predicate.value) && q.subject.termType === 'NamedNode') roots.add(q.subject.value);
  }
  for (const iri of [...roots].sort()) {
    const node = namedNode(iri);
    if (source.getQuads(node, `${SH}target`, null, null).length > 0 || !checksSomething(node)) continue;
    const targets = source.getQuads(node, null, null, null).filter((q) => TARGETS.has(q.predicate.value));
    const types = typesOf(node);
    // A class that is also a shape targets its instances (SHACL's implicit class target); said
    // explicitly, so no validator has to know that OWL classes count.
    const implicit = [...types].some((t) => CLASS_TYPES.has(t)) && types.has(`${SH}NodeShape`);
    if (targets.length === 0 && !implicit) continue;
    for (const t of targets) out.push(quad(t.subject, t.predicate, t.object));
    if (implicit) out.push(quad(node, namedNode(`${SH}targetClass`), node));
    copy(node);
  }
  return out;
}
