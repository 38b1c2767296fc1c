/** Namespaces and the IRIs the service reads. */
export const BRICK = 'https://brickschema.org/schema/Brick#';
export const REC = 'https://w3id.org/rec#';
export const REF = 'https://brickschema.org/schema/Brick/ref#';
export const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
export const RDFS = 'http://www.w3.org/2000/01/rdf-schema#';
export const OWL = 'http://www.w3.org/2002/07/owl#';
export const SKOS = 'http://www.w3.org/2004/02/skos/core#';
export const UNIT = 'http://qudt.org/vocab/unit/';
/** The service's own vocabulary, used only in graphs it owns (the ontology graph). */
export const BKG = 'urn:bkg:vocab#';

/** The named graph holding the ontology, shared by every site. */
export const ONTOLOGY_GRAPH = 'urn:bkg:ontology';

/** The named graph of a site. Site ids are slugs, so the IRI is always valid. */
export function siteGraph(siteId: string): string {
  return `urn:bkg:site:${siteId}`;
}

/** The site whose graph this is (undefined for the service's own graphs). */
export function siteOfGraph(graph: string): string | undefined {
  return graph.startsWith('urn:bkg:site:') ? graph.slice('urn:bkg:site:'.length) : undefined;
}

/** The IRI's local name: what follows the last `#` or `/`. */
export function localName(iri: string): string {
  const cut = Math.max(iri.lastIndexOf('#'), iri.lastIndexOf('/'));
  return cut >= 0 ? iri.slice(cut + 1) : iri;
}
