// The folders `npm run mutate` mutates: each against what CI runs on it (the unit tests that
// exercise it, the fuzz regression corpus, the conformance parts and the fuzz smoke runs), and,
// for a large folder, groups of its files that each fit in a working session.
export const FOLDERS = {
  pki: {
    mutate: ['src/core/pki/**/*.ts'],
    // About 9,000 mutants, 5 to 10 hours here: run a group at a time (npm run mutate -- pki --group a).
    groups: {
      a: ['inspect', 'digest', 'index', 'lib', 'spiffe', 'base64', 'bytes', 'sig', 'openssl'],
      b: ['input', 'tables', 'der', 'crl', 'credential', 'names'],
      c: ['verify', 'cert', 'keys', 'oids'],
      d: ['istio', 'lints', 'generate', 'report', 'pem'],
    },
    tests: ['tests/fuzz/corpus.test.ts', 'tests/pki/**/*.test.ts', 'tests/analyzers/gateways/pki.test.ts', 'tests/queries/**/*.test.ts'],
    parts: ['certs'],
    fuzz: ['pki-decode', 'pki-inspect', 'pki-verify'],
  },
  share: {
    mutate: ['src/core/share/**/*.ts'],
    tests: ['tests/fuzz/corpus.test.ts', 'tests/share/**/*.test.ts', 'tests/pki/redactedInLink.test.ts', 'tests/state/reviewMode.test.ts'],
    parts: [],
    fuzz: ['redact', 'share-link'],
  },
  simulate: {
    mutate: ['src/core/xds/simulate.ts'],
    tests: ['tests/fuzz/corpus.test.ts', 'tests/xds/*.test.ts', 'tests/xds/authz/**/*.test.ts', 'tests/queries/**/*.test.ts'],
    parts: ['xds/simulation', 'xds/istioctl'],
    fuzz: ['xds-simulate'],
  },
  ambient: {
    mutate: ['src/core/ambient/**/*.ts'],
    tests: ['tests/fuzz/corpus.test.ts', 'tests/ambient/**/*.test.ts', 'tests/queries/**/*.test.ts', 'tests/cli/dataplane.test.ts', 'tests/xds/waypoint.test.ts', 'tests/xds/authz/**/*.test.ts'],
    parts: ['ambient'],
    fuzz: ['ambient'],
  },
};
