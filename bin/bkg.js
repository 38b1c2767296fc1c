#!/usr/bin/env node
// `npx bkg …`: registers tsx so Node runs the TypeScript CLI as it is.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli/main.ts');
