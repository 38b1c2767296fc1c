/**
 * The alignment engine: IFC elements × graph entities → scored proposals, one-to-one. Pure: the
 * service reads the elements, entities and decisions and hands them here (alignment-service.ts).
 *
 * 1. Candidates: each element whose IFC class is in the class table (ifc-brick-classes.ts) against
 *    the entities whose class the table matches (through the ontology, `matches`), all of them when
 *    few, else those an index of names finds (same name, same numbers, a rare word), at most
 *    MAX_CANDIDATES: the work is linear in the elements, not elements × entities.
 * 2. Evidence, summed and clamped to 0..1: class, name (element name against the entity's name and
 *    id), tag (the element's IFC Tag against them), containment (the element's storey against the
 *    floor the entity's location chain reaches, through the storeys' own best matches), and
 *    connectivity (IFC port connections against `feeds`, through a first assignment's matches).
 * 3. Assignment: best score first, each element and entity once; entities and elements already
 *    linked are taken, rejected pairs never proposed.
 */
import { createHash } from 'node:crypto';
import { ifcBrickClass, IFC_BRICK_CLASSES, type IfcBrickClass } from './ifc-brick-classes.ts';
import { compareNames, elementNameTokens, nameTokens, type NameTokens } from './name-tokens.ts';

/** An IFC element as read from a file (src/ifc). */
export interface AlignElement {
  readonly fileId: string;
  readonly globalId: string;
  readonly ifcClass: string;
  readonly name: string;
  /** Its storey's name; '' outside any. */
  readonly storey: string;
  /** The IFC Tag (an equipment tag, often the name the BMS uses); '' when none. */
  readonly tag?: string;
}

/** A graph entity as the query layer answers it, with the floor its location chain reaches. */
export interface AlignEntity {
  readonly iri: string;
  readonly id: string;
  readonly name: string;
  /** Its Brick class's local name. */
  readonly type: string;
  /** The IFC GlobalIds it already carries. */
  readonly ifcIds: readonly string[];
  /** The floor (a Floor/Level) it is on, if its locations lead to one. */
  readonly floor: { readonly iri: string; readonly name: string } | null;
  /** The IRIs of the entities it feeds and is fed by. */
  readonly connected?: readonly string[];
}

export type EvidenceKind = 'class' | 'name' | 'tag' | 'containment' | 'connectivity';

export interface Evidence {
  readonly kind: EvidenceKind;
  readonly detail: string;
  readonly weight: number;
}

export type ProposalStatus = 'proposed' | 'accepted' | 'rejected';

/** A link an element and an entity may have (the REST contract's Proposal). */
export interface Proposal {
  readonly id: string;
  readonly globalId: string;
  readonly ifcClass: string;
  readonly ifcName: string;
  readonly storey: string;
  readonly fileId: string;
  readonly entityId: string;
  readonly entityIri: string;
  readonly entityType: string;
  readonly score: number;
  readonly evidence: readonly Evidence[];
  readonly status: ProposalStatus;
}

/** What the engine is given beyond elements and entities. */
export interface AlignInput {
  readonly elements: readonly AlignElement[];
  readonly entities: readonly AlignEntity[];
  /** Whether an entity's class (local name) is one the table entry means (the ontology's closure of its Brick classes). */
  readonly matches: (entry: IfcBrickClass, entityType: string) => boolean;
  /** Pairs of GlobalIds of one file joined through their ports (directly or through ducts, pipes and fittings). */
  readonly connections?: ReadonlyArray<readonly [fileId: string, a: string, b: string]>;
  /** Pairs the users rejected, as `pairKey`s. */
  readonly rejected?: ReadonlySet<string>;
}

export interface AlignResult {
  /** Accepted (links the graph states), open and rejected proposals, best score first. */
  readonly proposals: readonly Proposal[];
  /** The elements the class table maps, with their table entry. */
  readonly elements: ReadonlyArray<{ readonly element: AlignElement; readonly entry: IfcBrickClass }>;
  /** The entities some entry of the class table matches (whether or not the model has such elements). */
  readonly entities: readonly AlignEntity[];
}

export const WEIGHTS = {
  class: 0.25,
  genericClass: 0.15,
  name: 0.5,
  numbersDiffer: -0.2,
  tag: 0.45,
  containment: 0.15,
  otherFloor: -0.15,
  connectivity: 0.1,
  maxConnectivity: 0.2,
} as const;

/**
 * The score from which a proposal may be accepted without a look (`accept {minScore}`, the CLI's
 * default): measured on the demo tower (docs/ifc-alignment.md), where every proposal above it is right.
 */
