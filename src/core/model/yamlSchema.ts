// The js-yaml configuration every YAML reader of the project agrees with: the fast reader
// builds the same values, the full path calls js-yaml with it, and the tests and the fuzzer
// compare against it.
import jsyaml from 'js-yaml';

const mergeType = (jsyaml as unknown as { types: { merge: jsyaml.Type } }).types.merge;

/**
 * js-yaml's core schema (no timestamps: Kubernetes keeps them as strings) with merge keys
 * (`<<`) resolved implicitly, as kubectl, PyYAML and js-yaml's default schema do. Passing
 * the merge type as a plain list would make it explicit only (`!!merge <<`).
 */
export const YAML_SCHEMA: jsyaml.Schema = jsyaml.CORE_SCHEMA.extend({ implicit: [mergeType] });

/** Options for `jsyaml.load`: js-yaml's own limits (nesting depth 100, 10,000 merged keys) stay in force. */
export const YAML_LOAD_OPTIONS: jsyaml.LoadOptions = { schema: YAML_SCHEMA };

/** The nesting limit js-yaml enforces with these options (its default `maxDepth`). */
export const MAX_YAML_DEPTH = 100;

/** js-yaml's load with the project's options; throws js-yaml's error on bad input. */
export function loadYaml(text: string, options: jsyaml.LoadOptions = {}): unknown {
  return jsyaml.load(text, { ...YAML_LOAD_OPTIONS, ...options });
}
