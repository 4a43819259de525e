// The facts `istioctl x describe pod` prints for a pod with a sidecar, one section each: its
// Services and ports, per port the DestinationRule (subsets, traffic policy) and the
// VirtualService routes that reach the pod (weights, matches), the effective mTLS mode and the
// PeerAuthentications behind it, the AuthorizationPolicies in its RBAC filters, and its
// exposure through ingress gateways. Every fact links to its line.
import type {
  DescribeAuthzRow,
  DescribeResult,
  DestinationRuleFacts,
  IngressFacts,
  RouteFact,
  ServiceDescription,
  StaleWarning,
  VirtualServiceFacts,
} from './types.ts';
import { RefLink, ServicePorts, Src } from './links.tsx';

/** A route fact in words (istioctl's wording where it has one). */
export function routeFactLabel(f: RouteFact): string {
  switch (f.type) {
    case 'destination':
      return `to ${f.host}${f.subset !== '' ? ` subset ${f.subset}` : ''}`;
    case 'otherHost':
      return `to ${f.host} (another host)`;
    case 'invalidConfig':
      return `to ${f.host}: invalid config`;
    case 'conditions':
      return [...(f.fault !== undefined ? [`fault injection ${f.fault}`] : []), ...f.matches].join(', ') || 'every request';
    case 'tcpMatch':
      return f.text;
    case 'nonMatchingSubset':
      return `to subset ${f.subset}, which does not select the pod (${f.matches})`;
    case 'noDestinationRule':
      return `Warning: to subset ${f.subset}, but no DestinationRule defines subsets`;
    case 'unknownSubset':
      return `Warning: to unknown subset ${f.subset}; check DestinationRule ${f.destinationRule}`;
  }
}

function weightOf(f: RouteFact): number | undefined {
  return f.type === 'destination' || f.type === 'otherHost' ? f.weight : undefined;
}

function staleText(s: StaleWarning): string {
  return s.kind === 'gateway'
    ? `The proxy's config names gateway ${s.namespace}/${s.name}, which does not exist.`
    : `The proxy's config names ${s.kind} ${s.name}.${s.namespace}, which does not exist.`;
}

function DestinationRuleBlock({ dr }: { dr: DestinationRuleFacts }) {
  const matching = dr.subsets.filter((s) => s.matches);
  const tp = dr.trafficPolicy;
  return (
    <div className="describe-block" data-testid="describe-dr">
      <div>
        DestinationRule <RefLink of={dr.ref} text={dr.kname} /> for host <code>{dr.host}</code>
      </div>
      {dr.subsets.length > 0 && (
        <ul className="describe-list">
          {dr.subsets.map((s) => (
            <li key={s.name} data-testid="describe-subset" data-matches={s.matches ? 'true' : 'false'}>
              <span className={s.matches ? 'describe-yes' : 'describe-no'}>{s.matches ? '✔ matches the pod' : '· does not match'}</span> subset{' '}
              <Src of={s.source}>{s.name}</Src>
            </li>
          ))}
        </ul>
      )}
      {dr.subsets.length > 0 && matching.length === 0 && <div className="describe-warning">The pod matches none of its subsets.</div>}
      {tp ? (
        <div className="describe-sub">
          <Src of={tp.source}>Traffic policy</Src>
          {tp.tlsMode !== undefined && <> · TLS mode {tp.tlsMode}</>}
          {tp.policies.length > 0 && <> · {tp.policies.join(', ')}</>}
          {tp.portLevel?.map((p) => (
            <div key={p.port} className="describe-sub">
              <Src of={p.source}>port {p.port}</Src>
              {p.tlsMode !== undefined && <> · TLS mode {p.tlsMode}</>}
              {p.policies.length > 0 && <> · {p.policies.join(', ')}</>}
            </div>
          ))}
        </div>
      ) : (
        <div className="describe-sub muted">No traffic policy</div>
      )}
    </div>
  );
}

