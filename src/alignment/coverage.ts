import type { AlignResult } from './align.ts';

export type CoverageStatus = 'mapped' | 'proposed' | 'unmatched';

type Counts = { mapped: number; proposed: number; unmatched: number };

/** The coverage report of the REST contract (docs/ifc-alignment.md). */
export interface Coverage {
  readonly elements: ReadonlyArray<{
    globalId: string;
    ifcClass: string;
    name: string;
    storey: string;
    status: CoverageStatus;
    entityId: string | null;
    score: number | null;
  }>;
  readonly byClass: Readonly<Record<string, Counts>>;
  readonly byStorey: Readonly<Record<string, Counts>>;
  readonly entitiesWithoutElement: ReadonlyArray<{ entityId: string; entityType: string; storey: string | null }>;
}

/**
 * Which elements that should map (the class table's: the building, storeys, spaces, equipment,
 * terminals and sensors) are mapped (the graph states the link), proposed (an open proposal) or
 * unmatched, counted per IFC class and storey; and the entities of those classes no element is
 * mapped or proposed to.
 */
export function coverage(result: AlignResult): Coverage {
  const byElement = new Map<string, { status: CoverageStatus; entityId: string; score: number }>();
  const usedEntities = new Set<string>();
  for (const p of result.proposals) {
    if (p.status === 'rejected') continue;
    const key = `${p.fileId}\u0000${p.globalId}`;
    const status = p.status === 'accepted' ? 'mapped' : 'proposed';
    if (!byElement.has(key) || status === 'mapped')
      byElement.set(key, { status, entityId: p.entityId, score: p.score });
    usedEntities.add(p.entityIri);
  }
  const byClass: Record<string, Counts> = {};
  const byStorey: Record<string, Counts> = {};
  const count = (map: Record<string, Counts>, key: string, status: CoverageStatus) => {
    (map[key] ??= { mapped: 0, proposed: 0, unmatched: 0 })[status]++;
  };
  const elements = result.elements.map(({ element }) => {
    const found = byElement.get(`${element.fileId}\u0000${element.globalId}`);
    const status: CoverageStatus = found?.status ?? 'unmatched';
    count(byClass, element.ifcClass, status);
    count(byStorey, element.storey, status);
    return {
      globalId: element.globalId,
      ifcClass: element.ifcClass,
      name: element.name,
      storey: element.storey,
      status,
      entityId: found?.entityId ?? null,
      score: found?.score ?? null,
    };
  });
  const entitiesWithoutElement = result.entities
    .filter((entity) => !usedEntities.has(entity.iri))
    .map((entity) => ({ entityId: entity.id, entityType: entity.type, storey: entity.floor?.name ?? null }));
  return { elements, byClass, byStorey, entitiesWithoutElement };
}
