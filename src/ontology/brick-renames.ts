import { readFileSync } from 'node:fs';
import { BRICK } from './prefixes.ts';

/** The tables `npm run build:ontology` derives from Brick's 1.0.x → 1.1 conversion tables (ontology/brick-1.0-renames.json). */
interface RenameTables {
  readonly classes: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
  readonly relations: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

const TABLES_FILE = new URL('../../ontology/brick-1.0-renames.json', import.meta.url);

// A Brick class IRI of any vintage: the unversioned namespace (Brick 1.0 models used it too, and
// 1.2 on), or a versioned one (`…/schema/1.0.3/Brick#`, `…/1.1/Brick#`), over http or https.
const BRICK_CLASS = /^https?:\/\/brickschema\.org\/schema\/(?:(\d+(?:\.\d+)+)\/)?Brick#([^#/]+)$/;

/**
 * Reads Brick class IRIs of older vintages as Brick 1.4 does: an IRI in a versioned namespace is the
 * class of the same local name, unless Brick 1.1 renamed a 1.0 name (`Zone_Temperature_Sensor` →
 * `Zone_Air_Temperature_Sensor`), which Brick's conversion tables record; from 1.1 on, renames are
 * `brick:isReplacedBy` chains in the ontology itself, which class-graph.ts follows.
 */
export class BrickRenames {
  private constructor(private readonly tables: RenameTables) {}

  /** The tables shipped in ontology/. */
  static load(): BrickRenames {
    return new BrickRenames(JSON.parse(readFileSync(TABLES_FILE, 'utf8')) as RenameTables);
  }

  /** Relations Brick 1.1 renamed, per 1.0 version: old local name → new (`isLocatedIn` → `hasLocation`). */
  get relations(): RenameTables['relations'] {
    return this.tables.relations;
  }

  /**
   * The unversioned Brick class IRIs an IRI of another Brick vintage stands for, in Brick's order
   * (a few 1.0 classes became two); empty for an IRI outside Brick's class namespaces. Whether the
   * ontology knows them is the caller's question.
   */
  candidates(iri: string): string[] {
    const match = BRICK_CLASS.exec(iri);
    if (!match) return [];
    const [, version, name] = match as unknown as [string, string | undefined, string];
    const { classes } = this.tables;
    // Unversioned: a 1.0 model may have written either version's names there.
    const renamed =
      version === undefined ? (classes['1.0.3']?.[name] ?? classes['1.0.2']?.[name]) : classes[version]?.[name];
    return (renamed ?? [name]).map((local) => BRICK + local);
  }
}
