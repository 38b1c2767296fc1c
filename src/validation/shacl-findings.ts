/**
 * Brick's shapes (ontology/brick-shapes.ttl) checked with rdf-validate-shacl, over a copy of the
 * model prepared as Brick's own tools see it after inference: every entity also typed with the
 * superclasses of its classes (and their equivalents, and replacements both ways), every link also stated in
 * its inverse direction, QUDT units and quantity kinds typed as such (the QUDT vocabularies are not
 * shipped), and Brick's substances typed brick:Substance. Types are materialized rather than given as rdfs:subClassOf triples because the
 * validator walks the whole subclass tree for every sh:class check.
 */
import N3 from 'n3';
import SHACLValidator from 'rdf-validate-shacl';
import type { OntologyHierarchy } from '../ontology/hierarchy-extractor.ts';
import type { Ontology } from '../ontology/ontology.ts';
import { compactIri } from '../ontology/prefixes.ts';
import { partitionReplacements } from '../ontology/replacement-links.ts';
import { BRICK, RDF } from '../rdf/vocabulary.ts';
import type { RdfTerm } from '../store/graph-store.ts';
import type { LabelIndex } from './label-index.ts';
import { validatorEnvironment } from './result-dataset.ts';
import type { Finding, Severity } from './validation-report.ts';

const SH = 'http://www.w3.org/ns/shacl#';
const RDF_TYPE = `${RDF}type`;
const QUDT = 'http://qudt.org/schema/qudt/';
/** IRIs in these namespaces are taken as instances of these QUDT classes. */
const QUDT_NAMESPACES: ReadonlyArray<readonly [string, string]> = [
  ['http://qudt.org/vocab/unit/', `${QUDT}Unit`],
  ['http://qudt.org/vocab/quantitykind/', `${QUDT}QuantityKind`],
];

/** Brick's shapes, ready to check models against. */
export class ShaclChecker {
  private readonly validator: SHACLValidator;
  private readonly superclasses = new Map<string, readonly string[]>();
  private readonly parents = new Map<string, string[]>();

  constructor(
    private readonly shapes: N3.Store,
    hierarchy: OntologyHierarchy,
    private readonly ontology: Ontology,
  ) {
    // Named lists: Brick writes `sh:or bsh:NumericValue`. No count of checks per node and shape: it
    // guards against recursive shapes (Brick's are not) and cost a JSON.stringify per check.
    const options = { allowNamedNodeInList: true, factory: validatorEnvironment as never, maxNodeChecks: 0 };
    this.validator = new SHACLValidator(shapes, options);
    const link = (from: string, to: string) => this.parents.set(from, [...(this.parents.get(from) ?? []), to]);
    for (const [sub, sup] of hierarchy.subClassOf) link(sub, sup);
    for (const [a, b] of hierarchy.equivalentClass) {
      link(a, b);
      link(b, a);
    }
    // Replacement links both ways, as the service's class matching reads them (docs/brick-mapping.md, "A
    // deprecated class means its final replacement"): a rec:Room is a brick:Location to Brick 1.4's shapes
    // too, though Brick replaced that class by rec:Architecture.
    for (const [deprecated, replacement] of partitionReplacements(hierarchy).followed) {
      link(deprecated, replacement);
      link(replacement, deprecated);
    }
  }

  /** The findings of Brick's shapes on the model. */
  async check(model: N3.Store, labels: LabelIndex): Promise<Finding[]> {
    const report = await this.validator.validate(this.prepare(model));
    return report.results.map((result) => {
      const focus = labels.id(result.focusNode as N3.Term);
      const value = result.value ? jsonTerm(result.value as N3.Term) : null;
      const component = result.sourceConstraintComponent?.value ?? '';
      const name = component.startsWith(SH)
        ? component.slice(SH.length).replace(/ConstraintComponent$/, '')
        : component;
      const kind = `shacl:${name.charAt(0).toLowerCase()}${name.slice(1)}`;
      const path = result.path ? pathText(this.shapes, result.path as N3.Term) : null;
      const shape = result.sourceShape ? labels.id(result.sourceShape as N3.Term) : null;
      // Brick's own wording where the shape has one; else ours (the validator's defaults omit the path and the class).
      const message =
        this.param(result.sourceShape as N3.Term, 'message') ??
        this.defaultMessage(kind, result.sourceShape as N3.Term, path, value, labels);
      return {
        kind,
        severity: severityOf(result.severity?.value),
        focusNode: focus,
        ...labels.focus(focus),
        path,
        value,
        message,
        shape: shape?.startsWith('_:') ? null : shape,
      };
    });
  }

