import type { Express } from 'express';

/** One registered route: its full express path and its methods (HEAD left out: it follows GET). */
export interface RouteEntry {
  readonly path: string;
  readonly methods: readonly string[];
}

interface Listable {
  listRoutes?(): Array<{ path: string | RegExp; methods?: string[]; router?: Listable }>;
}

/** Every route the app has registered, mounted routers walked, with its full path (`/api/v1/sites/:siteId/graph`). */
export function listAppRoutes(app: Express): RouteEntry[] {
  const routes: RouteEntry[] = [];
  const walk = (router: Listable, base: string) => {
    for (const entry of router.listRoutes?.() ?? []) {
      if (typeof entry.path !== 'string') continue;
      const path = joinPath(base, entry.path);
      if (entry.router) walk(entry.router, path);
      else routes.push({ path, methods: (entry.methods ?? []).filter((m) => m !== 'HEAD') });
    }
  };
  walk(app.router as unknown as Listable, '');
  return routes;
}

const joinPath = (base: string, path: string) =>
  path === '/' && base !== '' ? `${base}/` : `${base.replace(/\/$/, '')}${path}`;

/** An express path as an OpenAPI path template: `:siteId` → `{siteId}`, no trailing slash. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, '{$1}').replace(/(.)\/$/, '$1');
}

/**
 * Names the route a request took, for metrics and logs: the route's path (`/api/v1/sites/:siteId`),
 * never the request's own path, so labels stay few. Paths under one of `mounts` (handlers that are
 * not express routes, such as GraphQL) take the mount's path; anything else is `unmatched`.
 */
export function routeNamer(
  routes: readonly RouteEntry[],
  mounts: readonly string[],
): (method: string, path: string) => string {
  const patterns = routes.map((route) => ({ route, regexp: patternOf(route.path) }));
  return (method, path) => {
    const wanted = method === 'HEAD' ? 'GET' : method;
    let pathOnly: string | undefined;
    for (const { route, regexp } of patterns) {
      if (!regexp.test(path)) continue;
      if (route.methods.includes(wanted) || route.methods.includes('*')) return route.path;
      pathOnly ??= route.path;
    }
    if (pathOnly) return pathOnly;
    return mounts.find((mount) => path === mount || path.startsWith(`${mount}/`)) ?? 'unmatched';
  };
}

/** A route path as a regular expression: `:name` is one segment, `*name` the rest; a trailing slash is optional. */
function patternOf(path: string): RegExp {
  const body = path
    .replace(/\/$/, '')
    .split(/(:\w+|\*\w+)/)
    .map((part) =>
      part.startsWith(':') ? '[^/]+' : part.startsWith('*') ? '.+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${body}/?$`, 'i');
}