/** A VirtualService's routes: those that reach the pod first, with their weights and matches, then those that do not. */
export function VirtualServiceBlock({ vs }: { vs: VirtualServiceFacts }) {
  const total = vs.httpRoutes + vs.tcpRoutes + vs.tlsRoutes;
  const reaching = vs.routes.filter((r) => r.reaches);
  const others = vs.routes.filter((r) => !r.reaches);
  return (
    <div className="describe-block" data-testid="describe-vs">
      <div>
        VirtualService <RefLink of={vs.ref} text={vs.kname} />{' '}
        <span className="muted">
          ({reaching.length} of {total} {total === 1 ? 'route reaches' : 'routes reach'} the pod)
        </span>
      </div>
      {vs.verdict === 'none' && <div className="describe-warning">No destination matches the pod's subsets.</div>}
      <ul className="describe-list">
        {[...reaching, ...others].map((r) => (
          <li key={`${r.protocol}${r.index}`} data-testid="describe-route" data-reaches={r.reaches ? 'true' : 'false'}>
            <span className={r.reaches ? 'describe-yes' : 'describe-no'}>{r.reaches ? '✔ reaches the pod' : '· does not reach it'}</span>{' '}
            {r.protocol.toUpperCase()} route {r.index}
            <ul className="describe-list">
              {r.facts.map((f, i) => {
                const w = weightOf(f);
                return (
                  <li key={i} data-testid="describe-route-fact" data-type={f.type}>
                    <Src of={f.source}>{routeFactLabel(f)}</Src>
                    {w !== undefined && (
                      <span className="describe-chip" data-testid="describe-weight">
                        weight {w}%
                      </span>
                    )}
                  </li>
                );
              })}
            </ul>
          </li>
        ))}
      </ul>
    </div>
  );
}

function ServiceBlock({ svc }: { svc: ServiceDescription }) {
  const multi = svc.byPort.length > 1;
  return (
    <div className="describe-card" data-testid="describe-service">
      <h4 className="describe-card-title">
        Service <RefLink of={svc.ref} text={svc.kname} />
      </h4>
      <ServicePorts ports={svc.ports} testId="describe-service-port" />
      {svc.byPort.map((port) => (
        <div key={port.port} className={multi ? 'describe-port' : undefined}>
          {multi && <div className="describe-port-title">Port {port.port}</div>}
          {port.destinationRule ? <DestinationRuleBlock dr={port.destinationRule} /> : <div className="muted describe-block">No DestinationRule</div>}
          {port.virtualService ? <VirtualServiceBlock vs={port.virtualService} /> : <div className="muted describe-block">No VirtualService</div>}
          {port.rbacPolicies.length > 0 && <div className="describe-block">RBAC policies: {port.rbacPolicies.join(', ')}</div>}
          {port.stale.map((s) => (
            <div key={`${s.kind}/${s.namespace}/${s.name}`} className="describe-warning">
              {staleText(s)}
            </div>
          ))}
        </div>
      ))}
    </div>
  );
}

function Ingress({ ing }: { ing: IngressFacts }) {
  return (
    <section className="describe-section" aria-labelledby="describe-ingress">
      <h3 id="describe-ingress" className="section-title">
        Ingress exposure
      </h3>
      {ing.skipped && <p className="muted">Skipped: {ing.skipped}.</p>}
      {ing.error && <div className="describe-warning">{ing.error}</div>}
      {!ing.skipped && ing.events.length === 0 && <p className="muted">No ingress gateway exposes the pod.</p>}
      {ing.events.map((e, i) =>
        e.type === 'stale' ? (
          <div key={i} className="describe-warning">
            {staleText(e.stale)}
          </div>
        ) : e.type === 'selectorless' ? (
          <div key={i} className="describe-warning">
            <RefLink of={e.gateway} /> has no selector: it applies to every gateway workload.
          </div>
        ) : (
          <div key={i} className="describe-card" data-testid="describe-ingress">
            <div>
              Through <RefLink of={e.gateway} />
            </div>
            <ul className="describe-list">
              {e.ingresses.flatMap((x) =>
                x.urls.map((u) => (
                  <li key={u}>
                    <code>{u}</code> on <RefLink of={x.service} />
                  </li>
                )),
              )}
            </ul>
            <VirtualServiceBlock vs={e.virtualService} />
          </div>
        ),
      )}
    </section>
  );
}

/** The sidecar pod's sections. */
export function SidecarFacts({ data }: { data: DescribeResult }) {
  const d = data.description;
  const pa = d.peerAuthentication;
  return (
    <>
      <section className="describe-section" aria-labelledby="describe-services">
        <h3 id="describe-services" className="section-title">
          Services, routes and subsets
        </h3>
        {d.services.length === 0 && <p className="muted">No Service selects the pod.</p>}
        {d.services.map((s) => (
          <ServiceBlock key={s.ref.resourceKey} svc={s} />
        ))}
      </section>
      {pa && (
        <section className="describe-section" aria-labelledby="describe-mtls" data-testid="describe-mtls">
          <h3 id="describe-mtls" className="section-title">
            mTLS
          </h3>
          <div>
            Effective mode <strong>{pa.mode}</strong>
            {pa.decidedBy.length > 0 && (
              <>
                {' '}
                from{' '}
                {pa.decidedBy.map((r) => (
                  <RefLink key={`${r.resourceKey}${r.fieldPath ?? ''}`} of={r} />
                ))}
              </>
            )}
          </div>
          {pa.perPort.map((p) => (
            <div key={p.port} className="describe-sub">
              port {p.port}: {p.mode}
            </div>
          ))}
          <div className="describe-sub">
            PeerAuthentications applied:{' '}
            {pa.applied.length === 0 ? <span className="muted">none</span> : pa.applied.map((r, i) => <RefLink key={`${r.resourceKey}${i}`} of={r} />)}
          </div>
        </section>
      )}
      <section className="describe-section" aria-labelledby="describe-authz" data-testid="describe-authz">
        <h3 id="describe-authz" className="section-title">
          AuthorizationPolicies applied
        </h3>
        {data.authorization.length === 0 ? (
          <p className="muted">None in the sidecar's RBAC filters.</p>
        ) : (
          <ul className="describe-list">
            {data.authorization.map((a: DescribeAuthzRow) => (
              <li key={`${a.action}/${a.policy}`}>
                <span className="describe-chip">{a.action}</span> {a.ref ? <RefLink of={a.ref} /> : <code>{a.policy}</code>} · {a.rules}{' '}
                {a.rules === 1 ? 'rule' : 'rules'}
              </li>
            ))}
          </ul>
        )}
      </section>
      {d.ingress && <Ingress ing={d.ingress} />}
    </>
  );
}
