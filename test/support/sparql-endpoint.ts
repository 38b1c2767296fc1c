/**
 * A SPARQL 1.1 endpoint on loopback, backed by an in-memory Oxigraph: `/sparql` (query and
 * update, form or direct), `/store?graph=` (Graph Store Protocol). Tests of the protocol store use
 * it where no external engine runs, and switch it to `down` (connections refused), `hang`
 * (each request's body read, never answered) or `fail` (HTTP 503) to see how the service copes, then back to `up`;
 * `deadlocks` makes that many of the next requests answer as Virtuoso does a deadlock's victim,
 * `cutAnswers` as it does a query whose timeout came while it wrote the answer, `plannerFailures`
 * as it does a query its planner gave up on (a query sent after its `sql:select-option "order"`
 * pragma is answered, and counted as `ordered`).
 * `hangAfter` answers that many more requests, then hangs: a store that stops answering mid-load.
 * `lossyPuts` lists the share of the lines of a body the next Graph Store PUTs keep (one a PUT,
 * answered 201 all the same): Virtuoso's loader, which commits as it reads, under concurrent writes.
 * With `digest`, every request needs Digest credentials `user`/`secret`.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import oxigraph from 'oxigraph';

export type EndpointMode = 'up' | 'down' | 'hang' | 'fail';

export interface SparqlEndpoint {
  readonly queryUrl: string;
  readonly gspUrl: string;
  readonly store: oxigraph.Store;
  /** Requests received, by kind (`query`, `update`, `gsp`); `abandoned`: hanging requests the client closed; `deadlocked`: answered as a deadlock's victim. */
  readonly counts: Record<string, number>;
  /** The most client connections that were open at once. */
  readonly peakConnections: number;
  mode: EndpointMode;
  /** Set: this many more requests are answered, then the endpoint hangs (and this is unset again). */
  hangAfter: number | undefined;
  /** How many of the next requests answer HTTP 500 `Virtuoso 40001 Error SR172: Transaction deadlocked`. */
  deadlocks: number;
  /** How many of the next requests answer HTTP 500 after part of a JSON answer, ending `Virtuoso S1TAT Error`. */
  cutAnswers: number;
  /** How many of the next queries without Virtuoso's order pragma answer HTTP 500 `Virtuoso 42000 Error SQ200`. */
  plannerFailures: number;
  /** The share of a body's lines each of the next Graph Store PUTs keeps, answering 201 all the same. */
  lossyPuts: number[];
  close(): Promise<void>;
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

