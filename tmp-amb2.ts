import { loadScenarios, runScenario } from './scripts/conformance/ambient.ts';
import { loadMesh } from './src/core/ambient/load.ts';
import { buildAmbientModel } from './src/core/ambient/model.ts';
import { traceRequest } from './src/core/ambient/trace.ts';
const ss = loadScenarios('/work/shared/conformance');
for (const s of ss.filter(s => s.query.type === 'trace')) {
  const { view } = loadMesh([{ path: 'x.yaml', text: s.manifests }]);
  const m = buildAmbientModel(view);
  const r = traceRequest(view, m, { from: String(s.query.from), to: String(s.query.to), request: String(s.query.request) });
  console.log('=====', s.name, r.result, r.deniedAt?.text ?? '', '| sees:', r.clientSees);
  for (const h of r.hops) console.log('  -', h.text);
  for (const e of r.enforcement) console.log('  E', JSON.stringify(e));
  for (const n of r.notes) console.log('  N', n);
}
// mutation checks
const mut = JSON.parse(JSON.stringify(ss));
mut[21].expected.hops[2] = mut[21].expected.hops[2].replace('10.244.2.8', '10.244.2.9');
mut[26].expected.enforcement[0].policies = [];
mut[0].expected.mode = 'none';
mut[8].expected.rows[0][4] = 'x';
for (const i of [21, 26, 0, 8]) { const r = runScenario(mut[i]); console.log('MUT', mut[i].name, r.passed, r.missing); }
