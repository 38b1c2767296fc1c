/**
 * The checks SHACL does not make, over the model as written: classes the ontology does not know
 * (with the closest known names) or deprecates (with their replacements), links stated in the
 * inverse direction, points without equipment, and equipment without a location.
 */
import type N3 from 'n3';
import { displayClassName } from '../ontology/class-suggestions.ts';
import type { OntologyHierarchy } from '../ontology/hierarchy-extractor.ts';
import type { Ontology } from '../ontology/ontology.ts';
import { compactIri } from '../ontology/prefixes.ts';
import { BRICK, RDF, REC } from '../rdf/vocabulary.ts';
import type { Finding } from './validation-report.ts';
import { LabelIndex } from './label-index.ts';

const RDF_TYPE = `${RDF}type`;
/** Links from a point to what it is a point of: [forward predicates, inverse predicates]. */
const POINT_LINKS = [
  [`${BRICK}isPointOf`, `${REC}isPointOf`],
  [`${BRICK}hasPoint`, `${REC}hasPoint`],
] as const;
/** Links from equipment to its location, and (transitively) to the equipment it is part of. */
const LOCATION_LINKS = [
  [`${BRICK}hasLocation`, `${REC}locatedIn`],
  [`${BRICK}isLocationOf`, `${REC}isLocationOf`],
] as const;
const PART_LINKS = [[`${BRICK}isPartOf`], [`${BRICK}hasPart`]] as const;

