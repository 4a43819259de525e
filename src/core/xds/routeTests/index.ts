// Route tests: a YAML file of requests with the destination each should reach, run through the
// request simulator against the generated Envoy config (format.ts reads, run.ts runs).
export * from './format.ts';
export * from './run.ts';