function digestOk(req: IncomingMessage, nonce: string): boolean {
  const header = req.headers.authorization ?? '';
  if (!header.startsWith('Digest ')) return false;
  const p = Object.fromEntries([...header.matchAll(/(\w+)=(?:"([^"]*)"|([^\s,]+))/g)].map((m) => [m[1], m[2] ?? m[3]]));
  const ha1 = md5(`user:bkg:secret`);
  const ha2 = md5(`${req.method}:${p.uri}`);
  return p.nonce === nonce && p.response === md5(`${ha1}:${nonce}:${p.nc}:${p.cnonce}:${p.qop}:${ha2}`);
}

async function body(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Starts the endpoint on a free loopback port. */
export async function startSparqlEndpoint(options: { digest?: boolean } = {}): Promise<SparqlEndpoint> {
  const store = new oxigraph.Store();
  const counts: Record<string, number> = { query: 0, update: 0, gsp: 0, abandoned: 0, deadlocked: 0, ordered: 0 };
  const nonce = randomBytes(8).toString('hex');
  const sockets = new Set<Socket>();
  let peakConnections = 0;
  const hanging = new Set<ServerResponse>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (endpoint.hangAfter !== undefined && endpoint.hangAfter-- === 0) {
      endpoint.hangAfter = undefined;
      endpoint.mode = 'hang';
    }
    if (endpoint.mode === 'hang') {
      hanging.add(res);
      // The body is taken, as by a store busy with it: the client waits for the answer alone.
      req.resume();
      // The store gave up on it (deadline or client gone) when it closes the connection (a request
      // closes once its body is read).
      res.once('close', () => counts.abandoned!++);
      return;
    }
    if (endpoint.mode === 'fail') return void res.writeHead(503).end('overloaded');
    if (endpoint.deadlocks > 0) {
      endpoint.deadlocks--;
      counts.deadlocked!++;
      await body(req);
      return void res
        .writeHead(500, { 'content-type': 'text/plain' })
        .end('Virtuoso 40001 Error SR172: Transaction deadlocked\n\nSPARQL query:\n…');
    }
    if (endpoint.cutAnswers > 0) {
      endpoint.cutAnswers--;
      await body(req);
      // As Virtuoso 7.2 answered a cross join past its `timeout=`, part of the results first.
      const part =
        '{ "head": { "link": [], "vars": ["a"] },\n  "results": { "distinct": false, "ordered": true, "bindings": [\n    { "a": { "type": "uri", "value": "urn:s0" }},';
      return void res
        .writeHead(500, { 'content-type': 'application/sparql-results+json' })
        .end(
          `${part}Virtuoso S1TAT Error RC...: Returning incomplete results, query interrupted by result timeout.  Activity: 18 rnd\n\nSPARQL query:\n…`,
        );
    }
    if (options.digest && !digestOk(req, nonce)) {
      return void res
        .writeHead(401, { 'www-authenticate': `Digest realm="bkg", qop="auth", nonce="${nonce}", algorithm=MD5` })
        .end();
    }
    const text = await body(req);
    try {
      if (url.pathname === '/store') {
        counts.gsp!++;
        const graph = oxigraph.namedNode(url.searchParams.get('graph')!);
        if (req.method === 'GET')
          return void res
            .writeHead(200, { 'content-type': 'application/n-triples' })
            .end(store.dump({ format: 'application/n-triples', from_graph_name: graph }));
        if (req.method === 'PUT' || req.method === 'DELETE') store.update(`DROP SILENT GRAPH <${graph.value}>`);
        const share = req.method === 'PUT' ? endpoint.lossyPuts.shift() : undefined;
        const kept =
          share === undefined
            ? text
            : text
                .split('\n')
                .filter((_, i, lines) => i < lines.length * share)
                .join('\n');
        if (req.method !== 'DELETE')
          store.load(kept, { format: req.headers['content-type']!.split(';')[0]!, to_graph_name: graph });
        return void res.writeHead(req.method === 'POST' ? 200 : 201).end();
      }
      const form = req.headers['content-type']?.startsWith('application/x-www-form-urlencoded')
        ? new URLSearchParams(text)
        : undefined;
      const update =
        form?.get('update') ??
        (req.headers['content-type']?.startsWith('application/sparql-update') ? text : undefined);
      if (update !== undefined) {
        counts.update!++;
        store.update(update);
        return void res.writeHead(204).end();
      }
      let query = form?.get('query') ?? url.searchParams.get('query') ?? text;
      counts.query!++;
      const pragma = 'DEFINE sql:select-option "order"\n';
      if (query.startsWith(pragma)) {
        counts.ordered!++;
        query = query.slice(pragma.length);
      } else if (endpoint.plannerFailures > 0) {
        endpoint.plannerFailures--;
        return void res
          .writeHead(500, { 'content-type': 'text/plain' })
          .end('Virtuoso 42000 Error SQ200: Stack Overflow in cost model\n\nSPARQL query:\n…');
      }
      const format = /^\s*((PREFIX|BASE)[^\n]*\n\s*)*(CONSTRUCT|DESCRIBE)/i.test(query)
        ? 'application/n-triples'
        : 'application/sparql-results+json';
      res.writeHead(200, { 'content-type': format }).end(store.query(query, { results_format: format }) as string);
    } catch (error) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end((error as Error).message);
    }
  };

  const server: Server = createServer((req, res) => void handle(req, res));
  server.on('connection', (socket) => {
    if (endpoint.mode === 'down') return void socket.destroy();
    sockets.add(socket);
    peakConnections = Math.max(peakConnections, sockets.size);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let mode: EndpointMode = 'up';
  const endpoint: SparqlEndpoint = {
    queryUrl: `${base}/sparql`,
    gspUrl: `${base}/store`,
    store,
    counts,
    hangAfter: undefined,
    deadlocks: 0,
    cutAnswers: 0,
    plannerFailures: 0,
    lossyPuts: [],
    get peakConnections() {
      return peakConnections;
    },
    get mode() {
      return mode;
    },
    set mode(next: EndpointMode) {
      mode = next;
      // Going down drops kept-alive connections too, as a restarting server would.
      if (next === 'down') for (const socket of sockets) socket.destroy();
      if (next !== 'hang') for (const res of hanging) res.destroy();
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return endpoint;
}
