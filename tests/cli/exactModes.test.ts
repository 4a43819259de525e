// The examples of the "exact modes" issue, each in both modes. `--istioctl` expectations are
// istioctl's own output at the Istio commit we follow (istio.io/istio
// v0.0.0-20260827124520-eed52ebb66ad, `istioctl analyze --use-kube=false`, run on the same files;
// log time stamps replaced by <TS>). Workbench-mode expectations follow the API server and
// kubectl (cited per case); the workbench text of those findings is tested in
// tests/analysis/apiServerRejects.test.ts.
import { describe, expect, it } from 'vitest';
import { analyzeIn, filesDir, LOG_TIME_STAMP, type AnalyzeRun } from './analyzeFiles.ts';

async function analyze(files: Record<string, string>, args: string[]): Promise<AnalyzeRun> {
  const r = await analyzeIn(filesDir(files), [...args, ...Object.keys(files)]);
  return { ...r, stdout: r.stdout.replace(LOG_TIME_STAMP, '<TS>') };
}

const URI =
  'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: vs\nspec:\n  hosts: [reviews]\n  http:\n  - match:\n    - ignoreUriCase: "true"\n    route:\n    - destination:\n        host: reviews\n';

describe('a value jsonpb cannot decode: ignoreUriCase: "true"', () => {
  it('--istioctl: Error(s) adding files, the document is not analyzed, exit 65', async () => {
    const r = await analyze({ 'uri.yaml': URI }, ['--istioctl']);
    expect(r.exit).toBe(65);
    expect(r.stdout).toBe(
      '<TS>\twarn\tfile\terror processing uri.yaml[0]: failed parsing JSON for built-in type: json: cannot unmarshal string into Go struct field VirtualService.spec of type bool - skipping\n\n',
    );
    expect(r.stderr).toBe(
      'Error(s) adding files: 1 error occurred:\n\t* errors parsing content "uri.yaml": 1 error occurred:\n\t* error processing uri.yaml[0]: failed parsing JSON for built-in type: json: cannot unmarshal string into Go struct field VirtualService.spec of type bool\n\n\n\nNo validation issues found when analyzing namespace: default (but 1 file could not be parsed).\nError: Some files couldn\'t be parsed.\n',
    );
  });

  it('workbench: the API server refuses a string for a boolean (structural schema type check); never IST0106; exit 79', async () => {
    const r = await analyze({ 'uri.yaml': URI }, ['-o', 'json']);
    const messages = JSON.parse(r.stdout) as Array<{ code: string; message: string }>;
    expect(messages.map((m) => m.code)).toEqual(['MWB-API-SERVER-REJECTS']);
    expect(messages[0]!.message).toContain(
      'spec.http[0].match[0].ignoreUriCase: Invalid value: "string": spec.http[0].match[0].ignoreUriCase in body must be of type boolean: "string"',
    );
    expect(r.exit).toBe(79);
  });
});

// Istio's samples/tcp-echo gateway, with the app's Service and Deployment (so analyzers that need Services run
// in workbench mode). istioctl's file reader drops Services, so IngressGatewayPortAnalyzer is
// skipped there whatever the port; in workbench mode the assumed gateway offers the chart's
// ports and istioctl's placeholder ports (31400, 15443), and 9000 is on neither.
const GATEWAY = (port: number) =>
  `apiVersion: networking.istio.io/v1\nkind: Gateway\nmetadata:\n  name: tcp-echo-gateway\n  namespace: default\nspec:\n  selector:\n    istio: ingressgateway\n  servers:\n  - port:\n      number: ${port}\n      name: tcp\n      protocol: TCP\n    hosts:\n    - "*"\n---\napiVersion: v1\nkind: Service\nmetadata:\n  name: tcp-echo\n  namespace: default\nspec:\n  ports:\n  - {name: tcp, port: 9000}\n  selector: {app: tcp-echo}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: tcp-echo\n  namespace: default\nspec:\n  selector:\n    matchLabels: {app: tcp-echo}\n  template:\n    metadata:\n      labels: {app: tcp-echo}\n    spec:\n      containers:\n      - {name: tcp-echo, image: docker.io/istio/tcp-echo-server:1.3}\n`;

describe('the placeholder ingress gateway: samples/tcp-echo on port 31400', () => {
  it('--istioctl: no message on 31400 or 9000 (the analyzer needs Services and Pods: skipped)', async () => {
    for (const port of [31400, 9000]) {
      const r = await analyze({ [`gw${port}.yaml`]: GATEWAY(port) }, ['--istioctl']);
      expect(r).toEqual({ stdout: '\n', stderr: `✔ No validation issues found when analyzing gw${port}.yaml.\n`, exit: 0 });
    }
  });

  it('workbench: no IST0162 on 31400; on 9000, which no assumed port offers, IST0162', async () => {
    const codes = async (port: number) =>
      (JSON.parse((await analyze({ [`gw${port}.yaml`]: GATEWAY(port) }, ['-o', 'json'])).stdout) as Array<{ code: string }>).map((m) => m.code);
    expect(await codes(31400)).not.toContain('IST0162');
    expect(await codes(9000)).toContain('IST0162');
  });
});

const OTHER_NS =
  'apiVersion: networking.istio.io/v1\nkind: VirtualService\nmetadata:\n  name: vs\n  namespace: other\nspec:\n  hosts: [reviews]\n  http:\n  - route:\n    - destination:\n        host: reviews\n        subset: v9\n';

describe('namespaces: a finding in namespace "other"', () => {
  it('--istioctl: without -n or -A only namespace default is reported (istioctl sets the namespace filter to default)', async () => {
    const r = await analyze({ 'ns.yaml': OTHER_NS }, ['--istioctl']);
    expect(r.exit).toBe(0);
    expect(r.stdout).toBe('\n');
  });

  it('workbench: every namespace is reported; -n other keeps it, -n default drops it', async () => {
    const codes = async (args: string[]) =>
      (JSON.parse((await analyze({ 'ns.yaml': OTHER_NS }, ['-o', 'json', ...args])).stdout) as Array<{ code: string; origin: string }>).map(
        (m) => `${m.code} ${m.origin}`,
      );
    expect(await codes([])).toContain('IST0101 VirtualService other/vs');
    expect(await codes(['-n', 'other'])).toContain('IST0101 VirtualService other/vs');
    expect(await codes(['-n', 'default'])).toEqual([]);
  });
});
