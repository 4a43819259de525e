// "Route tests" in the Proxy config tab: the workspace files that hold RouteTests documents;
// Run checks one through the request simulator (in the worker) and lists each test as passed
// or failed with the reason, linked to the test's line. Once run, the results follow edits.
import { useState } from 'react';
import { useWorkerQuery } from '../common/useWorkerQuery.ts';
import { openAt } from '../../state/navigation.ts';

function reveal(file: string, line: number): void {
  openAt(file, { line });
}

export function RouteTestsView() {
  const files = useWorkerQuery('routeTestFiles', {});
  const [picked, setPicked] = useState('');
  const [running, setRunning] = useState('');
  const list = files.data?.files ?? [];
  const file = list.some((f) => f.file === picked) ? picked : (list[0]?.file ?? '');
  const active = running !== '' && running === file;
  const report = useWorkerQuery('routeTests', { file: running }, active);
  const data = active && report.data && report.data.file === file ? report.data : undefined;

  if (files.error) return <div className="field-error">{files.error}</div>;
  if (files.data && list.length === 0) {
    return (
      <p className="muted" data-testid="route-tests-none">
        No route-test file in the workspace. Add a YAML file with <code>apiVersion: mesh-workbench.dev/v1alpha1</code> and <code>kind: RouteTests</code> (see
        docs/reference.md, Route tests).
      </p>
    );
  }
  return (
    <div className="route-tests" data-testid="route-tests">
      <div className="route-tests-head">
        <label className="proxy-picker">
          <span>Test file</span>
          <select className="text-input" aria-label="Route-test file" data-testid="route-tests-file" value={file} onChange={(e) => setPicked(e.target.value)}>
            {list.map((f) => (
              <option key={f.file} value={f.file}>
                {f.file} ({f.tests} test{f.tests === 1 ? '' : 's'}
                {f.problems > 0 ? `, ${f.problems} problem${f.problems === 1 ? '' : 's'}` : ''})
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="button" data-testid="route-tests-run" disabled={file === ''} onClick={() => setRunning(file)}>
          Run route tests
        </button>
      </div>
      {active && report.error && <div className="field-error">{report.error}</div>}
      {active && !data && !report.error && <p className="muted">Running…</p>}
      {data && (
        <>
          <p
            className={data.failed > 0 || data.problems.length > 0 ? 'route-tests-summary failed' : 'route-tests-summary passed'}
            data-testid="route-tests-summary"
            role="status"
          >
            {data.failed > 0 ? `${data.failed} failed, ` : ''}
            {data.passed} passed, {data.passed + data.failed} total
            {data.problems.length > 0 ? `; ${data.problems.length} problem${data.problems.length === 1 ? '' : 's'} in the file` : ''}
            {report.loading ? ' (updating…)' : ''}
          </p>
          {data.problems.length > 0 && (
            <ul className="route-test-problems">
              {data.problems.map((p, i) => (
                <li key={i} data-testid="route-test-problem">
                  <button type="button" className="link-button" onClick={() => reveal(p.file, p.line)}>
                    {p.file}:{p.line}
                  </button>{' '}
                  {p.message}
                </li>
              ))}
            </ul>
          )}
          <ul className="route-test-list">
            {data.results.map((r, i) => (
              <li key={i} className={`route-test ${r.passed ? 'passed' : 'failed'}`} data-testid="route-test" data-passed={r.passed ? 'true' : 'false'}>
                <span className="route-test-mark" role="img" aria-label={r.passed ? 'passed' : 'failed'}>
                  {r.passed ? '✓' : '✗'}
                </span>{' '}
                <button type="button" className="link-button" title={`${r.file}:${r.line}`} onClick={() => reveal(r.file, r.line)}>
                  {r.description}
                </button>
                {!r.passed && (
                  <div className="route-test-why">
                    {r.error && <div>{r.error}</div>}
                    {r.cases
                      .filter((c) => !c.passed)
                      .map((c, j) => (
                        <div key={j} data-testid="route-test-reason">
                          <code>
                            {c.method} {c.host}:{c.port}
                            {c.path}
                          </code>{' '}
                          from <code>{c.source}</code>: {c.reasons.join('; ')}
                          <div className="muted">went to: {c.actual}</div>
                        </div>
                      ))}
                  </div>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
