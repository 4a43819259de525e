// A request traced hop by hop (the `dataplaneTrace` query's result): the verdict, each hop
// with its identities and the policies evaluated there, each policy linked to its YAML. Shown
// by the Data plane view and, for an ambient pod, by the Describe view.
import type { DataPlaneTraceResult } from '../../core/queries/views.ts';
import type { SourceLocation } from '../../core/queries/location.ts';
import { openAt } from '../../state/navigation.ts';
import './dataplane.css';

function reveal(loc: SourceLocation): void {
  openAt(loc.file, { line: loc.line });
}

export function TraceSteps({ result }: { result: DataPlaneTraceResult }) {
  return (
    <div className="dp-trace" data-testid="dp-trace">
      <div className={`dp-verdict dp-verdict-${result.result.toLowerCase()}`} data-testid="dp-trace-verdict">
        {result.result}
        {result.deniedAt && ` at ${result.deniedAt.text}`}
        {result.error && `: ${result.error}`}
      </div>
      {result.waypointUsed && <div className="muted">Through waypoint {result.waypointUsed}</div>}
      {result.clientSees && <div className="muted">The client sees: {result.clientSees}</div>}
      <ol className="dp-hops" data-testid="dp-hops">
        {result.hops.map((h, i) => (
          <li key={i} data-testid="dp-hop" data-component={h.component} data-decision={h.decision ?? ''}>
            <div className="dp-hop-head">
              <strong>{h.actor}</strong>
              {h.port !== undefined && <span className="dp-chip">:{h.port}</span>}
              {h.protocol && <span className="dp-chip">{h.protocol}</span>}
              {h.decision && <span className={`dp-chip dp-decision-${h.decision.toLowerCase()}`}>{h.decision}</span>}
            </div>
            <div>{h.text}</div>
            {(h.identity || h.peerIdentity) && (
              <div className="muted dp-ids">
                {h.identity && <>presents {h.identity}</>}
                {h.identity && h.peerIdentity !== undefined && ' · '}
                {h.peerIdentity !== undefined && <>peer {h.peerIdentity ?? 'none (plaintext)'}</>}
              </div>
            )}
            {h.policies && h.policies.length > 0 && (
              <ul className="dp-policies">
                {h.policies.map((p, j) => {
                  const loc = p.resourceKey ? result.locations[p.resourceKey] : undefined;
                  return (
                    <li key={j} data-testid="dp-policy" data-policy={p.key} data-matched={p.matched ? 'true' : 'false'}>
                      <span className={p.matched ? 'dp-policy-hit' : 'dp-policy-miss'}>{p.matched ? '✔' : '·'}</span> {p.action}{' '}
                      {loc ? (
                        <button type="button" className="link-button" title={`Show in ${loc.file}:${loc.line}`} onClick={() => reveal(loc)}>
                          {p.key}
                        </button>
                      ) : (
                        <code>{p.key}</code>
                      )}
                      : {p.why}
                    </li>
                  );
                })}
              </ul>
            )}
          </li>
        ))}
      </ol>
      {result.notes.length > 0 && (
        <ul className="assumption-list">
          {result.notes.map((n, i) => (
            <li key={i}>{n}</li>
          ))}
        </ul>
      )}
    </div>
  );
}
