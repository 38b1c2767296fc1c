/**
 * The values the suite's documents need that only the loaded site knows, and the readings that
 * give `currentValue` something to return.
 */
import { graph, namedNode, select, triple, variable } from '../../src/rdf/sparql-algebra.ts';
import { REF, siteGraph } from '../../src/rdf/vocabulary.ts';
import { PORTFOLIO_NAMESPACE } from '../generate-portfolio.ts';
import { BENCH_SITE, type Gateway } from './gateway.ts';
import type { Anchors } from './suite.ts';

/** IRIs of the generated portfolio, by local name (`B01-AHU-1`). */
export const portfolioIri = (local: string): string => `${PORTFOLIO_NAMESPACE}${local}`;

/** Reads the anchors from the site; fails when building B01 is missing (a site too small). */
export async function findAnchors(gateway: Gateway): Promise<Anchors> {
  const [r, ifcId] = [variable('r'), variable('ifc')];
  const rows = await gateway.services.store.select(
    select({
      variables: [ifcId],
      where: [
        graph(
          namedNode(siteGraph(BENCH_SITE)),
          triple(namedNode(portfolioIri('B01-Building')), namedNode(`${REF}hasExternalReference`), r),
          triple(r, namedNode(`${REF}ifcGlobalID`), ifcId),
        ),
      ],
    }),
  );
  const ifc = rows[0]?.ifc?.value;
  if (!ifc) throw new Error('Building B01 (with an IFC GlobalId) is not in the site: generate at least 20k triples');
  return { site: BENCH_SITE, buildingIfcId: ifc };
}

/** Stores a fresh reading for every point of B01-AHU-1 that has a timeseries, through the REST API. */
export async function seedReadings(gateway: Gateway, anchors: Anchors): Promise<number> {
  const found = await gateway.inProcess(
    'query ($site: String!) { point(siteId: $site, equipmentId: "B01-AHU-1") { timeseriesId } }',
    { site: anchors.site },
  );
  const points = (found.body.data?.point ?? []) as Array<{ timeseriesId: string | null }>;
  const now = Date.now();
  const readings = points.flatMap((p, i) =>
    p.timeseriesId ? [{ timeseriesId: p.timeseriesId, timestamp: now - 30_000, value: 20 + i / 10 }] : [],
  );
  const response = await fetch(`${gateway.url}/api/v1/sites/${anchors.site}/readings`, {
    method: 'POST',
    headers: gateway.headers,
    body: JSON.stringify(readings),
  });
  if (!response.ok) throw new Error(`Storing readings failed: ${response.status} ${await response.text()}`);
  return readings.length;
}
