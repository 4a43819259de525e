// The inspector's "Data plane" tab: a few lines about the simulated data plane and a button
// that opens the full view in the main area (DataPlaneView, src/state/views.ts).
import { useWorkerQuery } from '../common/useWorkerQuery.ts';
import { useViews } from '../../state/views.ts';
import './dataplane.css';

export function DataPlaneSummary() {
  const { data, error } = useWorkerQuery('dataplane', {});
  const pods = data ? data.pods.filter((p) => p.role !== 'ztunnel').length : 0;
  return (
    <div className="dp-summary" data-testid="dataplane-summary">
      {error && !data ? (
        <div className="field-error">{error}</div>
      ) : !data ? (
        <p className="muted">Simulating the data plane…</p>
      ) : pods === 0 ? (
        <p className="muted" data-testid="dataplane-empty">
          No pods, and no Deployments or other controllers to derive them from. Load the “Ambient shop” sample (Samples menu) to see an ambient data plane.
        </p>
      ) : (
        <>
          <p data-testid="dataplane-summary-counts">
            {data.counts.pods} pods on {data.nodes.length} {data.nodes.length === 1 ? 'node' : 'nodes'}, {data.waypoints.length}{' '}
            {data.waypoints.length === 1 ? 'waypoint' : 'waypoints'}
          </p>
          <ul className="dp-summary-modes">
            {(['ambient', 'sidecar', 'none', 'pending'] as const)
              .filter((m) => m !== 'pending' || data.counts.pending > 0)
              .map((m) => (
                <li key={m}>
                  <span className={`dp-swatch dp-mode-${m}`} /> {data.counts[m]} {m}
                </li>
              ))}
          </ul>
        </>
      )}
      <div>
        <button type="button" className="button" data-testid="open-view-dataplane" onClick={() => useViews.getState().openView('dataplane')}>
          Open Data plane
        </button>
      </div>
      <p className="muted">The diagram, request traces, “what if” labels and each node’s ztunnel tables open in the main area, beside the files.</p>
    </div>
  );
}
