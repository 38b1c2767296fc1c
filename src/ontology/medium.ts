import { BRICK } from './prefixes.ts';

/** The values the `medium` argument takes (docs/errors.md, `UNKNOWN_MEDIUM`). */
export const MEDIUM_VALUES = ['AIR', 'WATER', 'HOT_WATER', 'CHILLED_WATER', 'CONDENSER_WATER', 'STEAM', 'GAS'] as const;

/** One of MEDIUM_VALUES. */
export type Medium = (typeof MEDIUM_VALUES)[number];

// Each value names the brick:Substance individual of the same name. GAS is brick:Gas, which in Brick 1.4
// is broader than Air, Steam and Natural_Gas, so a GAS filter also follows air and steam edges.
const MEDIUM_SUBSTANCES: Readonly<Record<Medium, string>> = {
  AIR: `${BRICK}Air`,
  WATER: `${BRICK}Water`,
  HOT_WATER: `${BRICK}Hot_Water`,
  CHILLED_WATER: `${BRICK}Chilled_Water`,
  CONDENSER_WATER: `${BRICK}Condenser_Water`,
  STEAM: `${BRICK}Steam`,
  GAS: `${BRICK}Gas`,
};

/** The brick:Substance IRI a medium value (any case) stands for; undefined for an unknown medium. */
export function resolveMedium(value: string): string | undefined {
  const key = value.toUpperCase();
  return Object.hasOwn(MEDIUM_SUBSTANCES, key) ? MEDIUM_SUBSTANCES[key as Medium] : undefined;
}
