// Certificate revocation lists (and CSRs, the other signed objects a paste may hold),
// decoded with @peculiar/asn1-x509 / @peculiar/x509.
import { asn1, asnCsr, asnX509, x509 } from './lib.ts';
import { children, readTlv, TAG } from './der.ts';
import { colonHex, toArrayBuffer } from './bytes.ts';
import { opensslName, parseName, goNameString, type ParsedName } from './names.ts';
import { OID, SIGNATURE_ALGORITHMS } from './oids.ts';
import { isoTime, publicKeyFacts, type PublicKeyFacts } from './cert.ts';

export interface CrlFacts {
  issuer: string;
  issuerGo: string;
  thisUpdate: string;
  nextUpdate: string | null;
  /** Decimal CRL number, null when the extension is absent. */
  crlNumber: string | null;
  authorityKeyIdentifier: string | null;
  /** Revoked serials in openssl's spelling (uppercase hex). */
  revokedSerials: string[];
  signatureAlgorithm: string;
  signatureAlgorithmOid: string;
}

export interface Crl {
  der: Uint8Array;
  issuerDer: Uint8Array;
  issuerName: ParsedName;
  thisUpdate: Date;
  nextUpdate: Date | null;
  facts: CrlFacts;
}

export class CrlParseError extends Error {}

function serialHex(b: Uint8Array): string {
  let start = 0;
  while (start < b.length - 1 && b[start] === 0) start++;
  let s = '';
  for (const x of b.subarray(start)) s += x.toString(16).padStart(2, '0');
  return s.toUpperCase();
}

export function parseCrlDer(input: Uint8Array): Crl {
  const der = input.slice();
  try {
    const list = asn1.AsnConvert.parse(der, asnX509.CertificateList);
    const top = readTlv(der, 0);
    const tbs = children(der, top)[0]!;
    const f = children(der, tbs);
    const i = f[0]?.tag === TAG.INTEGER ? 1 : 0;
    const issuerTlv = f[i + 1]!;
    const issuerDer = der.subarray(issuerTlv.offset, issuerTlv.next);
    const issuerName = parseName(issuerDer);
    const t = list.tbsCertList;
    let crlNumber: string | null = null;
    let aki: string | null = null;
    for (const ext of t.crlExtensions ?? []) {
      const v = new Uint8Array(ext.extnValue.buffer);
      if (ext.extnID === OID.crlNumber) {
        const n = asn1.AsnConvert.parse(v, asnX509.CRLNumber);
        crlNumber = BigInt(n.value).toString(10);
      } else if (ext.extnID === OID.authorityKeyIdentifier) {
        const a = asn1.AsnConvert.parse(v, asnX509.AuthorityKeyIdentifier);
        aki = a.keyIdentifier ? colonHex(new Uint8Array(a.keyIdentifier.buffer)) : null;
      }
    }
    const thisUpdate = t.thisUpdate.getTime();
    const nextUpdate = t.nextUpdate ? t.nextUpdate.getTime() : null;
    const sigOid = list.signatureAlgorithm.algorithm;
    return {
      der,
      issuerDer,
      issuerName,
      thisUpdate,
      nextUpdate,
      facts: {
        issuer: opensslName(issuerName),
        issuerGo: goNameString(issuerName),
        thisUpdate: isoTime(thisUpdate),
        nextUpdate: nextUpdate ? isoTime(nextUpdate) : null,
        crlNumber,
        authorityKeyIdentifier: aki,
        revokedSerials: (t.revokedCertificates ?? []).map((r) => serialHex(new Uint8Array(r.userCertificate))),
        signatureAlgorithm: SIGNATURE_ALGORITHMS[sigOid]?.name ?? sigOid,
        signatureAlgorithmOid: sigOid,
      },
    };
  } catch (e) {
    throw new CrlParseError(`malformed CRL: ${e instanceof Error ? e.message : String(e)}`);
  }
}

export interface CsrFacts {
  subject: string;
  publicKey: PublicKeyFacts;
  signatureAlgorithm: string;
  /** SANs requested through the extensionRequest attribute. */
  requestedSans: string[];
  requestedExtensions: string[];
}

export interface Csr {
  der: Uint8Array;
  spkiDer: Uint8Array;
  sigOid: string;
  facts: CsrFacts;
}

export function parseCsrDer(input: Uint8Array): Csr {
  const der = input.slice();
  const req = new x509.Pkcs10CertificateRequest(toArrayBuffer(der));
  const spkiDer = new Uint8Array(req.publicKey.rawData);
  const sans: string[] = [];
  const exts: string[] = [];
  for (const e of req.extensions) {
    exts.push(e.type);
    if (e instanceof x509.SubjectAlternativeNameExtension)
      for (const n of e.names.items) sans.push(`${n.type === 'url' ? 'URI' : n.type.toUpperCase()}:${n.value}`);
  }
  const sigOid = asn1.AsnConvert.parse(der, asnCsr.CertificationRequest).signatureAlgorithm.algorithm;
  return {
    der,
    spkiDer,
    sigOid,
    facts: {
      subject: opensslName(parseName(new Uint8Array(req.subjectName.toArrayBuffer()))),
      publicKey: publicKeyFacts(spkiDer),
      signatureAlgorithm: SIGNATURE_ALGORITHMS[sigOid]?.name ?? sigOid,
      requestedSans: sans,
      requestedExtensions: exts,
    },
  };
}
