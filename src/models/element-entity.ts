import { executePlan } from '../compiler/execute-plan.ts';
import { siteOntology } from '../compiler/site-ontology.ts';
import type { EntityKind, FieldPlan, RootPlan, Selection } from '../compiler/plan.ts';
import type { EntityObject } from '../compiler/shape-entity.ts';
import type { Ontology } from '../ontology/ontology.ts';
import { siteGraph } from '../rdf/vocabulary.ts';
import { noCurrentValues } from '../readings/current-values.ts';
import type { GraphStore } from '../store/graph-store.ts';

/** The graph entity an IFC element maps to, as the elements endpoint shows it. */
export interface ElementEntity {
  /** Building, Equipment, Location, Zone or System (the KgEntity member). */
  readonly kind: EntityKind;
  readonly id: string;
  readonly uri: string;
  readonly name: string;
  readonly type: string;
}

const KINDS: readonly EntityKind[] = ['Building', 'Equipment', 'Location', 'Zone', 'System'];
const FIELDS: readonly FieldPlan[] = (['id', 'uri', 'name', 'type'] as const).map((field) => ({ key: field, type: 'scalar', field }));

/** The plan of `entityByIfcId(siteId, ifcId) { ... on <each member> { id uri name type } }`. */
export function entityByIfcIdPlan(siteId: string, ifcId: string): RootPlan {
  const selection = (kind: EntityKind): Selection => ({ kind, attributes: new Set(), fields: FIELDS });
  return {
    key: 'entityByIfcId',
    query: 'entityByIfcId',
    siteId,
    graph: siteGraph(siteId),
    kind: undefined,
    answer: 'one',
    constraints: [{ type: 'ifcId', ifcId }],
    selection: { union: new Map(KINDS.map((kind) => [kind, selection(kind)])) },
  };
}

/**
 * The graph entity carrying an IFC GlobalId, resolved exactly as GraphQL's `entityByIfcId` is
 * (the same plan, compiler and store), or null when the graph maps no entity to it.
 */
export async function entityForIfcId(store: GraphStore, ontology: Ontology, siteId: string, ifcId: string): Promise<ElementEntity | null> {
  const read = await siteOntology(store, ontology, siteGraph(siteId));
  const found = (await executePlan(entityByIfcIdPlan(siteId, ifcId), { store, ontology: read, readings: noCurrentValues })) as EntityObject | null;
  return found && { kind: found.__kind, id: found.id as string, uri: found.uri as string, name: found.name as string, type: found.type as string };
}
