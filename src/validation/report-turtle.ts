import N3 from 'n3';
import { BKG, RDFS } from '../rdf/vocabulary.ts';
import type { Finding, ValidationReport } from './validation-report.ts';

const SH = 'http://www.w3.org/ns/shacl#';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const XSD = 'http://www.w3.org/2001/XMLSchema#';

/** The report as a SHACL `sh:ValidationReport` in Turtle (the listed results; counts are in JSON only). */
export function reportTurtle(report: ValidationReport): Promise<string> {
  const { namedNode, blankNode, literal, quad } = N3.DataFactory;
  const writer = new N3.Writer({ prefixes: { sh: SH, rdfs: RDFS, bkg: BKG, xsd: XSD } });
  const add = (s: N3.Quad_Subject, p: string, o: N3.Quad_Object) => writer.addQuad(quad(s, namedNode(p), o));
  const node = (id: string) => (id.startsWith('_:') ? blankNode(id.slice(2)) : namedNode(id));
  const root = blankNode('report');
  add(root, RDF_TYPE, namedNode(`${SH}ValidationReport`));
  add(root, `${SH}conforms`, literal(String(report.conforms), namedNode(`${XSD}boolean`)));
  report.results.forEach((finding: Finding, i) => {
    const result = blankNode(`r${i}`);
    add(root, `${SH}result`, result);
    add(result, RDF_TYPE, namedNode(`${SH}ValidationResult`));
    add(result, `${SH}focusNode`, node(finding.focusNode));
    add(result, `${SH}resultSeverity`, namedNode(`${SH}${finding.severity}`));
    // SHACL's own components keep their IRIs; the service's checks are components of its vocabulary.
    const shacl = finding.kind.startsWith('shacl:') ? finding.kind.slice(6) : undefined;
    const component = shacl
      ? `${SH}${shacl.charAt(0).toUpperCase()}${shacl.slice(1)}ConstraintComponent`
      : `${BKG}${finding.kind}`;
    add(result, `${SH}sourceConstraintComponent`, namedNode(component));
    add(result, `${SH}resultMessage`, literal(finding.message));
    // A complex SHACL path is written as text in parentheses in JSON; only a property is an IRI.
    if (finding.path && !finding.path.startsWith('(')) add(result, `${SH}resultPath`, namedNode(finding.path));
    if (finding.shape) add(result, `${SH}sourceShape`, node(finding.shape));
    if (finding.value) {
      const v = finding.value;
      add(
        result,
        `${SH}value`,
        v.type === 'uri'
          ? namedNode(v.value)
          : v.type === 'bnode'
            ? blankNode(v.value)
            : literal(v.value, v['xml:lang'] ?? (v.datatype ? namedNode(v.datatype) : undefined)),
      );
    }
    if (finding.label) add(result, `${RDFS}label`, literal(finding.label));
  });
  return new Promise((resolve, reject) => writer.end((error, text) => (error ? reject(error) : resolve(text))));
}
