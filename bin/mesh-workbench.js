#!/usr/bin/env node
// Entry point of `npx mesh-workbench`: lets Node load the TypeScript sources through tsx,
// then runs the CLI.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
await main();
