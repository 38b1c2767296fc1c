/**
 * Brick-flavoured helpers on top of the Turtle writer: the usual prefixes, labels, units, timeseries
 * references in their several real-world styles, IFC references, Brick entity properties and plain
 * literal properties. See docs/brick-mapping.md (`timeseriesId`, `externalReferences`) for how the service
 * reads them.
 */
import { isValidIfcGlobalId } from './ifc-guid.ts';
import {
  BlankNode,
  blank,
  booleanLiteral,
  decimalLexical,
  integerLiteral,
  stringLiteral,
  typedLiteral,
  type PrefixMap,
  type SubjectBlock,
  type Term,
  type TurtleWriter,
} from './turtle-writer.ts';

export const NS = {
  brick: 'https://brickschema.org/schema/Brick#',
  rec: 'https://w3id.org/rec#',
  ref: 'https://brickschema.org/schema/Brick/ref#',
  unit: 'http://qudt.org/vocab/unit/',
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  skos: 'http://www.w3.org/2004/02/skos/core#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  owl: 'http://www.w3.org/2002/07/owl#',
} as const;

/** The standard prefixes used by the helpers below, followed by the generator's own ones. */
export function brickPrefixes(extra: PrefixMap = {}): PrefixMap {
  const { brick, rec, ref, unit, rdfs, skos, xsd } = NS;
  return { brick, rec, ref, unit, rdfs, skos, xsd, ...extra };
}

/** How a point's timeseries id is attached (the service reads all of these: docs/brick-mapping.md, `timeseriesId`). */
export type TimeseriesStyle =
  /** `ref:hasExternalReference [ a ref:TimeseriesReference ; ref:hasTimeseriesId "…" ]` (Brick 1.3+) */
  | 'ref'
  /** `ref:hasTimeseriesReference [ a ref:TimeseriesReference ; ref:hasTimeseriesId "…" ]` */
  | 'ref-timeseries-reference'
  /** `brick:timeseries [ brick:hasTimeseriesId "…" ]` (Brick 1.2) */
  | 'brick-1.2'
  /** no timeseries */
  | 'none';

export function label(block: SubjectBlock, text: string): SubjectBlock {
  return block.add('rdfs:label', stringLiteral(text));
}

/** `brick:hasUnit unit:X` (or the legacy `brick:hasUnits`). */
export function unit(block: SubjectBlock, qudtLocalName: string, legacyPredicate = false): SubjectBlock {
  if (!/^[A-Za-z0-9_-]+$/.test(qudtLocalName)) throw new Error(`Bad QUDT unit name: ${qudtLocalName}`);
  return block.add(legacyPredicate ? 'brick:hasUnits' : 'brick:hasUnit', `unit:${qudtLocalName}`);
}

export function timeseries(block: SubjectBlock, timeseriesId: string, style: TimeseriesStyle = 'ref'): SubjectBlock {
  const id = stringLiteral(timeseriesId);
  switch (style) {
    case 'ref':
      return block.add(
        'ref:hasExternalReference',
        blank(['a', 'ref:TimeseriesReference'], ['ref:hasTimeseriesId', id]),
      );
    case 'ref-timeseries-reference':
      return block.add(
        'ref:hasTimeseriesReference',
        blank(['a', 'ref:TimeseriesReference'], ['ref:hasTimeseriesId', id]),
      );
    case 'brick-1.2':
      return block.add('brick:timeseries', blank(['brick:hasTimeseriesId', id]));
    case 'none':
      return block;
  }
}

/** An IFC reference; with `project`, its `ref:hasIfcProjectReference` (Brick 1.4's shapes require one). */
export function ifcReferenceNode(globalId: string, project?: Term): BlankNode {
  if (!isValidIfcGlobalId(globalId)) throw new Error(`Not a valid IFC GlobalId: ${globalId}`);
  const pairs: Array<readonly [Term, Term]> = [
    ['a', 'ref:IFCReference'],
    ['ref:ifcGlobalID', stringLiteral(globalId)],
  ];
  if (project) pairs.push(['ref:hasIfcProjectReference', project]);
  return blank(...pairs);
}

