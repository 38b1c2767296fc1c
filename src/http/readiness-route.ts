import type { Request, RequestHandler } from 'express';
import type { Authenticator } from '../auth/authenticator.ts';
import { isAdmin } from '../auth/client.ts';
import { siteOfGraph } from '../rdf/vocabulary.ts';
import type { Services } from '../services.ts';
import type { GraphRestore } from '../store/graph-store.ts';

type Loading = Extract<GraphRestore, { state: 'loading' }>;

const isLoading = (restore: GraphRestore): restore is Loading => restore.state === 'loading';

/**
 * What any caller may know of the restores: how many sites are loading (with the slowest one's
 * progress) and how many failed, never which: a site's id, size and triples are its tenant's.
 */
function restoreSummary(restores: readonly GraphRestore[]) {
  const loading = restores.filter(isLoading);
  const failed = restores.length - loading.length;
  const slowest = loading.reduce<Loading | undefined>(
    (worst, restore) => (!worst || restore.retryAfterSeconds > worst.retryAfterSeconds ? restore : worst),
    undefined,
  );
  return {
    ...(slowest && {
      loading: {
        sites: loading.length,
        slowest: {
          triples: slowest.triples,
          ...(slowest.totalTriples !== undefined && { totalTriples: slowest.totalTriples }),
          retryAfterSeconds: slowest.retryAfterSeconds,
        },
      },
    }),
    ...(failed > 0 && { failed: { sites: failed } }),
  };
}

/** Whether the request carries an admin key; a token that does not verify is no admin's. */
const callerIsAdmin = (authenticator: Authenticator, req: Request) =>
  authenticator.authenticate(req.get('authorization'), req.ip ?? 'unknown').then(isAdmin, () => false);

/**
 * `GET /readyz`: 200 once every engine answers and every site is restored, else 503. Probes are
 * mounted before authentication, so the route looks at a bearer token itself, and only while
 * there are restores to tell of: an admin key adds each site's restore (`sites`); any other
 * caller, a token that does not verify included, gets the summary alone (a probe never answers 401).
 */
export function readinessRoute(services: Services): RequestHandler {
  return async (req, res) => {
    const checks: Array<[string, () => Promise<void>]> = [
      ['graph', () => services.store.ping()],
      ['database', () => services.database.ping()],
    ];
    if (services.redis) checks.push(['redis', () => services.redis!.ping()]);
    checks.push(['files', () => services.blobs.ping()]);
    const results = await Promise.all(
      checks.map(
        async ([name, check]) =>
          [
            name,
            await check().then(
              () => 'ok',
              () => 'unavailable',
            ),
          ] as const,
      ),
    );
    // Sites still coming back after a restart keep the service unready; one that failed to is
    // reported, not waited for.
    const restores = services.store.restoreStatus();
    const loading = restores.some(isLoading);
    const ready = results.every(([, state]) => state === 'ok') && !loading;
    const status = ready ? 'ready' : loading ? 'loading' : 'unavailable';
    // Only an admin's answer differs, and only while there are restores: no token is looked at otherwise.
    const admin = restores.length > 0 && (await callerIsAdmin(services.authenticator, req));
    const sites = restores.map(({ graph, ...restore }) => ({ site: siteOfGraph(graph) ?? graph, ...restore }));
    const engines = Object.fromEntries(results);
    res.status(ready ? 200 : 503).json({ status, engines, ...restoreSummary(restores), ...(admin && { sites }) });
  };
}
