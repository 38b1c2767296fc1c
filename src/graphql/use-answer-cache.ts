/**
 * Answers from memory. A query's answer is a function of its text, operation name and variables,
 * the caller's access, and the version of each site's graph it reads (every root field names its
 * site), unless it selects a live field (`currentValue`). Those are its key: a new version makes a
 * new key, so an old answer is never served for it, and callers whose access differs never share
 * one. The answer is kept as the bytes sent (`answer-cache.ts`), with an ETag made of the key, so
 * a client that sends it back (If-None-Match, GET or POST) is answered 304 without the query
 * running, kept or not. Answers with errors are neither kept nor tagged.
 *
 * A change this process makes without a version (the demo site's reset, the site files loaded at
 * start) changes the graph's generation in the key (`AnswerCache.changed`, told by the store).
 * Another process may change a graph (replicas on a shared store): the versions are then read
 * from the records for every request (`GraphHistory.head`), so the next read after a change,
 * on any replica, misses.
 */
import { createHash } from 'node:crypto';
import { getArgumentValues, print, visit, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { Client } from '../auth/client.ts';
import { isSmall, jsonInSlices } from '../limits/json-in-slices.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { siteGraph } from '../rdf/vocabulary.ts';
import { requireSite } from '../tenants/site-directory.ts';
import type { AnswerCache } from './answer-cache.ts';
import type { GraphQLContext } from './context.ts';
import { queryRootFields } from './direct-execution.ts';
import { ROOT_FIELDS } from './resolvers.ts';
import { acceptedJsonType } from './use-streamed-json.ts';

/** Fields whose values are not the graph's: an answer selecting one is never kept. */
const LIVE_FIELDS = new Set(['currentValue']);

/** What the cache decided for one request, kept until its answer is written. */
interface Ticket {
  readonly key: string;
  readonly etag: string;
  readonly mediaType: string;
  state: 'hit' | 'not-modified' | 'miss';
  body?: Buffer;
}

/** The context yoga builds for an execution: the service's, and the HTTP request with its parameters. */
type YogaContext = GraphQLContext & { readonly request: Request; readonly params?: { readonly query?: string } };

const liveDocuments = new WeakMap<DocumentNode, boolean>();
/** Whether the document selects a live field anywhere (fragments included, as a field of any type by that name). */
function selectsLiveField(document: DocumentNode): boolean {
  let live = liveDocuments.get(document);
  if (live === undefined) {
    live = false;
    visit(document, {
      Field(node) {
        if (LIVE_FIELDS.has(node.name.value)) live = true;
      },
    });
    liveDocuments.set(document, live);
  }
  return live;
}

const printed = new WeakMap<DocumentNode, string>();
const documentText = (document: DocumentNode, given: string | undefined): string => {
  if (given !== undefined) return given;
  let text = printed.get(document);
  if (text === undefined) printed.set(document, (text = print(document)));
  return text;
};

/** What an answer may differ by between callers: the kind of client (its limits) and the sites it may read. */
function accessOf(client: Client): string {
  if (client.kind === 'anonymous') return 'anonymous';
  const sites = client.sites === '*' ? '*' : [...client.sites].sort().join(',');
  return `${client.kind}:${client.kind === 'key' && client.admin ? 'admin' : ''}:${sites}`;
}

/** Whether an If-None-Match header names `etag` (weakly, as a GET's revalidation compares). */
function matches(header: string | null, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === opaque;
  });
}

/**
 * The key of the answer, or undefined when it is not to be kept: not a query, a live field,
 * a root field of no site, a site the caller may not read (the error is the execution's to give).
 */
