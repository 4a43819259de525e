import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { cli, FIXTURES } from './helpers.ts';
import { KINDS } from '../../src/core/document/kinds.ts';
import { loadCorpus } from '../../scripts/conformance/webhookCorpus.ts';

// `mesh-workbench validate`: istioctl validate -f. Every expected text below is what the real
// istioctl (the release we follow, built by `npm run oracle -- build`) printed for the same
// command in tests/fixtures/cli/validate/, recorded as is. istioctl writes all of it to stderr.
const DIR = `${FIXTURES}validate`;
const run = (args: string[], stdin?: string) => cli(['validate', ...args], { cwd: DIR, ...(stdin !== undefined ? { stdin } : {}) });
const fixture = (name: string) => readFileSync(`${DIR}/${name}`, 'utf8');

const DOCS = 'https://istio.io/v1.30/docs/';
const W1_WARNINGS =
  "\n\t* DestinationRule//dr: consistent hash MinimumRingSize is deprecated, use ConsistentHashLB's RingHash configuration instead" +
  '\n\t* Sidecar/bar/sc: sidecar: workload selector specified without labels, will be applied to all services in namespace' +
  '\n\t* Sidecar/bar/sc: duplicated egress host: ./a.com\n';
const ERRORS_YAML =
  'Error: 3 errors occurred:\n' +
  '\t* VirtualService//bad: http, tcp or tls must be provided in virtual service\n' +
  '\t* Gateway//g: short names (non FQDN) are not allowed\n' +
  '\t* Gateway//g: port is required\n\n\n';

describe('validate: files', () => {
  it('a valid file: `"FILE" is valid` on stderr, exit 0', async () => {
    const r = await run(['-f', 'valid.yaml']);
    expect(r).toEqual({ code: 0, stdout: '', stderr: '"valid.yaml" is valid\n' });
  });

  it('webhook warnings: listed under the file with Kind/namespace/name, exit 0', async () => {
    const r = await run(['-f', 'warnings.yaml']);
    expect(r).toEqual({ code: 0, stdout: '', stderr: `"warnings.yaml" has warnings: ${W1_WARNINGS}\n` });
  });

  it('webhook errors: go-multierror text after "Error: ", exit 1', async () => {
    const r = await run(['--filename', 'errors.yaml']);
    expect(r).toEqual({ code: 1, stdout: '', stderr: ERRORS_YAML });
  });

  it('several files (repeated -f): one line each; warnings still shown when another file fails', async () => {
    // istioctl keeps the files in a Go map, so its order varies from run to run; ours is the order given.
    const ok = await run(['-f', 'valid.yaml', '-f', 'warnings.yaml']);
    expect(ok).toEqual({ code: 0, stdout: '', stderr: `"valid.yaml" is valid\n"warnings.yaml" has warnings: ${W1_WARNINGS}\n` });
    const bad = await run(['-f', 'warnings.yaml,errors.yaml']);
    expect(bad).toEqual({ code: 1, stdout: '', stderr: `"warnings.yaml" has warnings: ${W1_WARNINGS}\n${ERRORS_YAML}` });
  });

  it('a directory: walked for .json/.yaml/.yml only, other files skipped silently', async () => {
    const r = await run(['-f', 'dir']);
    expect(r.code).toBe(0);
    // Same lines as istioctl (whose order varies); dir/notes.txt is not read.
    expect(r.stderr).toBe(`"dir/a.yaml" is valid\n"dir/sub/b.yml" has warnings: ${W1_WARNINGS}\n`);
  });

  it('a file named explicitly is read whatever its extension', async () => {
    const r = await run(['-f', 'dir/notes.txt']);
    expect(r.code).toBe(1);
    // istioctl: `... yaml: line 1: did not find expected ',' or ']'` (the reason is go-yaml's; ours is our parser's).
    expect(r.stderr).toMatch(
      /^Error: 1 error occurred:\n\t\* failed to decode file dir\/notes\.txt: {2}error converting YAML to JSON: yaml: line 1: .+\n\n\n$/,
    );
  });

  it('stdin: "validation succeed", or the bare warning list; listing stops at stdin', async () => {
    expect(await run(['-f', '-'], fixture('valid.yaml'))).toEqual({ code: 0, stdout: '', stderr: 'validation succeed\n' });
    expect(await run(['-f', '-'], fixture('warnings.yaml'))).toEqual({ code: 0, stdout: '', stderr: W1_WARNINGS });
    expect(await run(['-f', '-,errors.yaml'], fixture('warnings.yaml'))).toEqual({ code: 1, stdout: '', stderr: `${W1_WARNINGS}${ERRORS_YAML}` });
  });

  it('unreadable inputs: cannot stat / no -f', async () => {
    expect(await run(['-f', 'nope.yaml'])).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: 1 error occurred:\n\t* cannot stat file "nope.yaml": stat nope.yaml: no such file or directory\n\n\n',
    });
    const none =
      "Error: error: you must specify resources by --filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n";
    expect(await run([])).toEqual({ code: 1, stdout: '', stderr: none });
    expect(await run(['-f', ''])).toEqual({ code: 1, stdout: '', stderr: none });
  });

  it('command-line errors exit 64; --help goes to stdout; -x and the v alias are accepted', async () => {
    expect(await run(['extra', '-f', 'valid.yaml'])).toMatchObject({ code: 64, stderr: 'Error: unknown command "extra" for "mesh-workbench validate"\n' });
    expect(await run(['--bogus'])).toEqual({ code: 64, stdout: '', stderr: 'Error: unknown flag: --bogus\n' });
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('-f, --filename strings');
    expect(await run(['-f', 'valid.yaml', '-x=false'])).toMatchObject({ code: 0, stderr: '"valid.yaml" is valid\n' });
    expect(await cli(['v', '-f', 'valid.yaml'], { cwd: DIR })).toMatchObject({ code: 0, stderr: '"valid.yaml" is valid\n' });
  });
});

