/** Orders strings by UTF-16 code units, so sorted output never depends on the machine's locale. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
