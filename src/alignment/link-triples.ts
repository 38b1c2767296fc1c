/**
 * The triples of an accepted link, in the shape fixtures/demo.ttl states them (docs/ifc-alignment.md,
 * "REST"): `<entity> ref:hasExternalReference [ a ref:IFCReference ;
 * ref:ifcGlobalID "…" ; ref:hasIfcProjectReference <project> ]`, the project being the IFC file
 * (`urn:uuid:<file id>`, a ref:ifcProject with its file name as ref:ifcFileLocation and its
 * IfcProject's GlobalId as ref:ifcProjectID, as Brick's shapes ask). Written and
 * read as N-Triples by N3.js, which escapes every term.
 */
import N3 from 'n3';
import { MainThreadSlices } from '../limits/main-thread.ts';
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
const HAS_REFERENCE_TEXT = `<${HAS_REFERENCE.value}>`;
const GLOBAL_ID_TEXT = `<${GLOBAL_ID.value}>`;
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
 * The graph (N-Triples, one triple a line) without the references that state `links`: each
 * reference node an entity of a link holds with its GlobalId, and every triple about that node.
 * Unchanged text (`removed` 0) when the graph states none of them. Only the lines that can be such
 * triples are parsed; the scan runs in slices of the main thread (it is as long as the graph).
 */
export async function withoutLinks(
  nTriples: string,
  links: ReadonlyArray<Pick<IfcLink, 'entityIri' | 'globalId'>>,
  signal?: AbortSignal,
): Promise<{ readonly text: string; readonly removed: number }> {
  const wanted = new Set(links.map((link) => `${link.entityIri}\u0000${link.globalId}`));
  const lines = nTriples.split('\n');
  const parse = (line: string) => new N3.Parser({ format: 'N-Triples', blankNodePrefix: '' }).parse(line)[0];
  const holders = new Map<string, string[]>();
  const globalIds = new Map<string, string[]>();
  let slices = new MainThreadSlices(signal);
  for (const line of lines) {
    const pause = slices.step();
    if (pause) await pause;
    if (line.startsWith('_:') && line.includes(GLOBAL_ID_TEXT)) {
      const q = parse(line);
      if (q?.predicate.equals(GLOBAL_ID))
        globalIds.set(q.subject.value, [...(globalIds.get(q.subject.value) ?? []), q.object.value]);
    } else if (line.startsWith('<') && line.includes(HAS_REFERENCE_TEXT)) {
      const q = parse(line);
      if (q?.predicate.equals(HAS_REFERENCE) && q.object.termType === 'BlankNode')
        holders.set(q.object.value, [...(holders.get(q.object.value) ?? []), q.subject.value]);
    }
  }
  const gone = new Set<string>();
  for (const [node, entities] of holders) {
    if (
      entities.some((entity) =>
        (globalIds.get(node) ?? []).some((globalId) => wanted.has(`${entity}\u0000${globalId}`)),
      )
    )
      gone.add(node);
  }
  if (gone.size === 0) return { text: nTriples, removed: 0 };
  const kept: string[] = [];
  slices = new MainThreadSlices(signal);
  for (const line of lines) {
    const pause = slices.step();
    if (pause) await pause;
    if (line.startsWith('_:') && gone.has(line.slice(2, line.indexOf(' ')))) continue;
    if (line.startsWith('<') && line.includes(HAS_REFERENCE_TEXT)) {
      const q = parse(line);
      if (q?.object.termType === 'BlankNode' && gone.has(q.object.value)) continue;
    }
    kept.push(line);
  }
  return { text: kept.join('\n'), removed: gone.size };
}
