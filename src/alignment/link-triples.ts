/**
 * The triples of an accepted link, in the shape fixtures/demo.ttl states them (docs/ifc-alignment.md,
 * "REST"): `<entity> ref:hasExternalReference [ a ref:IFCReference ;
 * ref:ifcGlobalID "…" ; ref:hasIfcProjectReference <project> ]`, the project being the IFC file
 * (`urn:uuid:<file id>`, a ref:ifcProject with its file name as ref:ifcFileLocation and its
 * IfcProject's GlobalId as ref:ifcProjectID, as Brick's shapes ask). Written and
 * read as N-Triples by N3.js, which escapes every term.
 */
import N3 from 'n3';
import type { UpdateStep } from '../sparql-endpoint/confine-update.ts';
import {
  filter,
  graph as graphPattern,
  literal as algebraLiteral,
  namedNode as algebraNode,
  op,
  select,
  triple,
  valuesRows,
  variable,
} from '../rdf/sparql-algebra.ts';
import { RDF, RDFS, REF } from '../rdf/vocabulary.ts';

const { namedNode, literal, blankNode, quad } = N3.DataFactory;

/** A link between a graph entity and an element of an IFC file. */
export interface IfcLink {
  readonly entityIri: string;
  readonly globalId: string;
  readonly fileId: string;
  /** The IFC file's name (its ref:ifcFileLocation). */
  readonly fileName: string;
  /** The GlobalId of the file's IfcProject (its ref:ifcProjectID); unknown for files read before migration 006. */
  readonly projectId?: string | null;
}

const HAS_REFERENCE = namedNode(`${REF}hasExternalReference`);
const GLOBAL_ID = namedNode(`${REF}ifcGlobalID`);
const TYPE = namedNode(`${RDF}type`);

/** The IRI the links of an IFC file name as their project. */
export const ifcProjectIri = (fileId: string): string => `urn:uuid:${fileId}`;

function write(quads: N3.Quad[]): string {
  const writer = new N3.Writer({ format: 'N-Triples' });
  writer.addQuads(quads);
  let text = '';
  writer.end((error, result) => {
    if (error) throw error;
    text = result;
  });
  return text;
}

/** The N-Triples document stating `links` (and their files as projects). */
export function linkTriples(links: readonly IfcLink[]): string {
  const quads: N3.Quad[] = [];
  const projects = new Map<string, IfcLink>();
  links.forEach((link, i) => {
    const reference = blankNode(`link${i}`);
    const project = namedNode(ifcProjectIri(link.fileId));
    projects.set(link.fileId, link);
    quads.push(
      quad(namedNode(link.entityIri), HAS_REFERENCE, reference),
      quad(reference, TYPE, namedNode(`${REF}IFCReference`)),
      quad(reference, GLOBAL_ID, literal(link.globalId)),
      quad(reference, namedNode(`${REF}hasIfcProjectReference`), project),
    );
  });
  for (const [fileId, { fileName, projectId }] of projects) {
    const project = namedNode(ifcProjectIri(fileId));
    quads.push(
      quad(project, TYPE, namedNode(`${REF}ifcProject`)),
      quad(project, namedNode(`${REF}ifcFileLocation`), literal(fileName)),
      quad(project, namedNode(`${RDFS}label`), literal(fileName)),
    );
    if (projectId) quads.push(quad(project, namedNode(`${REF}ifcProjectID`), literal(projectId)));
  }
  return write(quads);
}

/**
 * The change that removes the references stating `links`: each reference node an entity of a link
 * holds with its GlobalId, and every triple about that node (a step of a change, run-update.ts).
 * One query finds them all, whatever their number.
 */
export function linkRemoval(graph: string, links: ReadonlyArray<Pick<IfcLink, 'entityIri' | 'globalId'>>): UpdateStep {
  const [entity, node, id, p, o] = ['e', 'b', 'g', 'p', 'o'].map((name) => variable(name));
  const holds = triple(entity!, algebraNode(HAS_REFERENCE.value), node!);
  const about = triple(node!, p!, o!);
  return {
    kind: 'match',
    where: select({
      variables: [entity!, node!, p!, o!],
      where: [
        graphPattern(
          algebraNode(graph),
          valuesRows(links.map((link) => ({ e: algebraNode(link.entityIri), g: algebraLiteral(link.globalId) }))),
          holds,
          triple(node!, algebraNode(GLOBAL_ID.value), id!),
          filter(op('isblank', node!)),
          about,
        ),
      ],
    }),
    remove: [holds.triples[0]!, about.triples[0]!],
    add: [],
    label: 'links',
  };
}