describe('validate: decoding and kinds', () => {
  it('a document that is not a mapping ends the file', async () => {
    expect(await run(['-f', 'not-a-map.yaml'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Error: 1 error occurred:\n\t* failed to decode file not-a-map.yaml:  error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}\n\n\n',
    });
  });

  it('repeated keys: go-yaml strict error, lines counted in the document', async () => {
    expect(await run(['-f', 'duplicate-keys.yaml'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Error: 1 error occurred:\n\t* failed to decode file duplicate-keys.yaml:  error converting YAML to JSON: yaml: unmarshal errors:\n  line 3: key "kind" already set in map\n\n\n',
    });
  });

  it('unknown top-level fields on Istio kinds; version aliases; unknown Istio kinds, Gateway API and other kinds pass', async () => {
    expect(await run(['-f', 'kinds.yaml'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Error: 2 errors occurred:\n\t* DestinationRule//t4: unknown field "extra"\n\t* VirtualService/shop/old-version: http, tcp or tls must be provided in virtual service\n\n\n',
    });
  });

  it("an unknown top-level spec field: jsonpb's error, and the webhook does not run; proto names are accepted", async () => {
    expect(await run(['-f', 'spec-fields.yaml'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Error: 2 errors occurred:\n' +
        '\t* VirtualService/shop/typo: cannot parse proto message: unknown field "htp" in istio.networking.v1alpha3.VirtualService\n' +
        '\t* EnvoyFilter/istio-system/old-filters: cannot parse proto message: unknown field "filters" in istio.networking.v1alpha3.EnvoyFilter\n\n\n',
    });
  });

  it('jsonpb decode errors (types, enum values, nested unknown fields); labels that are not strings do not matter', async () => {
    expect(await run(['-f', 'decode.yaml'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Error: 7 errors occurred:\n' +
        '\t* DestinationRule//t2: cannot parse proto message: json: cannot unmarshal number into Go value of type string\n' +
        '\t* DestinationRule//t3: cannot parse proto message: unknown value "\\"NOPE\\"" for enum istio.networking.v1alpha3.ClientTLSSettings.TLSmode\n' +
        "\t* VirtualService//t8: cannot parse proto message: invalid character 'x' looking for beginning of value\n" +
        '\t* VirtualService//t9: cannot parse proto message: unknown field "bogus" in istio.networking.v1alpha3.Destination\n' +
        '\t* VirtualService//t10: cannot parse proto message: json: cannot unmarshal string into Go value of type []json.RawMessage\n' +
        '\t* ServiceEntry//t11: cannot parse proto message: json: cannot unmarshal number 99999999999 into Go value of type uint32\n' +
        '\t* DestinationRule/ns/dr: cannot parse proto message: unknown field "bogusNested" in istio.networking.v1alpha3.ConnectionPoolSettings.TCPSettings\n\n\n',
    });
  });

  it('Services: port names and appProtocol; Deployments: app/version labels notice', async () => {
    expect(await run(['-f', 'k8s.yaml'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        `deployment "d/:" may not provide Istio metrics and telemetry labels: map["app":"x"]. See ${DOCS}ops/deployment/requirements/\n` +
        'Error: 3 errors occurred:\n' +
        `\t* Service//s: service "s//:" has an unnamed port. This is not recommended, See ${DOCS}ops/deployment/requirements/\n` +
        `\t* Service//s: service "s//:" port "foo-x" does not follow the Istio naming convention. See ${DOCS}ops/deployment/requirements/\n` +
        `\t* Service//s: service "s//:" doesn't follow Istio protocol selection. This is not recommended, See ${DOCS}ops/configuration/traffic-management/protocol-selection/\n\n\n`,
    });
  });

  it('a List: its Services and Deployments (not those in the Istio namespace, -i)', async () => {
    expect(await run(['-f', 'list.yaml'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Error: 2 errors occurred:\n' +
        `\t* List//: service "s2/x/:" port "" does not follow the Istio naming convention. See ${DOCS}ops/deployment/requirements/\n` +
        '\t* List//: .metadata.labels accessor error: contains non-string value in the map under key "b": true is of the type bool, expected string\n\n\n',
    });
    expect(await run(['-f', 'list.yaml', '-i', 'x'])).toEqual({
      code: 1,
      stdout: '',
      stderr: `Error: 1 error occurred:\n\t* List//: service "s1/istio-system/:" has an unnamed port. This is not recommended, See ${DOCS}ops/deployment/requirements/\n\n\n`,
    });
  });
});

describe('validate: rules that read labels and annotations', () => {
  it('istio.io/dry-run on an AuthorizationPolicy', async () => {
    expect(await run(['-f', 'dry-run.yaml'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Error: 1 error occurred:\n\t* AuthorizationPolicy/foo/ap: foo/ap has annotation istio.io/dry-run with invalid value (maybe): strconv.ParseBool: parsing "maybe": invalid syntax\n\n\n',
    });
  });

  it('istio.io/use-waypoint on a ServiceEntry', async () => {
    expect(await run(['-f', 'use-waypoint.yaml'])).toEqual({
      code: 1,
      stdout: '',
      stderr:
        'Error: 1 error occurred:\n\t* ServiceEntry//se: location MESH_INTERNAL with resolution type DYNAMIC_DNS is not supported when using waypoints\n\n\n',
    });
  });

  // The webhook corpus (Istio's validation_test.go tables) cases whose verdict depends on labels
  // or annotations, each as a manifest on stdin. istioctl gave the same verdict on each of these
  // (checked by hand against the oracle binary when this test was written).
  const cases = loadCorpus().filter((c) => c.labels || c.annotations);
  it('the corpus has such cases (dry-run, use-waypoint)', () => {
    expect(cases.length).toBeGreaterThanOrEqual(7);
  });
  for (const c of cases) {
    it(`${c.case} → ${c.valid ? 'valid' : 'invalid'}`, async () => {
      const info = (KINDS as Record<string, { group: string; version: string }>)[c.kind]!;
      const manifest = {
        apiVersion: `${info.group}/${info.version}`,
        kind: c.kind,
        metadata: {
          name: c.name ?? 'foo',
          namespace: c.namespace ?? 'bar',
          ...(c.labels ? { labels: c.labels } : {}),
          ...(c.annotations ? { annotations: c.annotations } : {}),
        },
        spec: c.spec,
      };
      const r = await run(['-f', '-'], JSON.stringify(manifest, null, 2));
      expect(r.code, r.stderr).toBe(c.valid ? 0 : 1);
      if (c.valid) expect(r.stderr === 'validation succeed\n' || r.stderr.startsWith('\n\t* ')).toBe(true);
      else expect(r.stderr).toMatch(new RegExp(`^Error: \\d+ errors? occurred:\\n\\t\\* ${c.kind}/${manifest.metadata.namespace}/${manifest.metadata.name}: `));
      for (const e of c.errors ?? []) expect(r.stderr).toContain(e);
    });
  }
});
