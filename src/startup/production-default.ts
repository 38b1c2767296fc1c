/**
 * NODE_ENV's default for the libraries that read it themselves, imported first by the entry points.
 * The service's configuration defaults to production (config.ts), but graphql-js decides once, when
 * it is loaded, from `process.env`: unset, it runs a checking `instanceof` on every field it
 * completes, 12% slower on a 1,900-entity answer (bench/results-*.md).
 */
process.env.NODE_ENV ??= 'production';