/** A brick: or rec: class name with nothing after a further `#` or `/` (only those namespaces are checked). */
const inScope = (iri: string) => [BRICK, REC].some((ns) => iri.startsWith(ns) && !/[#/]/.test(iri.slice(ns.length)));

/** The property of an owl:inverseOf pair that Brick names as the inverse (isPointOf of hasPoint, isFedBy of feeds). */
export function isInverseName(property: string, partner: string): boolean {
  const inverse = (iri: string) => /^is[A-Z]/.test(iri.slice(Math.max(iri.lastIndexOf('#'), iri.lastIndexOf('/')) + 1));
  return inverse(property) && !inverse(partner);
}

/** The findings of every check. */
export function modelChecks(
  model: N3.Store,
  ontology: Ontology,
  hierarchy: OntologyHierarchy,
  labels: LabelIndex,
): Finding[] {
  return [
    ...classChecks(model, ontology, hierarchy, labels),
    ...inverseLinks(model, ontology, labels),
    ...pointsWithoutEquipment(model, ontology, labels),
    ...equipmentWithoutLocation(model, ontology, labels),
  ];
}

/** One finding per unknown or deprecated class, standing for all its entities. */
function classChecks(model: N3.Store, ontology: Ontology, hierarchy: OntologyHierarchy, labels: LabelIndex): Finding[] {
  const replacements = new Map<string, string[]>();
  for (const [deprecated, replacement] of hierarchy.isReplacedBy) {
    const known = replacements.get(deprecated);
    if (known) known.push(replacement);
    else replacements.set(deprecated, [replacement]);
  }
  const instances = new Map<string, string[]>();
  for (const q of model.getQuads(null, RDF_TYPE, null, null)) {
    if (q.object.termType !== 'NamedNode' || !inScope(q.object.value)) continue;
    if (ontology.isKnownClass(q.object.value) && !replacements.has(q.object.value)) continue;
    // Appended in place: a copy per instance made old models with thousands of `brick:Room`s quadratic.
    const ids = instances.get(q.object.value);
    if (ids) ids.push(labels.id(q.subject));
    else instances.set(q.object.value, [labels.id(q.subject)]);
  }
  return [...instances].map(([cls, entities]) => {
    const first = entities.sort()[0]!;
    const name = displayClassName(cls);
    const count = `${entities.length} ${entities.length === 1 ? 'entity' : 'entities'}`;
    const base = {
      focusNode: first,
      ...labels.focus(first),
      path: RDF_TYPE,
      value: { type: 'uri' as const, value: cls },
      occurrences: entities.length,
    };
    if (ontology.isKnownClass(cls)) {
      const instead = (replacements.get(cls) ?? []).map(displayClassName).sort();
      return {
        ...base,
        kind: 'deprecated-class',
        severity: 'Warning',
        suggestions: instead,
        message: `${name} is deprecated in Brick (${count}); use ${instead.join(' or ')} instead.`,
      };
    }
    const suggestions = ontology.suggest(cls);
    const hint = suggestions.length > 0 ? ` Closest known: ${suggestions.join(', ')}.` : '';
    return {
      ...base,
      kind: 'unknown-class',
      severity: 'Violation',
      suggestions,
      message: `${name} is not a class of the ontology (${count}).${hint}`,
    };
  });
}

/** One finding per property used in Brick's inverse direction, standing for all its links. */
function inverseLinks(model: N3.Store, ontology: Ontology, labels: LabelIndex): Finding[] {
  const findings: Finding[] = [];
  for (const predicate of model.getPredicates(null, null, null)) {
    const forward = ontology.inverseProperty(predicate.value);
    if (!forward || !isInverseName(predicate.value, forward)) continue;
    const links = model.getQuads(null, predicate, null, null);
    const first = links.map((q) => labels.id(q.subject)).sort()[0]!;
    findings.push({
      kind: 'inverse-relationship',
      severity: 'Info',
      focusNode: first,
      ...labels.focus(first),
      path: predicate.value,
      value: null,
      occurrences: links.length,
      message:
        `${links.length} ${links.length === 1 ? 'link is' : 'links are'} stated as ${compactIri(predicate.value)}, the inverse of ${compactIri(forward)}: ` +
        `Brick's tools add ${compactIri(forward)} by inference; the shapes were checked as if it were stated (the service reads both directions).`,
    });
  }
  return findings;
}

/** Entities of a kind by their asserted classes. */
function entitiesOfKind(model: N3.Store, ontology: Ontology, kind: 'Point' | 'Equipment'): Set<string> {
  const classes = ontology.kindClasses(kind);
  const out = new Set<string>();
  for (const q of model.getQuads(null, RDF_TYPE, null, null)) if (classes.has(q.object.value)) out.add(q.subject.value);
  return out;
}

/** The entities linked to `entity` by `links` ([predicates from it, predicates to it]). */
function linked(model: N3.Store, entity: string, links: readonly (readonly string[])[]): string[] {
  const [out, into] = links;
  return [
    ...out!.flatMap((p) => model.getObjects(entity, p, null)),
    ...into!.flatMap((p) => model.getSubjects(p, entity, null)),
  ].map((t) => t.value);
}

function pointsWithoutEquipment(model: N3.Store, ontology: Ontology, labels: LabelIndex): Finding[] {
  const equipment = ontology.kindClasses('Equipment');
  const kinded = new Set(
    [...(['Location', 'Zone', 'System', 'Point', 'Building'] as const)].flatMap((k) => [...ontology.kindClasses(k)]),
  );
  // What a point is of counts as equipment by class, or by the kind fallback (a thing with points and no other
  // kind; docs/brick-mapping.md, "Kinds add up").
  const isEquipment = (iri: string) => {
    const types = model.getObjects(iri, RDF_TYPE, null).map((t) => t.value);
    return types.some((t) => equipment.has(t)) || !types.some((t) => kinded.has(t));
  };
  return [...entitiesOfKind(model, ontology, 'Point')]
    .filter((point) => !linked(model, point, POINT_LINKS).some(isEquipment))
    .map((point) => {
      const of = linked(model, point, POINT_LINKS);
      const where =
        of.length > 0
          ? ` It is a point of ${of
              .map((e) => labels.label(e) ?? compactIri(e))
              .sort()
              .join(', ')} only.`
          : '';
      return {
        kind: 'point-without-equipment',
        severity: 'Warning',
        focusNode: point,
        ...labels.focus(point),
        path: `${BRICK}isPointOf`,
        value: null,
        message: `The point is not a point of any equipment (brick:isPointOf / brick:hasPoint).${where}`,
      } satisfies Finding;
    });
}

function equipmentWithoutLocation(model: N3.Store, ontology: Ontology, labels: LabelIndex): Finding[] {
  const located = new Map<string, boolean>();
  // Its own location, else that of the equipment it is part of (docs/brick-mapping.md, `Equipment.location`).
  const hasLocation = (entity: string, seen: Set<string>): boolean => {
    const known = located.get(entity);
    if (known !== undefined) return known;
    if (seen.has(entity)) return false;
    seen.add(entity);
    const result =
      linked(model, entity, LOCATION_LINKS).length > 0 ||
      linked(model, entity, PART_LINKS).some((whole) => hasLocation(whole, seen));
    located.set(entity, result);
    return result;
  };
  return [...entitiesOfKind(model, ontology, 'Equipment')]
    .filter((e) => !hasLocation(e, new Set()))
    .map((e) => ({
      kind: 'equipment-without-location',
      severity: 'Warning',
      focusNode: e,
      ...labels.focus(e),
      path: `${BRICK}hasLocation`,
      value: null,
      message:
        'The equipment has no location (brick:hasLocation / brick:isLocationOf), nor does any equipment it is part of.',
    }));
}
