import { run } from './scripts/conformance/ambient.ts';
const rs = run('/work/shared/conformance');
for (const r of rs) { if (!r.passed) { console.log('FAIL', r.id); for (const m of r.missing) console.log('   ', m); if (r.error) console.log(r.error.split('\n').slice(0,5).join('\n')); } }
console.log(`ambient: ${rs.filter(r=>r.passed).length} passed, ${rs.filter(r=>!r.passed).length} failed`);