export const AUTO_ACCEPT_SCORE = 0.7;
/** Below this a pair is no proposal at all. */
export const MIN_PROPOSAL_SCORE = 0.3;
/** At most this many entities are scored against one element. */
export const MAX_CANDIDATES = 50;
/** A name's word shared by more entities than this does not find candidates (`room`, `vav`). */
const RARE_WORD = 50;

/** The key a pair is remembered by (rejections). */
export const pairKey = (fileId: string, globalId: string, entityIri: string): string =>
  `${fileId}\u0000${globalId}\u0000${entityIri}`;

/**
 * A proposal's id: the same for the same pair across calls and restarts. Hex (88 bits), so no id
 * starts with a dash, which a command line would take for an option (`bkg align reject --ids -x…`).
 */
export const proposalId = (fileId: string, globalId: string, entityIri: string): string =>
  createHash('sha256')
    .update(pairKey(fileId, globalId, entityIri))
    .digest('hex')
    .slice(0, 22);

const round = (n: number) => Math.round(n * 1000) / 1000;

interface Named {
  readonly entity: AlignEntity;
  readonly name: NameTokens;
  readonly id: NameTokens;
}

/** Entities a class entry matches, and an index of their names to find candidates among many. */
class ClassCandidates {
  private readonly byKey = new Map<string, Named[]>();
  private readonly byWord = new Map<string, Named[]>();

  constructor(readonly all: readonly Named[]) {
    if (all.length <= MAX_CANDIDATES) return;
    const add = (map: Map<string, Named[]>, key: string, named: Named) => {
      const list = map.get(key);
      if (!list) map.set(key, [named]);
      else if (list.at(-1) !== named) list.push(named);
    };
    for (const named of all) {
      for (const tokens of [named.name, named.id]) {
        add(this.byKey, tokens.key, named);
        if (tokens.numbers.length > 0) add(this.byKey, `#${tokens.numbers.join('.')}`, named);
        for (const word of tokens.words) add(this.byWord, word, named);
      }
    }
  }

  /** The entities worth scoring against a name: all when few, else those sharing its name, numbers or a rare word. */
  for(names: readonly NameTokens[]): readonly Named[] {
    if (this.all.length <= MAX_CANDIDATES) return this.all;
    const found = new Set<Named>();
    const take = (list: readonly Named[] | undefined) => {
      for (const named of list ?? []) if (found.size < MAX_CANDIDATES) found.add(named);
    };
    for (const name of names) take(this.byKey.get(name.key));
    for (const name of names) if (name.numbers.length > 0) take(this.byKey.get(`#${name.numbers.join('.')}`));
    for (const name of names)
      for (const word of name.words) {
        const list = this.byWord.get(word);
        if (list && list.length <= RARE_WORD) take(list);
      }
    return [...found];
  }
}

interface Scored {
  readonly element: AlignElement;
  readonly entry: IfcBrickClass;
  readonly named: Named;
  readonly evidence: Evidence[];
  score: number;
}

const elementKey = (e: AlignElement) => `${e.fileId}\u0000${e.globalId}`;

/** The element's name and tag as names. */
const elementNames = (element: AlignElement) => [
  elementNameTokens(element.name),
  ...(element.tag ? [nameTokens(element.tag)] : []),
];