  /** The model as Brick's tools would see it after inference (see the file comment). */
  private prepare(model: N3.Store): N3.Store {
    const { quad, namedNode } = N3.DataFactory;
    const data = new N3.Store();
    const type = namedNode(RDF_TYPE);
    for (const q of model) {
      data.add(q);
      const inverse =
        q.predicate.termType === 'NamedNode' ? this.ontology.inverseProperty(q.predicate.value) : undefined;
      if (inverse && q.object.termType !== 'Literal')
        data.add(quad(q.object as N3.Quad_Subject, namedNode(inverse), q.subject));
      if (q.object.termType === 'NamedNode') {
        for (const [namespace, cls] of QUDT_NAMESPACES)
          if (q.object.value.startsWith(namespace)) data.add(quad(q.object, type, namedNode(cls)));
        // Substances are individuals of the ontology, not of the model.
        if (this.ontology.isSubstance(q.object.value)) data.add(quad(q.object, type, namedNode(`${BRICK}Substance`)));
      }
      if (q.predicate.value === RDF_TYPE && q.object.termType === 'NamedNode') {
        for (const cls of this.superclassesOf(q.object.value)) data.add(quad(q.subject, type, namedNode(cls)));
      }
    }
    return data;
  }

  private superclassesOf(cls: string): readonly string[] {
    let found = this.superclasses.get(cls);
    if (found) return found;
    const seen = new Set([cls]);
    const todo = [cls];
    while (todo.length > 0)
      for (const parent of this.parents.get(todo.pop()!) ?? [])
        if (!seen.has(parent)) {
          seen.add(parent);
          todo.push(parent);
        }
    seen.delete(cls);
    found = [...seen];
    this.superclasses.set(cls, found);
    return found;
  }

  /** A parameter of a shape (sh:message, sh:class, …). */
  private param(shape: N3.Term | undefined, name: string): string | undefined {
    return shape ? this.shapes.getObjects(shape as N3.Quad_Subject, `${SH}${name}`, null)[0]?.value : undefined;
  }

  /** A message where the shape has none: what was expected, in Brick's terms. */
  private defaultMessage(
    kind: string,
    shape: N3.Term | undefined,
    path: string | null,
    value: RdfTerm | null,
    labels: LabelIndex,
  ): string {
    const param = (name: string) => this.param(shape, name);
    const on = path ? ` of ${path.startsWith('(') ? path : compactIri(path)}` : '';
    const named = (iri: string) => {
      const label = labels.label(iri);
      return label ? `${label} (${compactIri(iri)})` : compactIri(iri);
    };
    const shown = value ? (value.type === 'uri' ? named(value.value) : `"${value.value}"`) : 'The value';
    switch (kind) {
      case 'shacl:class':
        return `${shown}${on} is not a ${compactIri(param('class') ?? '?')}.`;
      case 'shacl:datatype':
        return `${shown}${on} is not of datatype ${compactIri(param('datatype') ?? '?')}.`;
      case 'shacl:nodeKind':
        return `${shown}${on} is not a ${compactIri(param('nodeKind') ?? '?').replace(/^sh:/, '')}.`;
      case 'shacl:or':
        return `${shown}${on} matches none of the shapes it may have.`;
      case 'shacl:node':
        return `${shown}${on} does not have the shape ${compactIri(param('node') ?? '?')}.`;
      case 'shacl:minCount':
        return `Fewer than ${param('minCount')} values${on}.`;
      case 'shacl:maxCount':
        return `More than ${param('maxCount')} values${on}.`;
      default:
        return `${kind.slice(6)} constraint${on} not met.`;
    }
  }
}

function severityOf(iri: string | undefined): Severity {
  if (iri === `${SH}Warning`) return 'Warning';
  if (iri === `${SH}Info`) return 'Info';
  return 'Violation';
}

function jsonTerm(term: N3.Term): RdfTerm {
  if (term.termType === 'NamedNode') return { type: 'uri', value: term.value };
  if (term.termType === 'BlankNode') return { type: 'bnode', value: term.value };
  const literal = term as N3.Literal;
  if (literal.language) return { type: 'literal', value: literal.value, 'xml:lang': literal.language };
  const datatype = literal.datatype.value;
  return datatype === 'http://www.w3.org/2001/XMLSchema#string'
    ? { type: 'literal', value: literal.value }
    : { type: 'literal', value: literal.value, datatype };
}

/** A result's path: the property's IRI, or a complex SHACL path as text in parentheses. */
function pathText(shapes: N3.Store, path: N3.Term): string {
  if (path.termType === 'NamedNode') return path.value;
  const text = (node: N3.Term): string => {
    if (node.termType === 'NamedNode') return compactIri(node.value);
    const items: string[] = [];
    for (
      let list: N3.Term | undefined = node;
      list && list.value !== `${RDF}nil`;
      list = shapes.getObjects(list as N3.Quad_Subject, `${RDF}rest`, null)[0]
    ) {
      const first = shapes.getObjects(list as N3.Quad_Subject, `${RDF}first`, null)[0];
      if (!first) break;
      items.push(text(first));
    }
    if (items.length > 0) return items.join('/');
    const inverse = shapes.getObjects(node as N3.Quad_Subject, `${SH}inversePath`, null)[0];
    return inverse ? `^${text(inverse)}` : '?';
  };
  return `(${text(path)})`;
}
