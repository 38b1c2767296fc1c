import { defineConfig } from 'vite';

// The viewer page, served by the service at /viewer (src/viewer/viewer-assets.ts). Everything it
// loads comes from the build or the service: the fragments worker is emitted as an asset, nothing
// is fetched from a CDN.
export default defineConfig({
  root: import.meta.dirname,
  base: '/viewer/',
  logLevel: 'warn',
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    // three.js, the fragments library and web-ifc's schema tables (@thatopen/components imports
    // web-ifc) make one ~6 MB chunk; it is cached for a year under its hashed name.
    chunkSizeWarningLimit: 8192,
    reportCompressedSize: false,
  },
});
