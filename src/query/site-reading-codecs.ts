/**
 * The site readings (`site-readers.ts`) as JSON and back, for keeping them across restarts
 * (`ReadingArchive`): maps and sets become lists of entries, `SiteIds` its shared names. A kept
 * reading is decoded as it was encoded by this very code: `SITE_READINGS_FORMAT` is part of the
 * context they are kept under, so a change of shape here leaves the old ones unread.
 */
import { SiteIds } from '../compiler/site-ids.ts';
import type { SiteProfile } from '../compiler/site-profile.ts';
import type { EntityKind, SiteClassStatements } from '../ontology/ontology.ts';

/** Changed whenever an encoding below changes. */
export const SITE_READINGS_FORMAT = 1;

/** How a reading is written as JSON and read back. */
export interface ReadingCodec<T> {
  /** The reading's name among a graph's kept readings. */
  readonly name: string;
  encode(value: T): unknown;
  decode(json: unknown): T;
}

interface ProfileJson {
  readonly untyped: Array<[EntityKind, string[]]>;
  readonly namespaces: string[] | null;
  readonly predicates: string[] | null;
  readonly plainIfcIds: boolean;
  readonly tags: Array<[string, string]> | null;
  readonly ids: Array<[string, string[]]>;
}

const idsOf = (shared: Array<[string, string[]]>) =>
  shared.length === 0 ? SiteIds.UNIQUE : new SiteIds(new Map(shared.map(([name, iris]) => [name, new Set(iris)])));

export const profileCodec: ReadingCodec<SiteProfile> = {
  name: 'profile',
  encode: (profile): ProfileJson => ({
    untyped: [...profile.untyped].map(([kind, list]) => [kind, [...list]]),
    namespaces: profile.namespaces ? [...profile.namespaces] : null,
    predicates: profile.predicates ? [...profile.predicates] : null,
    plainIfcIds: profile.plainIfcIds,
    tags: profile.tags ? [...profile.tags] : null,
    ids: profile.ids.sharedNames(),
  }),
  decode: (json) => {
    const kept = json as ProfileJson;
    return {
      untyped: new Map(kept.untyped),
      namespaces: kept.namespaces ?? undefined,
      predicates: kept.predicates ? new Set(kept.predicates) : undefined,
      plainIfcIds: kept.plainIfcIds,
      tags: kept.tags ? new Map(kept.tags) : undefined,
      ids: idsOf(kept.ids),
    };
  },
};

export const idsCodec: ReadingCodec<SiteIds> = {
  name: 'ids',
  encode: (ids) => ids.sharedNames(),
  decode: (json) => idsOf(json as Array<[string, string[]]>),
};

export const classStatementsCodec: ReadingCodec<SiteClassStatements> = {
  name: 'classes',
  encode: (statements) => statements,
  decode: (json) => json as SiteClassStatements,
};
