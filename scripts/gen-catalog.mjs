// One-off generator used while writing src/core/analysis/messages.ts: it reads the codes,
// names, levels, templates and argument lists of Istio's catalog so that the templates are
// byte for byte the same. Descriptions in messages.ts are our own and are not generated.
import { readFileSync } from 'node:fs';
import YAML from 'yaml';
const src = process.argv[2] ?? '../shared/conformance/analyzers/messages.yaml';
const cat = YAML.parse(readFileSync(src, 'utf8'));
const out = [];
for (const m of cat.messages) {
  out.push(`  ${m.name}: msg(${JSON.stringify(m.code)}, ${JSON.stringify(m.name)}, ${JSON.stringify(m.level)}, ${JSON.stringify(m.template)}, [${(m.args ?? []).map((a) => `[${JSON.stringify(a.name)}, ${JSON.stringify(a.type)}]`).join(', ')}],\n    'TODO'),`);
}
console.log(out.join('\n'));
