/**
 * The node flags the service runs with. They cannot be set from inside the process, so every way
 * of starting it passes them: `npm start` (package.json) and the image (docker/Dockerfile) spell
 * them out, test/unit/startup/node-flags.test.ts keeps those in step with this list, and the
 * scripts and tests that start the service pass this list.
 *
 * A 64 MiB young generation: with V8's default, the objects of a large answer outlived it and
 * garbage collection took ~11 ms of a 1,900-entity request; with this ~1.5 ms (docs/stores-and-scaling.md, "Running at scale").
 */
export const SERVICE_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