/** Scores pairs and assigns them one-to-one: see the file's comment. */
export function align(input: AlignInput): AlignResult {
  const rejected = input.rejected ?? new Set<string>();
  const elements = input.elements.flatMap((element) => {
    const entry = ifcBrickClass(element.ifcClass);
    return entry ? [{ element, entry }] : [];
  });
  const named: Named[] = input.entities.map((entity) => ({
    entity,
    name: nameTokens(entity.name),
    id: nameTokens(entity.id),
  }));

  // The entities of each table entry in use (a few dozen entries: linear in the entities).
  const byEntry = new Map<IfcBrickClass, ClassCandidates>();
  for (const { entry } of elements) {
    if (!byEntry.has(entry))
      byEntry.set(entry, new ClassCandidates(named.filter((n) => input.matches(entry, n.entity.type))));
  }
  const mappable = named.filter((n) => IFC_BRICK_CLASSES.some((entry) => input.matches(entry, n.entity.type)));

  // Links the graph already states.
  const linkedEntity = new Map<string, Named>();
  for (const n of named) for (const ifcId of n.entity.ifcIds) if (!linkedEntity.has(ifcId)) linkedEntity.set(ifcId, n);

  const nameEvidence = (element: AlignElement, n: Named): Evidence[] => {
    const evidence: Evidence[] = [];
    const tag = element.tag ? nameTokens(element.tag) : undefined;
    const tagged = tag !== undefined && tag.key !== '' && (tag.key === n.id.key || tag.key === n.name.key);
    const own = elementNameTokens(element.name);
    const best = [compareNames(own, n.name), compareNames(own, n.id)].sort((a, b) => b.similarity - a.similarity)[0]!;
    if (best.similarity >= 0.3)
      evidence.push({
        kind: 'name',
        detail: `"${element.name}" ~ "${n.entity.name}": ${best.detail}`,
        weight: round(WEIGHTS.name * best.similarity),
      });
    // A tag that names the entity outweighs a name that is the model's family name with a serial number.
    else if (!tagged && best.detail.startsWith('numbers differ'))
      evidence.push({
        kind: 'name',
        detail: `"${element.name}" / "${n.entity.name}": ${best.detail}`,
        weight: WEIGHTS.numbersDiffer,
      });
    if (tagged)
      evidence.push({
        kind: 'tag',
        detail: `tag "${element.tag}" is the entity's ${tag.key === n.id.key ? 'id' : 'name'}`,
        weight: WEIGHTS.tag,
      });
    return evidence;
  };

  const classEvidence = (element: AlignElement, entry: IfcBrickClass, n: Named): Evidence => ({
    kind: 'class',
    detail: `${entry.ifc} ↔ ${n.entity.type}${entry.generic ? ' (IFC 2x3 generic class)' : ''}`,
    weight: entry.generic ? WEIGHTS.genericClass : WEIGHTS.class,
  });

  // Pass 1: class, name and tag; storeys find their floors first, which containment then uses.
  const storeyFloor = new Map<string, string>();
  const firstPass = new Map<string, Scored[]>();
  for (const { element, entry } of elements) {
    const candidates = byEntry.get(entry)!.for(elementNames(element));
    const scored = candidates.map((n): Scored => {
      const evidence = [classEvidence(element, entry, n), ...nameEvidence(element, n)];
      return { element, entry, named: n, evidence, score: 0 };
    });
    firstPass.set(elementKey(element), scored);
    if (entry.group === 'storey') {
      const best = bestOf(scored.map((s) => ({ s, score: sum(s.evidence) })));
      if (best && best.score >= MIN_PROPOSAL_SCORE)
        storeyFloor.set(`${element.fileId}\u0000${element.name}`, best.s.named.entity.iri);
    }
  }

  const containment = (element: AlignElement, entry: IfcBrickClass, entity: AlignEntity): Evidence | undefined => {
    if (entry.group === 'storey' || entry.group === 'building' || element.storey === '' || !entity.floor)
      return undefined;
    const matched = storeyFloor.get(`${element.fileId}\u0000${element.storey}`);
    const same =
      matched !== undefined
        ? matched === entity.floor.iri
        : compareNames(nameTokens(element.storey), nameTokens(entity.floor.name)).similarity === 1;
    return same
      ? {
          kind: 'containment',
          detail: `on storey "${element.storey}", the entity on ${entity.floor.name}`,
          weight: WEIGHTS.containment,
        }
      : {
          kind: 'containment',
          detail: `on storey "${element.storey}", the entity on ${entity.floor.name}`,
          weight: WEIGHTS.otherFloor,
        };
  };

  const all: Scored[] = [];
  for (const scored of firstPass.values()) {
    for (const s of scored) {
      const c = containment(s.element, s.entry, s.named.entity);
      if (c) s.evidence.push(c);
      s.score = sum(s.evidence);
      all.push(s);
    }
  }

  const taken = (s: Scored) =>
    linkedEntity.has(s.element.globalId) ||
    s.named.entity.ifcIds.length > 0 ||
    rejected.has(pairKey(s.element.fileId, s.element.globalId, s.named.entity.iri));

  // Pass 2: connectivity, through the elements' matches so far.
  if (input.connections && input.connections.length > 0) {
    const provisional = assign(all, taken);
    const entityOf = new Map<string, string>();
    for (const s of provisional) entityOf.set(elementKey(s.element), s.named.entity.iri);
    for (const { element } of elements) {
      const linked = linkedEntity.get(element.globalId);
      if (linked) entityOf.set(elementKey(element), linked.entity.iri);
    }
    const neighbours = new Map<string, string[]>();
    const join = (from: string, to: string) => {
      const list = neighbours.get(from);
      if (list) list.push(to);
      else neighbours.set(from, [to]);
    };
    for (const [fileId, a, b] of input.connections) {
      join(`${fileId}\u0000${a}`, `${fileId}\u0000${b}`);
      join(`${fileId}\u0000${b}`, `${fileId}\u0000${a}`);
    }
    const nameOf = new Map(named.map((n) => [n.entity.iri, n.entity.id]));
    for (const s of all) {
      const connected = new Set(s.named.entity.connected ?? []);
      if (connected.size === 0) continue;
      const shared = (neighbours.get(elementKey(s.element)) ?? [])
        .map((k) => entityOf.get(k))
        .filter((iri): iri is string => iri !== undefined && connected.has(iri));
      if (shared.length === 0) continue;
      const unique = [...new Set(shared)];
      s.evidence.push({
        kind: 'connectivity',
        detail: `connected in the IFC model to the elements of ${unique.map((iri) => nameOf.get(iri)).join(', ')}, which the entity feeds or is fed by`,
        weight: Math.min(WEIGHTS.maxConnectivity, WEIGHTS.connectivity * unique.length),
      });
      s.score = sum(s.evidence);
    }
  }

  const proposals: Proposal[] = [];
  const proposal = (s: Scored, status: ProposalStatus): Proposal => ({
    id: proposalId(s.element.fileId, s.element.globalId, s.named.entity.iri),
    globalId: s.element.globalId,
    ifcClass: s.element.ifcClass,
    ifcName: s.element.name,
    storey: s.element.storey,
    fileId: s.element.fileId,
    entityId: s.named.entity.id,
    entityIri: s.named.entity.iri,
    entityType: s.named.entity.type,
    score: round(Math.min(1, Math.max(0, s.score))),
    evidence: s.evidence,
    status,
  });
  for (const s of assign(all, taken)) proposals.push(proposal(s, 'proposed'));

  // Accepted links and rejected pairs, scored whether or not they were candidates.
  const byKey = new Map(all.map((s) => [pairKey(s.element.fileId, s.element.globalId, s.named.entity.iri), s]));
  const scorePair = (element: AlignElement, entry: IfcBrickClass, n: Named): Scored => {
    const found = byKey.get(pairKey(element.fileId, element.globalId, n.entity.iri));
    if (found) return found;
    const evidence = [
      ...(input.matches(entry, n.entity.type) ? [classEvidence(element, entry, n)] : []),
      ...nameEvidence(element, n),
    ];
    const c = containment(element, entry, n.entity);
    if (c) evidence.push(c);
    return { element, entry, named: n, evidence, score: sum(evidence) };
  };
  const namedByIri = new Map(named.map((n) => [n.entity.iri, n]));
  for (const { element, entry } of elements) {
    const linked = linkedEntity.get(element.globalId);
    if (linked) proposals.push(proposal(scorePair(element, entry, linked), 'accepted'));
  }
  if (rejected.size > 0) {
    const elementByKey = new Map(elements.map((e) => [elementKey(e.element), e]));
    for (const key of rejected) {
      const [fileId, globalId, iri] = key.split('\u0000') as [string, string, string];
      const e = elementByKey.get(`${fileId}\u0000${globalId}`);
      const n = namedByIri.get(iri);
      if (e && n && linkedEntity.get(globalId) !== n)
        proposals.push(proposal(scorePair(e.element, e.entry, n), 'rejected'));
    }
  }
  proposals.sort(byScore);
  return { proposals, elements, entities: mappable.map((n) => n.entity) };
}

