import type { Client } from '../auth/client.ts';
import type { RequestWork } from '../limits/request-work.ts';
import type { Ontology } from '../ontology/ontology.ts';
import type { CurrentValuesBatch } from '../readings/current-values-batch.ts';
import type { LivePointValues } from '../readings/point-values-subscription.ts';
import type { SiteDirectory } from '../sites/site-directory.ts';
import type { GraphStore } from '../store/graph-store.ts';

/** What every resolver may use. */
export interface GraphQLContext {
  readonly store: GraphStore;
  readonly ontology: Ontology;
  readonly sites: SiteDirectory;
  /** This request's one currentValue lookup, shared by its root fields. */
  readonly readings: CurrentValuesBatch;
  /** New readings as they arrive, for subscriptions. */
  readonly live: LivePointValues;
  /** Who is asking: tenancy is checked against it before any query runs. */
  readonly client: Client;
  /** The request's deadline, budget and client's signal, handed to every store query it runs. */
  readonly work: RequestWork | undefined;
}
