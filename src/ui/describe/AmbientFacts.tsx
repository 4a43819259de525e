// What the Describe view shows for an ambient pod instead of a sidecar's config: the waypoints
// in use and the `istio.io/use-waypoint` label that decided, the L4 AuthorizationPolicies
// ztunnel enforces, the effective mTLS mode, and a request to the pod traced hop by hop (the
// Data plane view's trace, TraceSteps).
import type { DescribeAmbient, DescribeWaypoint } from './types.ts';
import { RefLink, ServicePorts, Src } from './links.tsx';
import { TraceSteps } from '../dataplane/TraceSteps.tsx';
import { useDescribeView } from '../../state/describeView.ts';

const VIA: Record<DescribeWaypoint['via'], string> = {
  object: 'its own label',
  namespace: "its namespace's label",
  optOut: 'opted out',
  none: 'no label',
  isWaypoint: "a waypoint's own Service",
  instance: "a waypoint's own pod",
};

function Waypoint({ w, what }: { w: DescribeWaypoint; what: string }) {
  return (
    <div className="describe-block" data-testid="describe-waypoint" data-waypoint={w.waypoint ?? ''}>
      <div>
        {what}:{' '}
        {w.waypoint ? (
          <strong>
            <RefLink of={w.waypointRef} text={`waypoint ${w.waypoint}`} />
          </strong>
        ) : (
          <strong>no waypoint</strong>
        )}{' '}
        <span className="muted">
          (
          {w.labelRef ? (
            <Src of={w.labelRef}>
              {VIA[w.via]}
              {w.requested ? ` istio.io/use-waypoint=${w.requested.split('/')[1] ?? w.requested}` : ''}
            </Src>
          ) : (
            VIA[w.via]
          )}
          )
        </span>
      </div>
      <div className="describe-sub">{w.explanation}</div>
      {w.error && <div className="describe-warning">{w.error}</div>}
    </div>
  );
}

export function AmbientFacts({ a }: { a: DescribeAmbient }) {
  const setFrom = (from: string) => useDescribeView.getState().setTraceFrom(from);
  return (
    <>
      <section className="describe-section" aria-labelledby="describe-waypoints" data-testid="describe-ambient">
        <h3 id="describe-waypoints" className="section-title">
          ztunnel and waypoints
        </h3>
        <p className="muted">
          The pod is in ambient mode: ztunnel carries its traffic{a.protocol ? ` (${a.protocol})` : ''}, and no sidecar config applies. A waypoint, when one is
          bound, enforces L7 policies and routes.
        </p>
        <Waypoint w={a.workloadWaypoint} what="Traffic addressed to the pod" />
        {a.services.map((s) => (
          <div key={s.ref.resourceKey} className="describe-card" data-testid="describe-service">
            <h4 className="describe-card-title">
              Service <RefLink of={s.ref} text={`${s.ref.namespace}/${s.ref.name}`} />
            </h4>
            <ServicePorts ports={s.ports} />
            <Waypoint w={s.waypoint} what={`Traffic to ${s.hostname}`} />
          </div>
        ))}
      </section>
      <section className="describe-section" aria-labelledby="describe-l4" data-testid="describe-l4">
        <h3 id="describe-l4" className="section-title">
          L4 policies ztunnel enforces
        </h3>
        <div>
          mTLS mode <strong>{a.mtls.mode}</strong>
          {a.mtls.ref && (
            <>
              {' '}
              from <RefLink of={a.mtls.ref} />
            </>
          )}
        </div>
        {a.policies.length === 0 ? (
          <p className="muted">None: ztunnel allows every connection to the pod.</p>
        ) : (
          <ul className="describe-list">
            {a.policies.map((p) => (
              <li key={p.key} data-testid="describe-l4-policy" data-policy={p.key}>
                <span className="describe-chip">{p.action.toUpperCase()}</span> {p.ref ? <RefLink of={p.ref} text={p.key} /> : <code>{p.key}</code>}: {p.why}
                {p.note && <div className="describe-warning">{p.note}</div>}
              </li>
            ))}
          </ul>
        )}
        {a.notEnforced.length > 0 && (
          <>
            <div className="describe-sub">Meant for the pod, but not enforced by ztunnel:</div>
            <ul className="describe-list">
              {a.notEnforced.map((n) => (
                <li key={n.ref.resourceKey}>
                  <RefLink of={n.ref} />: {n.reason}
                </li>
              ))}
            </ul>
          </>
        )}
      </section>
      <section className="describe-section" aria-labelledby="describe-trace" data-testid="describe-trace">
        <h3 id="describe-trace" className="section-title">
          A request to the pod, hop by hop
        </h3>
        {a.noTrace ? (
          <p className="muted">{a.noTrace}</p>
        ) : (
          <>
            <div className="describe-trace-head">
              <label>
                From{' '}
                <select className="select" data-testid="describe-trace-from" value={a.traceFrom} onChange={(e) => setFrom(e.target.value)}>
                  {a.clients.map((c) => (
                    <option key={c} value={c}>
                      {c}
                    </option>
                  ))}
                </select>
              </label>{' '}
              <span>
                {a.traceRequest} to <code>{a.traceTo}</code>
              </span>
            </div>
            {a.trace && <TraceSteps result={a.trace} />}
          </>
        )}
      </section>
    </>
  );
}
