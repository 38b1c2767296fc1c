/**
 * A small in-memory model of Brick entities and their relationships, written out as Turtle subject
 * blocks. A generator fills one model per unit it can hold in memory (a building of a portfolio) and
 * writes it before starting the next, so output size is not bounded by memory.
 *
 * Each relationship is recorded once, in its forward direction (`hasPart`, `hasPoint`, `feeds`,
 * `hasLocation`), with a flag saying whether the file states it the other way round
 * (`o isPartOf s`): real Brick models do both, and the service must read either
 * (docs/brick-mapping.md, "Rule by rule").
 * The stated triple is written in the block of the subject that states it.
 */
import {
  ifcReference,
  label,
  literalProperties,
  quantity,
  timeseries,
  unit,
  type LiteralValue,
  type TimeseriesStyle,
} from './brick.ts';
import type { Term, TurtleWriter } from './turtle-writer.ts';

export type RelationName = 'hasPart' | 'hasPoint' | 'feeds' | 'hasLocation';

/** The Brick inverse of each forward relationship. */
export const INVERSE_RELATION: Readonly<Record<RelationName, string>> = {
  hasPart: 'isPartOf',
  hasPoint: 'isPointOf',
  feeds: 'isFedBy',
  hasLocation: 'isLocationOf',
};

/** Order in which relationship predicates appear inside a subject block. */
export const RELATION_PREDICATE_ORDER: readonly string[] = [
  'hasPart',
  'isPartOf',
  'hasLocation',
  'isLocationOf',
  'feeds',
  'isFedBy',
  'hasPoint',
  'isPointOf',
];

export interface ModelQuantity {
  /** e.g. `brick:area` */
  predicate: Term;
  value: number;
  /** QUDT local name, e.g. `M2` */
  unit: string;
}

export interface ModelEntity<K extends string = string> {
  /** Local name of the entity's IRI in the generator's namespace. */
  id: string;
  kind: K;
  /** Class terms such as `brick:AHU` or `rec:Level`. */
  classes: string[];
  label: string;
  literals?: Array<[string, LiteralValue]>;
  quantities?: ModelQuantity[];
  /** Points: QUDT unit local name. */
  unit?: string;
  /** Points: write the unit with the legacy `brick:hasUnits`. */
  legacyUnit?: boolean;
  ts?: { id: string; style: TimeseriesStyle };
  ifcId?: string;
  /** A `brick:Substance` term for `brick:hasOutputSubstance`. */
  outputSubstance?: Term;
  /** Equipment metadata, written as `controllerName`, `pointCount` (computed) and `virtual` properties. */
  equipment?: { controllerName: string; virtual: boolean };
}

export interface ModelWriteOptions {
  /** Names an entity id in the generator's namespace, e.g. `w.ns('pf')`. */
  entity: (id: string) => Term;
  /** Names a literal property, e.g. `w.ns('prop')`. */
  property: (name: string) => Term;
  /** Blank line before every entity except points (points follow their owner closely). */
  blankLineUnless?: (entity: ModelEntity) => boolean;
}

export class EntityModel<K extends string = string> {
  readonly entities: Array<ModelEntity<K>> = [];
  private readonly byId = new Map<string, ModelEntity<K>>();
  /** Stating subject → [predicate local name, object id]. */
  private readonly stated = new Map<string, Array<[string, string]>>();
  private readonly pointCounts = new Map<string, number>();
  private readonly relationKeys = new Set<string>();
  relationCount = 0;
  inverseRelationCount = 0;

  add(entity: ModelEntity<K>): ModelEntity<K> {
    if (this.byId.has(entity.id)) throw new Error(`Duplicate entity id ${entity.id}`);
    this.entities.push(entity);
    this.byId.set(entity.id, entity);
    return entity;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  get(id: string): ModelEntity<K> {
    const e = this.byId.get(id);
    if (!e) throw new Error(`Unknown entity id ${id}`);
    return e;
  }

  /** Records `s rel o`; with `inverse` the file states it as `o inverse(rel) s`. */
  relate(s: string, rel: RelationName, o: string, inverse = false): void {
    this.get(s);
    this.get(o);
    if (s === o) throw new Error(`Self relation ${s} ${rel}`);
    const key = `${s} ${rel} ${o}`;
    if (this.relationKeys.has(key)) throw new Error(`Duplicate relation ${key}`);
    this.relationKeys.add(key);
    const [subject, predicate, object] = inverse ? [o, INVERSE_RELATION[rel], s] : [s, rel, o];
    let list = this.stated.get(subject);
    if (!list) this.stated.set(subject, (list = []));
    list.push([predicate, object]);
    if (rel === 'hasPoint') this.pointCounts.set(s, (this.pointCounts.get(s) ?? 0) + 1);
    this.relationCount++;
    if (inverse) this.inverseRelationCount++;
  }

  /** Number of points of an entity (`hasPoint`, whichever way stated). */
  pointCount(id: string): number {
    return this.pointCounts.get(id) ?? 0;
  }

  /** Writes every entity, in the order added, as one subject block each. */
  write(w: TurtleWriter, options: ModelWriteOptions, beforeEntity?: (entity: ModelEntity<K>) => void): void {
    const blankLine = options.blankLineUnless ?? ((e: ModelEntity) => e.kind === 'point');
    for (const e of this.entities) {
      beforeEntity?.(e);
      if (!blankLine(e)) w.blankLine();
      const b = w.subject(options.entity(e.id)).a(...e.classes);
      label(b, e.label);
      const rels = (this.stated.get(e.id) ?? [])
        .slice()
        .sort(([a], [c]) => RELATION_PREDICATE_ORDER.indexOf(a) - RELATION_PREDICATE_ORDER.indexOf(c));
      for (const [predicate, object] of rels) b.add(`brick:${predicate}`, options.entity(object));
      if (e.outputSubstance) b.add('brick:hasOutputSubstance', e.outputSubstance);
      if (e.equipment) {
        literalProperties(b, options.property, [
          ['controllerName', e.equipment.controllerName],
          ['pointCount', this.pointCount(e.id)],
          ['virtual', e.equipment.virtual],
        ]);
      }
      if (e.literals) literalProperties(b, options.property, e.literals);
      for (const q of e.quantities ?? []) quantity(b, q.predicate, q.value, q.unit);
      if (e.unit) unit(b, e.unit, e.legacyUnit);
      if (e.ts) timeseries(b, e.ts.id, e.ts.style);
      if (e.ifcId) ifcReference(b, e.ifcId);
      b.end();
    }
  }
}
