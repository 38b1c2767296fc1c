import { readFileSync } from 'node:fs';

/** QUDT's unit symbols by local name, as `npm run build:units` derives them (ontology/qudt-unit-symbols.json). */
const SYMBOLS_FILE = new URL('../../ontology/qudt-unit-symbols.json', import.meta.url);
const UNIT_NAMESPACE = 'http://qudt.org/vocab/unit/';

let symbols: ReadonlyMap<string, string> | undefined;
// Read on first use: a process that never asks for a symbol does not hold the table.
const table = () =>
  (symbols ??= new Map(
    Object.entries((JSON.parse(readFileSync(SYMBOLS_FILE, 'utf8')) as { symbols: Record<string, string> }).symbols),
  ));

/** A QUDT unit's symbol (`unit:DEG_C` → `°C`); null for an IRI outside QUDT's units or a unit without one. */
export function unitSymbol(unitIri: string): string | null {
  return unitIri.startsWith(UNIT_NAMESPACE) ? (table().get(unitIri.slice(UNIT_NAMESPACE.length)) ?? null) : null;
}