/** `ref:hasExternalReference [ a ref:IFCReference ; ref:ifcGlobalID "…" ; ref:hasIfcProjectReference project ]` */
export function ifcReference(block: SubjectBlock, globalId: string, project?: Term): SubjectBlock {
  return block.add('ref:hasExternalReference', ifcReferenceNode(globalId, project));
}

/** What a `ref:ifcProject` must state: `ref:ifcProjectID "…" ; ref:ifcFileLocation "…"`. */
export function ifcProject(block: SubjectBlock, projectGlobalId: string, fileLocation: string): SubjectBlock {
  if (!isValidIfcGlobalId(projectGlobalId)) throw new Error(`Not a valid IFC GlobalId: ${projectGlobalId}`);
  return block
    .add('ref:ifcProjectID', stringLiteral(projectGlobalId))
    .add('ref:ifcFileLocation', stringLiteral(fileLocation));
}

/**
 * A Brick entity property with a decimal value and a unit:
 * `brick:area [ brick:value "42.0"^^xsd:decimal ; brick:hasUnit unit:M2 ]`.
 */
export function quantity(
  block: SubjectBlock,
  predicate: Term,
  value: number,
  qudtUnit: string,
  fractionDigits = 1,
): SubjectBlock {
  return block.add(
    predicate,
    blank(
      ['brick:value', typedLiteral(decimalLexical(value, fractionDigits), 'xsd:decimal')],
      ['brick:hasUnit', `unit:${qudtUnit}`],
    ),
  );
}

export type LiteralValue = string | number | boolean;

/** A literal term: strings quoted, safe integers as xsd:integer, other numbers as xsd:decimal, booleans. */
export function literal(value: LiteralValue): Term {
  if (typeof value === 'boolean') return booleanLiteral(value);
  if (typeof value === 'number') {
    return Number.isSafeInteger(value) ? integerLiteral(value) : typedLiteral(String(value), 'xsd:decimal');
  }
  return stringLiteral(value);
}

/** Literal-valued properties `predicate value` for each entry, in the given order. */
export function literalProperties(
  block: SubjectBlock,
  makePredicate: (name: string) => Term,
  properties: ReadonlyArray<readonly [string, LiteralValue]>,
): SubjectBlock {
  for (const [name, value] of properties) block.add(makePredicate(name), literal(value));
  return block;
}

export interface PointSpec {
  subject: Term;
  /** Class terms, e.g. `brick:Zone_Air_Temperature_Sensor`. */
  classes: Term[];
  label: string;
  /** QUDT local name, e.g. `DEG_C`. */
  unit?: string;
  legacyUnitPredicate?: boolean;
  timeseriesId?: string;
  timeseriesStyle?: TimeseriesStyle;
  /** Written as `point brick:isPointOf owner` (the owner then omits `brick:hasPoint point`). */
  isPointOf?: Term;
  /** Extra pairs (e.g. custom literal properties). */
  extra?: ReadonlyArray<readonly [Term, Term]>;
}

/** Write one point block. Returns the number of triples written. */
export function writePoint(writer: TurtleWriter, spec: PointSpec): number {
  const before = writer.tripleCount;
  const b = writer.subject(spec.subject).a(...spec.classes);
  label(b, spec.label);
  if (spec.unit) unit(b, spec.unit, spec.legacyUnitPredicate);
  if (spec.isPointOf) b.add('brick:isPointOf', spec.isPointOf);
  if (spec.timeseriesId !== undefined) timeseries(b, spec.timeseriesId, spec.timeseriesStyle ?? 'ref');
  for (const [p, o] of spec.extra ?? []) b.add(p, o);
  b.end();
  return writer.tripleCount - before;
}
