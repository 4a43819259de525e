// The folders `npm run mutate` mutates: each against what CI runs on it (the unit tests that
// exercise it, the fuzz regression corpus, the conformance parts and the fuzz smoke runs), and,
// for a large folder, groups of its files that each fit in a working session.
export const FOLDERS = {
  pki: {
    mutate: ['src/core/pki/**/*.ts'],
    // About 9,000 mutants, 5 to 10 hours here: a group at a time (npm run mutate -- pki --group a).
    // Groups of about 500 lines (`file` or `file:from-to`, `file:from-` to its end), each a run of
    // 30 to 60 minutes on an otherwise idle machine.
    groups: {
      a: ['inspect', 'inspection', 'collect', 'chains', 'reportBuild'],
      b: ['scenarios', 'scenarioDetection'],
      c: ['input:1-453'],
      d: ['input:454-', 'inputLines'],
      e: ['verify'],
      f: ['cert'],
      g: ['istio'],
      h: ['lints', 'tables', 'digest', 'index', 'lib'],
      i: ['generate', 'report'],
      j: ['pem', 'keys', 'spiffe', 'base64'],
      k: ['oids', 'names', 'der'],
      l: ['crl', 'credential', 'openssl', 'sig', 'bytes', 'keyPairPem'],
    },
    tests: ['tests/fuzz/corpus.test.ts', 'tests/pki/**/*.test.ts', 'tests/analysis/analyzers/gateways/pki.test.ts', 'tests/queries/**/*.test.ts'],
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
    tests: [
      'tests/fuzz/corpus.test.ts',
      'tests/ambient/**/*.test.ts',
      'tests/queries/**/*.test.ts',
      'tests/cli/dataplane.test.ts',
      'tests/xds/waypoint.test.ts',
      'tests/xds/authz/**/*.test.ts',
    ],
    parts: ['ambient'],
    fuzz: ['ambient'],
  },
};

/** A group entry (`name`, `name:from-to` or `name:from-`) as the file and the lines it covers. */
export function groupEntry(entry) {
  const m = /^([\w.-]+)(?::(\d+)-(\d*))?$/.exec(entry);
  if (!m) throw new Error(`bad mutation group entry ${entry}`);
  return { name: m[1], from: m[2] ? Number(m[2]) : 1, to: m[3] ? Number(m[3]) : Infinity };
}
