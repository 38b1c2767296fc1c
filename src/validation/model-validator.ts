import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import N3 from 'n3';
import { projectRoot } from '../config/config.ts';
import type { OntologyHierarchy } from '../ontology/hierarchy-extractor.ts';
import { Ontology } from '../ontology/ontology.ts';
import { readHierarchy } from '../ontology/read-hierarchy.ts';
import type { RdfFormat, RdfSource } from '../store/graph-store.ts';
import { parseTriples } from '../store/rdf-input.ts';
import { LabelIndex } from './label-index.ts';
import { modelChecks } from './model-checks.ts';
import { ShaclChecker } from './shacl-findings.ts';
import { buildReport, type ValidationReport } from './validation-report.ts';
import { factsOfTriples } from './model-facts-of-triples.ts';
import { readModel } from '../ontology/model-reading.ts';

/** The SHACL shapes the validator checks, derived from Brick by `npm run build:ontology`. */
export const BRICK_SHAPES_PATH = resolve(projectRoot, 'ontology/brick-shapes.ttl');

/** A document of the model: RDF in one of the formats graphs are loaded from. */
export interface ModelSource {
  readonly data: RdfSource;
  readonly format: RdfFormat;
}

/**
 * Validates Brick models: Brick's SHACL shapes and the service's own checks, in one report. Built
 * once (the ontology and the shapes), then used for any number of models. CPU-bound: the service
 * runs it in a worker thread (model-validation.ts).
 */
export class ModelValidator {
  private constructor(
    private readonly ontology: Ontology,
    private readonly hierarchy: OntologyHierarchy,
    private readonly shacl: ShaclChecker,
  ) {}

  /** Reads the ontology (the derived hierarchy or a full Brick.ttl) and the shapes. */
  static async load(ontologyPath: string, shapesPath = BRICK_SHAPES_PATH): Promise<ModelValidator> {
    const { hierarchy } = await readHierarchy(ontologyPath);
    const ontology = await Ontology.load(ontologyPath);
    const shapes = new N3.Store(new N3.Parser({ format: 'text/turtle' }).parse(readFileSync(shapesPath, 'utf8')));
    return new ModelValidator(ontology, hierarchy, new ShaclChecker(shapes, hierarchy, ontology));
  }

  /**
   * The report on the model the documents make together (their default graphs). A syntax error
   * throws RdfSyntaxError with its line and column, as loading would.
   */
  async validate(sources: readonly ModelSource[], baseIri: string): Promise<ValidationReport> {
    const started = performance.now();
    const model = new N3.Store();
    for (const source of sources) {
      for await (const batch of parseTriples(source.data, source.format, baseIri)) {
        // N3 keeps terms by their text: Oxigraph's are read once, not copied as objects.
        for (const q of batch)
          model.addQuad(q.subject as N3.Quad_Subject, q.predicate as N3.Quad_Predicate, q.object as N3.Quad_Object);
      }
    }
    const labels = new LabelIndex(model);
    const findings = [
      ...(await this.shacl.check(model, labels)),
      ...modelChecks(model, this.ontology, this.hierarchy, labels),
    ];
    // What the service would make of the model, as a load answers it (the load report).
    const { facts, statements } = factsOfTriples(model);
    const reading = readModel(facts, this.ontology.forSite(statements));
    return { ...buildReport(findings, model.size, (performance.now() - started) / 1000), reading };
  }
}