async function keyOf(args: ExecutionArgs, context: YogaContext, cache: AnswerCache): Promise<string | undefined> {
  if (selectsLiveField(args.document)) return undefined;
  const root = queryRootFields(args);
  if (!root) return undefined;
  const sites = new Set<string>();
  for (const [node] of root.fields.values()) {
    const name = node!.name.value;
    if (name.startsWith('__')) continue;
    if (!ROOT_FIELDS.has(name)) return undefined;
    const values = getArgumentValues(root.queryType.getFields()[name]!, node!, root.request.variableValues);
    if (typeof values.siteId !== 'string') return undefined;
    sites.add(values.siteId);
  }
  const read: string[] = [];
  for (const site of [...sites].sort()) {
    try {
      await requireSite(context.sites, context.client, site);
    } catch {
      return undefined;
    }
    const head = await context.history.head(site);
    // The answer reads these versions: the execution that follows a miss names them too.
    if (!context.versions.has(site)) context.versions.set(site, head.version);
    read.push(`${site}@${head.version}@${head.at ?? ''}@${cache.generation(siteGraph(site))}`);
  }
  return createHash('sha256')
    .update(accessOf(context.client))
    .update('\n')
    .update(read.join(' '))
    .update('\n')
    .update(args.operationName ?? '')
    .update('\n')
    .update(JSON.stringify(args.variableValues ?? {}))
    .update('\n')
    .update(documentText(args.document, context.params?.query))
    .digest('base64url');
}

/** The answer's bytes as a stream, handed to `keep` once whole. */
function keptWhileSent(answer: ExecutionResult, keep: (body: Buffer) => void): ReadableStream<Uint8Array> {
  const chunks: Uint8Array[] = [];
  return jsonInSlices(answer).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        chunks.push(chunk);
        controller.enqueue(chunk);
      },
      flush: () => keep(Buffer.concat(chunks)),
    }),
  );
}

export function useAnswerCache(cache: AnswerCache, metrics: Metrics): Plugin<GraphQLContext> {
  const tickets = new WeakMap<Request, Ticket>();
  const count = (result: 'hit' | 'not_modified' | 'miss' | 'uncached') => metrics.graphqlAnswerCache.inc({ result });
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue as YogaContext;
      const mediaType = acceptedJsonType(context.request);
      const key = mediaType ? await keyOf(args, context, cache) : undefined;
      if (!key || !mediaType) return count('uncached');
      const ticket: Ticket = { key, etag: `"q${key.slice(0, 32)}"`, mediaType, state: 'miss' };
      tickets.set(context.request, ticket);
      if (matches(context.request.headers.get('if-none-match'), ticket.etag)) {
        ticket.state = 'not-modified';
        setResultAndStopExecution({ data: null });
        return count('not_modified');
      }
      const body = cache.get(key);
      if (body) {
        ticket.state = 'hit';
        ticket.body = body;
        setResultAndStopExecution({ data: null });
        return count('hit');
      }
    },
    onResultProcess({ request, result, setResultProcessor }) {
      const ticket = tickets.get(request);
      if (!ticket) return;
      const headers = {
        'Content-Type': `${ticket.mediaType}; charset=utf-8`,
        ETag: ticket.etag,
        // Revalidated each time: the graph may have changed since.
        'Cache-Control': 'private, no-cache',
      };
      const answer = result as ExecutionResult;
      if (ticket.state === 'not-modified') {
        setResultProcessor((_r, fetchAPI) => new fetchAPI.Response(null, { status: 304, headers }), ticket.mediaType);
        return;
      }
      if (ticket.state === 'hit') {
        const body = ticket.body!;
        setResultProcessor(
          (_r, fetchAPI) => new fetchAPI.Response(body as Uint8Array<ArrayBuffer>, { status: 200, headers }),
          ticket.mediaType,
        );
        return;
      }
      if (isAsyncIterable(result) || Array.isArray(result) || answer.errors?.length) {
        tickets.delete(request);
        return count('uncached');
      }
      count('miss');
      const keep = (body: Buffer) => {
        cache.set(ticket.key, body);
        metrics.graphqlAnswerCacheBytes.set(cache.bytes);
      };
      setResultProcessor((_r, fetchAPI) => {
        if (!isSmall(answer)) return new fetchAPI.Response(keptWhileSent(answer, keep), { status: 200, headers });
        const body = Buffer.from(JSON.stringify(answer));
        keep(body);
        return new fetchAPI.Response(body as Uint8Array<ArrayBuffer>, { status: 200, headers });
      }, ticket.mediaType);
    },
  };
}
