// Collecting, the first job of an inspection: every certificate, private key, CRL and CSR of the
// decoded inputs with where it came from, and for each certificate the input certificates named
// as its issuer with their signature check. The other jobs read what it registers.
import type { Certificate } from './cert.ts';
import { completeCertificate } from './digest.ts';
import { isRedactedInLink } from './input.ts';
import { nameKey, reportOrigin, type Inspection } from './inspection.ts';
import { privateKeyFacts, type PrivateKeyFacts } from './keys.ts';

export async function collectInputs(run: Inspection): Promise<void> {
  for (const v of run.decoded.values) {
    for (const a of v.artefacts) {
      const origin = reportOrigin(v.origin, a);
      if (a.kind === 'certificate') {
        const c = run.ctx.adopt(a.cert);
        await completeCertificate(c, run.ctx.signatures);
        let e = run.certs.get(c.facts.sha256FingerprintHex);
        if (!e) run.certs.set(c.facts.sha256FingerprintHex, (e = { cert: c, occurrences: [], roles: new Set(), issuers: [], findings: [] }));
        e.occurrences.push(origin);
      } else if (a.kind === 'private-key') {
        let facts: PrivateKeyFacts | null = null;
        try {
          facts = await privateKeyFacts(a.key);
        } catch {
          facts = null;
        }
        run.keys.push({
          id: `key-${run.keys.length + 1}`,
          origin,
          facts,
          state: facts?.publicKey ? null : 'unsupported',
          size: a.key.der.length,
          pemType: a.pemType,
        });
      } else if (a.kind === 'encrypted-key') {
        run.keys.push({
          id: `key-${run.keys.length + 1}`,
          origin,
          facts: null,
          state: a.reason === 'encrypted private key' ? 'encrypted' : 'unsupported',
          size: 0,
          pemType: a.pemType,
        });
        run.finding(
          a.reason === 'encrypted private key' ? 'KEY_ENCRYPTED' : 'KEY_UNSUPPORTED_PEM_TYPE',
          'error',
          `${origin.label}: ${a.reason}; Istio cannot read it`,
          { kind: 'key', id: `key-${run.keys.length}`, label: origin.label },
        );
      } else if (a.kind === 'crl') run.crls.push({ crl: a.crl, origin, id: `crl-${run.crls.length + 1}` });
      else if (a.kind === 'csr') run.csrs.push({ csr: a.csr, origin, id: `csr-${run.csrs.length + 1}` });
    }
    if (v.encoding === 'redacted') {
      const origin = reportOrigin(v.origin);
      run.keys.push({ id: `key-${run.keys.length + 1}`, origin, facts: null, state: 'redacted', size: 0, pemType: null });
    }
    // Keys a share link removed: a marker under a key's name, or key blocks cut from a PEM text.
    if (v.keysRedactedInLink) run.redactedKey(v, v.keysRedactedInLink);
    else if (isRedactedInLink(v) && keyName(v.origin.key ?? v.origin.path[v.origin.path.length - 1] ?? v.origin.input)) run.redactedKey(v);
  }
  // Issuers among the inputs: same name, and the signature verifies.
  const bySubject = new Map<string, Certificate[]>();
  for (const { cert } of run.certs.values()) {
    const k = nameKey(cert.subjectDer);
    bySubject.set(k, [...(bySubject.get(k) ?? []), cert]);
  }
  for (const e of run.certs.values()) {
    for (const p of bySubject.get(nameKey(e.cert.issuerDer)) ?? []) {
      if (p === e.cert) continue;
      const s = await run.ctx.signatures.certificate(e.cert, p);
      e.issuers.push({ cert: p, status: s.status });
    }
  }
}

/** A value name that holds a private key (`ca-key.pem`, `tls.key`, `key`, `client-key-data`). */
function keyName(name: string | undefined): boolean {
  return !!name && /(^|[-_./])key($|[-_.])|\.key$|-key\.pem$/i.test(name);
}
