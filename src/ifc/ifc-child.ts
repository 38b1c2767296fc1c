/**
 * The IFC child process: `node --import tsx ifc-child.ts read <file.ifc> <dir>` writes
 * `<dir>/header.json` (schema, storeys), `<dir>/elements.ndjson` (one `[globalId, class, name,
 * storey, tag]` per line) and `<dir>/connections.ndjson` (one `[globalId, globalId]` per pair of
 * elements joined port to port); `convert <file.ifc> <file.frag>` writes the fragments file. It reads the IFC
 * file in chunks, never whole; what it parses lives in this process, which the service bounds
 * (run-ifc-child.ts). A failure ends it with status 1 and `{"error": "…"}` as the last line of stderr.
 */
import { closeSync, openSync, readSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { readIfc, webIfcDir, type ReadChunk } from './ifc-reader.ts';

/** web-ifc's reader over an open file: one buffer, reused, since web-ifc copies each chunk at once. */
function chunkReader(fd: number): ReadChunk {
  let buffer = new Uint8Array(64 * 1024);
  return (offset, size) => {
    if (buffer.length < size) buffer = new Uint8Array(size);
    return buffer.subarray(0, readSync(fd, buffer, 0, size, offset));
  };
}

/** Writes lines through a buffer, so a million elements cost a few hundred writes. */
function lineWriter(path: string) {
  const fd = openSync(path, 'w');
  let pending: string[] = [];
  let size = 0;
  const flush = () => {
    if (pending.length > 0) writeSync(fd, pending.join(''));
    pending = [];
    size = 0;
  };
  return {
    write(line: string) {
      pending.push(line, '\n');
      size += line.length + 1;
      if (size > 256 * 1024) flush();
    },
    close() {
      flush();
      closeSync(fd);
    },
  };
}

async function read(input: string, dir: string): Promise<void> {
  const fd = openSync(input, 'r');
  const elements = lineWriter(join(dir, 'elements.ndjson'));
  const connections = lineWriter(join(dir, 'connections.ndjson'));
  try {
    const header = await readIfc(
      chunkReader(fd),
      (e) => elements.write(JSON.stringify([e.globalId, e.ifcClass, e.name, e.storey, e.tag])),
      (pair) => connections.write(JSON.stringify(pair)),
    );
    elements.close();
    connections.close();
    writeFileSync(join(dir, 'header.json'), JSON.stringify(header));
  } finally {
    closeSync(fd);
  }
}

async function convert(input: string, output: string): Promise<void> {
  // Loaded here only: the library (with three.js) takes a second to load, which reading does without.
  const { IfcImporter } = await import('@thatopen/fragments');
  const fd = openSync(input, 'r');
  try {
    const importer = new IfcImporter();
    importer.wasm = { path: webIfcDir, absolute: true };
    const bytes = await importer.process({ readFromCallback: true, readCallback: chunkReader(fd) });
    writeFileSync(output, bytes);
  } finally {
    closeSync(fd);
  }
}

const [task, input, output] = process.argv.slice(2);
try {
  if (!input || !output || (task !== 'read' && task !== 'convert'))
    throw new Error('usage: ifc-child.ts read|convert <file.ifc> <output>');
  await (task === 'read' ? read(input, output) : convert(input, output));
} catch (error) {
  process.stderr.write(`\n${JSON.stringify({ error: error instanceof Error ? error.message : String(error) })}\n`);
  process.exitCode = 1;
}
