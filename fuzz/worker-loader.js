// Entry of a fuzz worker thread: loads TypeScript through tsx (Node 20 does not apply the
// parent's `--import tsx` hooks to a worker's entry file), then runs the worker.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
