// A chain as Go built it (or as far as it got): the trust anchor at the top, then the
// intermediates, then the leaf. Each link shows its status and, when it fails, why; the
// tooltip lists every check of the link (name, AKI/SKI, signature, issuer may sign,
// validity, path length, name constraints, key usage).
import type { CertView, ChainView } from '../../core/pki/report.ts';

function who(c: CertView | undefined): string {
  if (!c) return '(certificate not in the input)';
  const f = c.facts;
  return f.spiffe[0]?.uri ?? f.subjectCommonName ?? (f.subject || '(empty subject)');
}

export function ChainDiagram({ chain, byId }: { chain: ChainView; byId: Map<string, CertView> }) {
  const top = chain.path.length - 1;
  const rows = [...chain.path].reverse();
  return (
    <div className={`certs-chain ${chain.go.ok ? 'ok' : 'bad'}`} data-testid="certs-chain" data-ok={String(chain.go.ok)}>
      <div className="certs-chain-title">
        {chain.title}
        <span className={`certs-chip ${chain.go.ok ? 'chip-ok' : 'chip-bad'}`} data-testid="certs-chain-verdict">
          {chain.go.ok ? 'verified' : 'not verified'}
        </span>
      </div>
      {rows.map((id, ri) => {
        const i = top - ri;
        const c = byId.get(id);
        const role =
          i === top
            ? chain.anchor?.trusted
              ? 'trust anchor'
              : c?.facts.selfSigned
                ? 'root (not trusted)'
                : 'top (no issuer found)'
            : i === 0
              ? 'leaf'
              : 'intermediate';
        const link = chain.links[i - 1];
        return (
          <div key={`${id}-${i}`}>
            <a className="certs-chain-node" data-testid="certs-chain-node" href={`#cert-${id}`} title={c?.facts.subject}>
              <span className="certs-chain-role">{role}</span> <strong>{who(c)}</strong>
              {c && <span className="certs-chain-exp">{c.expiresIn}</span>}
            </a>
            {i > 0 && link && (
              <div
                className={`certs-chain-link link-${link.status}`}
                data-testid="certs-chain-link"
                data-status={link.status}
                title={link.checks.map((k) => `${k.status === 'ok' ? '✓' : k.status === 'fail' ? '✗' : '!'} ${k.name}: ${k.detail}`).join('\n')}
              >
                <span aria-hidden="true">↑</span>{' '}
                {link.status === 'ok'
                  ? 'signature ok · names chain · validity ok'
                  : link.checks
                      .filter((k) => k.status === 'fail' || k.status === 'warn')
                      .map((k) => `${k.name}: ${k.detail}`)
                      .join(' · ')}
              </div>
            )}
          </div>
        );
      })}
      {chain.anchor && !chain.anchor.trusted && <div className="certs-chain-note certs-error">NOT in the supplied trust bundle</div>}
      {chain.anchor?.trusted && chain.anchor.where && <div className="certs-chain-note muted">trusted by: {chain.anchor.where}</div>}
      <div className={`certs-chain-note ${chain.go.ok ? 'certs-ok' : 'certs-error'}`} data-testid="certs-chain-go">
        Go ({chain.go.usages.join(', ')}): {chain.go.ok ? 'verified' : chain.go.error}
      </div>
      {chain.opensslNote && chain.openssl && (
        <div className="certs-chain-note muted" data-testid="certs-openssl-note">
          openssl verify says{' '}
          {chain.openssl.ok ? 'OK' : `error ${chain.openssl.error!.code} at depth ${chain.openssl.error!.depth} (${chain.openssl.error!.message})`}:{' '}
          {chain.opensslNote}
        </div>
      )}
    </div>
  );
}
