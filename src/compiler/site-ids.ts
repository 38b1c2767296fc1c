/**
 * Entity ids (docs/brick-mapping.md, "Ids"): GraphQL clients cache objects by type and `id`, so an id
 * names one entity of its site. An entity's id is its IRI's local name (after the last `#` or `/`)
 * where no other entity of the site has that local name; where several share it (a portfolio that
 * names its IRIs per building: `…/b1/ahu-1`, `…/b3/ahu-1`), the shortest suffix of the IRI, cut
 * after a `/`, `#` or `:`, that no other entity's IRI ends with (`b1/ahu-1`), else the full IRI.
 *
 * An id argument names the entity whose IRI it is, or the entities whose IRI ends with it right
 * after one of those separators (a plain local name: after `#` or `/`, so `ahu-1` names every
 * entity with that local name), which is how every id the service answers selects its entity.
 */
import { isAbsoluteIri } from '../rdf/iri.ts';
import {
  aggregate,
  bind,
  filter,
  graph,
  group,
  integer,
  namedNode,
  op,
  select,
  triple,
  union,
  variable,
  type SelectQuery,
  type VariableTerm,
} from '../rdf/sparql-algebra.ts';
import { RDF } from '../rdf/vocabulary.ts';
import { localName } from '../rdf/vocabulary.ts';
import { ALL_PATHS, ID_CUTS, endsAtCut, localNameOf } from './sparql-patterns.ts';

/**
 * The suffixes an entity's id can be, shortest first: its local name, then the IRI after each
 * earlier cut. A suffix that reads as an absolute IRI (`site:b1/ahu-1`) is skipped: an argument
 * in that form is taken for the full IRI.
 */
function idSuffixes(entity: string): string[] {
  const name = localName(entity);
  const suffixes = [name];
  for (let cut = entity.length - name.length - 2; cut >= 0; cut--) {
    if (!ID_CUTS.has(entity[cut]!)) continue;
    const suffix = entity.slice(cut + 1);
    if (!isAbsoluteIri(suffix)) suffixes.push(suffix);
  }
  return suffixes;
}

/** The ids of one site's entities, from the local names two or more of them share. */
export class SiteIds {
  /** How many entities of a shared local name each of their suffixes ends, per local name, counted when first asked. */
  private readonly suffixCounts = new Map<string, Map<string, number>>();

  /** `shared`: each local name that two or more entities of the site have, with their IRIs. */
  constructor(private readonly shared: ReadonlyMap<string, ReadonlySet<string>>) {}

  /** A site whose local names are all unique. */
  static readonly UNIQUE = new SiteIds(new Map());

  /** Each shared local name with its IRIs: what `new SiteIds` takes, as plain lists (to be kept as JSON). */
  sharedNames(): Array<[string, string[]]> {
    return [...this.shared].map(([name, iris]) => [name, [...iris]]);
  }

  /** The id of the entity `entity` (its IRI). */
  idOf(entity: string): string {
    const name = localName(entity);
    const group = this.shared.size === 0 ? undefined : this.shared.get(name);
    if (!group) return name;
    const counts = this.countsOf(name, group);
    // An entity the list lacks (one just added, on an external store's cached list) counts as one more.
    const own = group.has(entity) ? 1 : 0;
    return idSuffixes(entity).find((suffix) => (counts.get(suffix) ?? 0) === own) ?? entity;
  }

  /**
   * The entities of a shared local name that an id argument names (not a full IRI: the caller
   * binds that directly); undefined when its local name is not shared, so the site's list does
   * not know the one entity that may have it.
   */
  named(id: string): string[] | undefined {
    const group = this.shared.get(localName(id));
    if (!group) return undefined;
    return [...group].filter((entity) => (/[#/]/.test(id) ? endsAtCut(entity, id) : true));
  }

  private countsOf(name: string, group: ReadonlySet<string>): Map<string, number> {
    let counts = this.suffixCounts.get(name);
    if (!counts) {
      counts = new Map();
      for (const entity of group)
        for (const suffix of idSuffixes(entity)) counts.set(suffix, (counts.get(suffix) ?? 0) + 1);
      this.suffixCounts.set(name, counts);
    }
    return counts;
  }
}

/**
 * The site's shared local names, each with the IRIs that have it (space-separated: an IRI holds
 * no space). The site's entities are its typed subjects and the untyped ones the kind fallback finds
 * (the ends of point and location links), the same on every store: one scan of them, grouped by
 * the store (120–340 ms at 100k triples in Oxigraph; docs/brick-mapping.md).
 */
export function sharedNamesQuery(site: string): SelectQuery {
  const { point, located } = ALL_PATHS;
  const [e, t, x, n, es] = ['e', 't', 'x', 'n', 'es'].map((name) => variable(name)) as [
    VariableTerm,
    VariableTerm,
    VariableTerm,
    VariableTerm,
    VariableTerm,
  ];
  const entities = select({
    variables: [e],
    distinct: true,
    where: [
      graph(
        namedNode(site),
        union([triple(e, namedNode(`${RDF}type`), t), triple(e, point, x), triple(x, point, e), triple(x, located, e)]),
        filter(op('isiri', e)),
      ),
    ],
  });
  return select({
    variables: [n, [aggregate('group_concat', op('str', e), { separator: ' ' }), es]],
    where: [group(entities), bind(localNameOf(e), n)],
    group: [n],
    having: [op('>', aggregate('count', e), integer(1))],
  });
}
