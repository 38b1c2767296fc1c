/**
 * A GraphStore whose queries Comunica evaluates over an in-process N3 store: a second,
 * independent SPARQL engine beside Oxigraph, used as a conformance peer (answers must be the
 * same) rather than for speed (measured 100–1,000× slower than Oxigraph on a 1M-triple site;
 * docs/benchmarks.md, "What the ratios say"). Graphs persist as N-Quads files in the data directory,
 * like the embedded store's.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { QueryEngine } from '@comunica/query-sparql';
import N3 from 'n3';
import oxigraph from 'oxigraph';
import type * as RDF from '@rdfjs/types';
import {
  type ChangeResult,
  type ClientQuery,
  type ClientQueryResult,
  type GraphStore,
  type LoadResult,
  type RdfFormat,
  type RdfSource,
  type RdfTerm,
  type SelectOptions,
  type SparqlRow,
} from './graph-store.ts';
import { deadlineExceeded } from '../limits/request-work.ts';
import { forComunica } from './comunica-query.ts';
import { update, type SelectQuery } from '../rdf/sparql-algebra.ts';
import { tripleText, type GraphPatch } from '../rdf/rdf-patch.ts';
import { planPatch } from './apply-patch.ts';
import { serialize } from '../rdf/sparql-serializer.ts';
import { parseTriples } from './rdf-input.ts';

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';
const RDF_LANG_STRING = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#langString';

export interface ComunicaStoreOptions {
  /** Directory where graphs persist; undefined keeps everything in memory. */
  readonly persistDir: string | undefined;
  /** Graphs rebuilt at every start, not written to disk (the ontology). */
  readonly volatileGraphs?: readonly string[];
}

/** A term as SPARQL 1.1 JSON results write it (as the embedded store answers). */
function jsonTerm(term: RDF.Term): RdfTerm {
  switch (term.termType) {
    case 'NamedNode':
      return { type: 'uri', value: term.value };
    case 'BlankNode':
      return { type: 'bnode', value: term.value };
    case 'Literal':
      if (term.language) return { type: 'literal', value: term.value, 'xml:lang': term.language };
      if (term.datatype.value === XSD_STRING || term.datatype.value === RDF_LANG_STRING)
        return { type: 'literal', value: term.value };
      return { type: 'literal', value: term.value, datatype: term.datatype.value };
    default:
      throw new Error(`Unexpected ${term.termType} in a query result`);
  }
}

/** Comunica over an N3 store. */
export class ComunicaStore implements GraphStore {
  readonly name = 'comunica';
  private readonly data = new N3.Store();
  private readonly engine = new QueryEngine();

  private constructor(private readonly options: ComunicaStoreOptions) {}

  /** Opens the store and restores persisted graphs. */
  static open(options: ComunicaStoreOptions): ComunicaStore {
    const store = new ComunicaStore(options);
    if (options.persistDir) {
      mkdirSync(options.persistDir, { recursive: true });
      for (const name of readdirSync(options.persistDir)) {
        if (name.endsWith('.nq'))
          store.data.addQuads(
            new N3.Parser({ format: 'N-Quads' }).parse(readFileSync(join(options.persistDir, name), 'utf8')),
          );
        // A write a crash cut short: the graph's last complete file is the `.nq` beside it.
        if (name.endsWith('.tmp')) rmSync(join(options.persistDir, name), { force: true });
      }
    }
    return store;
  }

  async select(query: SelectQuery, options?: SelectOptions): Promise<SparqlRow[]> {
    // The service's queries name every graph they read, so the default graph's content never
    // reaches an answer. As the union of all graphs it keeps Comunica 4.5 from dropping path
    // alternatives: its optimizer tests each `a|b` alternative against the default graph only and
    // prunes those with no triples there, so inside GRAPH every alternative path came out empty.
    const stream = await this.engine.queryBindings(serialize(forComunica(query)), {
      sources: [this.data],
      unionDefaultGraph: true,
    });
    const signal = options?.work?.signal;
    const stop = () => stream.destroy(signal?.reason as Error);
    signal?.addEventListener('abort', stop, { once: true });
    try {
      const bindings = await stream.toArray();
      return bindings.map((binding) => {
        const row: Record<string, RdfTerm> = {};
        for (const [variable, term] of binding) row[variable.value] = jsonTerm(term);
        return row;
      });
    } finally {
      signal?.removeEventListener('abort', stop);
    }
  }

