/** What the panel shows of a clicked element's graph entity, fetched in one GraphQL query. */

export interface PointValue {
  readonly value: number | null;
  readonly timestamp: string | null;
  readonly quality: string;
}

export interface EntityPoint {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly unit: string | null;
  readonly currentValue: PointValue | null;
}

export interface EntitySummary {
  readonly id: string;
  readonly name: string;
  readonly type: string;
}

/** An entity as `entityByIfcId` gives it; `points` and `upstream` only where its type has them. */
export interface GraphEntity extends EntitySummary {
  readonly __typename: 'Building' | 'Equipment' | 'Location' | 'Zone' | 'System';
  readonly points?: readonly EntityPoint[];
  readonly upstream?: readonly EntitySummary[];
}

const POINTS = 'points { id name type unit currentValue { value timestamp quality } }';

export const ENTITY_QUERY = `query ViewerEntity($siteId: String!, $ifcId: String!) {
  entityByIfcId(siteId: $siteId, ifcId: $ifcId) {
    __typename
    ... on Building { id name type }
    ... on Equipment { id name type ${POINTS} upstream { id name type } }
    ... on Location { id name type ${POINTS} }
    ... on Zone { id name type ${POINTS} upstream { id name type } }
    ... on System { id name type ${POINTS} }
  }
}`;