const sum = (evidence: readonly Evidence[]) => evidence.reduce((total, e) => total + e.weight, 0);

function bestOf<T extends { score: number }>(items: readonly T[]): T | undefined {
  let best: T | undefined;
  for (const item of items) if (!best || item.score > best.score) best = item;
  return best;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Best score first, then GlobalId and entity IRI: the same order every call. */
export const byScore = (
  a: Pick<Proposal, 'score' | 'globalId' | 'entityIri'>,
  b: Pick<Proposal, 'score' | 'globalId' | 'entityIri'>,
) => b.score - a.score || compare(a.globalId, b.globalId) || compare(a.entityIri, b.entityIri);

/** Greedy one-to-one assignment, best first, of the pairs scoring at least MIN_PROPOSAL_SCORE and not taken. */
function assign(pairs: readonly Scored[], taken: (s: Scored) => boolean): Scored[] {
  const open = pairs.filter((s) => s.score >= MIN_PROPOSAL_SCORE && !taken(s));
  open.sort(
    (a, b) =>
      byScore(
        { score: a.score, globalId: a.element.globalId, entityIri: a.named.entity.iri },
        { score: b.score, globalId: b.element.globalId, entityIri: b.named.entity.iri },
      ) || compare(a.element.fileId, b.element.fileId),
  );
  const usedElements = new Set<string>();
  const usedEntities = new Set<string>();
  const chosen: Scored[] = [];
  for (const s of open) {
    const key = elementKey(s.element);
    if (usedElements.has(key) || usedEntities.has(s.named.entity.iri)) continue;
    usedElements.add(key);
    usedEntities.add(s.named.entity.iri);
    chosen.push(s);
  }
  return chosen;
}