  // Comunica evaluates on this thread but asynchronously: at the deadline its stream is destroyed.
  async clientQuery(query: ClientQuery): Promise<ClientQueryResult> {
    let stream: { destroy(error?: Error): void } | undefined;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = deadlineExceeded(query.timeoutMs);
        stream?.destroy(error);
        reject(error);
      }, query.timeoutMs);
    });
    const run = async (): Promise<ClientQueryResult> => {
      const context = { sources: [this.data] as [N3.Store] };
      if (query.form === 'ASK') return { form: 'ASK', value: await this.engine.queryBoolean(query.text, context) };
      if (query.form === 'SELECT') {
        const result = await this.engine.query(query.text, context);
        if (result.resultType !== 'bindings') throw new Error(`Comunica answered a SELECT with ${result.resultType}`);
        const vars = (await result.metadata()).variables.map((v) => v.value);
        const bindings = await result.execute();
        stream = bindings;
        const rows = (await bindings.toArray()).map((binding) => {
          const row: Record<string, RdfTerm> = {};
          for (const [variable, term] of binding) row[variable.value] = jsonTerm(term);
          return row;
        });
        return { form: 'SELECT', vars, rows };
      }
      const quads = await this.engine.queryQuads(query.text, context);
      stream = quads;
      const triples = (await quads.toArray()).map(
        (q) => N3.DataFactory.quad(q.subject, q.predicate, q.object) as N3.Quad,
      );
      return { form: query.form, ntriples: new N3.Writer({ format: 'N-Triples' }).quadsToString(triples) };
    };
    try {
      return await Promise.race([run(), deadline]);
    } finally {
      clearTimeout(timer);
    }
  }

  replaceGraph(graph: string, data: RdfSource, format: RdfFormat): Promise<LoadResult> {
    return this.load(graph, data, format, true);
  }

  mergeGraph(graph: string, data: RdfSource, format: RdfFormat): Promise<LoadResult> {
    return this.load(graph, data, format, false);
  }

  // The whole document is parsed before the graph is touched: a syntax error changes nothing.
  private async load(graph: string, data: RdfSource, format: RdfFormat, replace: boolean): Promise<LoadResult> {
    const node = N3.DataFactory.namedNode(graph);
    const quads: N3.Quad[] = [];
    for await (const batch of parseTriples(data, format, graph)) {
      // Through an Oxigraph store first, so literals take the canonical form the embedded store
      // answers with ("650.0"^^xsd:decimal is "650" there): the same answers, not just equal ones.
      for (const q of new oxigraph.Store(batch).match(null, null, null, null)) {
        const triple = N3.DataFactory.fromQuad(q as unknown as N3.Quad);
        quads.push(N3.DataFactory.quad(triple.subject, triple.predicate, triple.object, node));
      }
    }
    if (replace) this.data.removeQuads(this.data.getQuads(null, null, null, node));
    this.data.addQuads(quads);
    this.persist(graph);
    return { triples: this.data.countQuads(null, null, null, node) };
  }

  /** Applies a patch: its triples with no blank node one by one, the others by pattern (an update Comunica runs on the data). */
  async changeGraph(graph: string, patch: GraphPatch, clear = false): Promise<ChangeResult> {
    const node = N3.DataFactory.namedNode(graph);
    const plan = planPatch(graph, clear ? { remove: [], add: patch.add } : patch);
    const quad = (q: oxigraph.Quad) => N3.DataFactory.fromQuad(q as unknown as N3.Quad) as N3.Quad;
    if (clear) this.data.removeQuads(this.data.getQuads(null, null, null, node));
    const removed = plan.remove.filter((q) => this.data.has(quad(q)));
    this.data.removeQuads(removed.map(quad));
    if (plan.patternRemovals.length > 0)
      await this.engine.queryVoid(serialize(update(...plan.patternRemovals)), { sources: [this.data] });
    const added = plan.add.filter((q) => !this.data.has(quad(q)));
    this.data.addQuads(added.map(quad));
    this.persist(graph);
    return {
      triples: this.data.countQuads(null, null, null, node),
      patch: {
        remove: clear ? patch.remove : [...removed.map(tripleText), ...plan.removeByPattern],
        add: added.map(tripleText),
      },
    };
  }

  async dropGraph(graph: string): Promise<void> {
    this.data.removeQuads(this.data.getQuads(null, null, null, N3.DataFactory.namedNode(graph)));
    this.persist(graph);
  }

  async exportGraph(graph: string, format: 'text/turtle' | 'application/n-triples'): Promise<string> {
    // Written by Oxigraph, so every store exports the same text for the same graph.
    const triples = this.data
      .getQuads(null, null, null, N3.DataFactory.namedNode(graph))
      .map((q) => oxigraph.fromQuad(N3.DataFactory.quad(q.subject, q.predicate, q.object)));
    return new oxigraph.Store(triples).dump({ format, from_graph_name: oxigraph.defaultGraph() });
  }

  async countTriples(graph: string): Promise<number> {
    return this.data.countQuads(null, null, null, N3.DataFactory.namedNode(graph));
  }

  async ping(): Promise<void> {}

  async close(): Promise<void> {}

  private persist(graph: string): void {
    const dir = this.options.persistDir;
    if (!dir || (this.options.volatileGraphs ?? []).includes(graph)) return;
    const file = join(dir, `${createHash('sha256').update(graph).digest('hex').slice(0, 32)}.nq`);
    const quads = this.data.getQuads(null, null, null, N3.DataFactory.namedNode(graph));
    if (quads.length === 0) {
      rmSync(file, { force: true });
      return;
    }
    // Write then rename, so a crash mid-write never leaves a truncated graph behind.
    writeFileSync(`${file}.tmp`, new N3.Writer({ format: 'N-Quads' }).quadsToString(quads));
    renameSync(`${file}.tmp`, file);
  }
}
