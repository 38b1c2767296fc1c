import { closeSync, openSync, readSync } from 'node:fs';

/** A file as 1 MiB chunks, read as a streaming parser (Oxigraph's `load`/`parse`) asks for them. */
export function* fileChunks(path: string): Generator<Uint8Array> {
  const fd = openSync(path, 'r');
  try {
    yield* descriptorChunks(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * An open file, from where it is, as 1 MiB chunks; the caller closes it. A file opened before it
 * is read stays readable when it is removed meanwhile (a journal segment a write replaces).
 */
export function* descriptorChunks(fd: number): Generator<Uint8Array> {
  for (;;) {
    // A fresh buffer per chunk: the parser may still hold the previous one.
    const buffer = Buffer.allocUnsafe(1 << 20);
    const read = readSync(fd, buffer);
    if (read === 0) return;
    yield buffer.subarray(0, read);
  }
}
