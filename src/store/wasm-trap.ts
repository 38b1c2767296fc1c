import oxigraph from 'oxigraph';

/**
 * Whether an error is a trap of a WebAssembly engine (Oxigraph): an out-of-bounds access,
 * `unreachable`, a stack overflow inside it. The instance is in no known state after one, so the
 * thread that holds it must end.
 */
export function isWasmTrap(error: unknown): boolean {
  return (
    error instanceof WebAssembly.RuntimeError || (error instanceof RangeError && /call stack/i.test(error.message))
  );
}

/**
 * Whether this thread's Oxigraph still reads a triple. A trap that a caller caught and wrapped
 * (parseTriples reports every parser failure as a syntax error) leaves the instance unable to.
 */
export function oxigraphIntact(): boolean {
  try {
    return [...oxigraph.parse('<urn:a> <urn:b> <urn:c> .', { format: 'application/n-triples' })].length === 1;
  } catch {
    return false;
  }
}
