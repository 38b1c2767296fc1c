import { createRequire } from 'node:module';
import { Router } from 'express';
import type { GraphiQLOptions } from 'graphql-yoga';
import { notFound } from '../errors/app-error.ts';

/**
 * Example operations GraphiQL opens with, one tab each, all on the demo site (readable without a key).
 * Each is a named query: GraphiQL titles a tab with its operation's name (`<untitled>` otherwise).
 */
export const GRAPHIQL_EXAMPLES: readonly string[] = [
  `# The demo site's AHUs: their points, and what they feed.
# Ctrl-Enter runs a tab; the other tabs hold more examples. Add a header
# {"Authorization": "Bearer <key>"} to query your own sites.
query DemoAhus {
  equipment(siteId: "demo", is: "AHU") {
    name
    type
    points { name type unit unitSymbol timeseriesId }
    downstream(maxDepth: 1) { name type }
  }
}
`,
  `# What feeds a zone, up to three hops.
query WhatFeedsAZone {
  zone(siteId: "demo", name: "Zone 2-04") {
    name
    upstream(maxDepth: 3) { name type }
  }
}
`,
  `# The building's locations, the whole tree, with the equipment in each.
query BuildingLocations {
  building(siteId: "demo") {
    name
    locations(recursive: true) { name type equipment { name type } }
  }
}
`,
  `# Zone temperatures and their latest readings (the demo simulator writes them every minute).
query ZoneTemperatures {
  point(siteId: "demo", is: "Zone_Air_Temperature_Sensor") {
    name
    unit
    unitSymbol
    timeseriesId
    currentValue { value timestamp quality }
  }
}
`,
  `# The entity behind an element clicked in the IFC model; null when the GlobalId maps to none.
query EntityOfAnIfcElement {
  entityByIfcId(siteId: "demo", ifcId: "2t4oFYgav4YgXJsMhiI4RW") {
    __typename
    ... on Equipment { name type points { name } }
    ... on Location { name type }
  }
}
`,
  `# The chiller's chilled-water chain.
query ChilledWaterChain {
  equipment(siteId: "demo", name: "CH-1") {
    name
    downstream(medium: "CHILLED_WATER") { name type }
  }
}
`,
];

const version: string = createRequire(import.meta.url)('@graphql-yoga/render-graphiql/package.json').version;

/** Where GraphiQL's script, styles and editor workers are served from: this service, not a CDN. */
export const GRAPHIQL_ASSETS_PATH = `/graphiql/${version}`;

/** GraphiQL's options: the examples as tabs, the first also as the default query. */
export const graphiqlOptions: GraphiQLOptions = {
  title: 'Building knowledge graph',
  defaultQuery: GRAPHIQL_EXAMPLES[0],
  defaultTabs: GRAPHIQL_EXAMPLES.map((query) => ({ query })),
  schemaDescription: true,
};

type Assets = typeof import('@graphql-yoga/render-graphiql/graphiql');
let assets: Promise<Assets> | undefined;
// 9 MB of script: loaded on the first visit, not at every start.
const loadAssets = () => (assets ??= import('@graphql-yoga/render-graphiql/graphiql'));

const FILES: Readonly<Record<string, { type: string; pick: (a: Assets) => string }>> = {
  'graphiql.js': { type: 'text/javascript', pick: (a) => a.js },
  'graphiql.css': { type: 'text/css', pick: (a) => a.css },
  'editor.worker.js': { type: 'text/javascript', pick: (a) => a.editorWorkerService },
  'json.worker.js': { type: 'text/javascript', pick: (a) => a.jsonWorker },
  'graphql.worker.js': { type: 'text/javascript', pick: (a) => a.graphqlWorker },
};

const escapeScript = (json: string) => json.replace(/</g, '\\u003c');

/** The GraphiQL page: yoga's GraphiQL build, loaded from this service so it works without internet access. */
export function renderGraphiQL(options: GraphiQLOptions): string {
  const base = GRAPHIQL_ASSETS_PATH;
  const title = (options.title ?? 'GraphiQL').replace(/[<&]/g, '');
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${title}</title><link rel="icon" href="/favicon.svg" type="image/svg+xml"><link rel="stylesheet" href="${base}/graphiql.css"></head>
<body id="body" class="no-focus-outline">
<noscript>You need to enable JavaScript to run GraphiQL.</noscript>
<div id="root"></div>
<script>
self.MonacoEnvironment = {
  globalAPI: false,
  getWorkerUrl: (moduleId, label) => ({ json: '${base}/json.worker.js', graphql: '${base}/graphql.worker.js' })[label] || '${base}/editor.worker.js',
};
</script>
<script src="${base}/graphiql.js"></script>
<script>YogaGraphiQL.renderYogaGraphiQL(document.querySelector('#root'), ${escapeScript(JSON.stringify(options))});</script>
</body>
</html>`;
}

/** Serves GraphiQL's assets under GRAPHIQL_ASSETS_PATH; the version is in the path, so browsers keep them. */
export function graphiqlAssets(): Router {
  const router = Router();
  router.get(`${GRAPHIQL_ASSETS_PATH}/:file`, async (req, res) => {
    const file = FILES[req.params.file];
    if (!file) throw notFound(`No GraphiQL asset "${req.params.file.slice(0, 100)}".`);
    res
      .set('Cache-Control', 'public, max-age=31536000, immutable')
      .type(file.type)
      .send(file.pick(await loadAssets()));
  });
  return router;
}
