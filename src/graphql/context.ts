import type { Client } from '../auth/client.ts';
import type { GraphHistory } from '../history/graph-history.ts';
import type { VersionFeed } from '../history/version-feed.ts';
import type { QueryLayer } from '../query/query-layer.ts';
import type { RequestWork } from '../limits/request-work.ts';
import type { CurrentValuesBatch } from '../readings/current-values-batch.ts';
import type { SiteDirectory } from '../tenants/site-directory.ts';
import type { LivePointValues } from './point-values-subscription.ts';

/** What every resolver may use. */
export interface GraphQLContext {
  /** Where plans are run, against what the service knows of each site. */
  readonly query: QueryLayer;
  readonly sites: SiteDirectory;
  /** This request's one currentValue lookup, shared by its root fields. */
  readonly readings: CurrentValuesBatch;
  /** New readings as they arrive, for subscriptions. */
  readonly live: LivePointValues;
  /** Who is asking: tenancy is checked against it before any query runs. */
  readonly client: Client;
  /** The request's deadline, budget and client's signal, handed to every store query it runs. */
  readonly work: RequestWork | undefined;
  /** Each site's graph changes as they commit, for subscriptions. */
  readonly feed: Pick<VersionFeed, 'follow'>;
  /** Where the version of each site's graph is read. */
  readonly history: Pick<GraphHistory, 'version' | 'head'>;
  /** The version of each site the request read, as the graph was when its first field began: the answer's `extensions.versions`. */
  readonly versions: Map<string, number>;
}
