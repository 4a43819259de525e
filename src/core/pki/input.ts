// What a user hands us, taken apart: bytes or text → containers (Kubernetes Secrets and
// ConfigMaps, Envoy and istioctl dumps, ztunnel dumps, kubeconfigs in multi-cluster
// Secrets) → values (a data key, a dump field, a file) → artefacts (certificates, keys,
// CRLs, CSRs), each with where it came from. The detection rules and their order are the
// spec's (§1.2): dumps first, then Kubernetes objects, DER, PEM, base64 (of DER or of PEM),
// hex; at most four containers deep. Nothing here throws on bad input: every problem is a
// message naming the value, the block and the offset.
import jsyaml from 'js-yaml';
import { YAML_LOAD_OPTIONS } from '../document/yamlSchema.ts';
import { decodeBase64Std } from './base64.ts';
import { equalBytes, fromHex, isPrintableUtf8, toArrayBuffer, utf8, utf8Text } from './bytes.ts';
import { CertParseError, parseCertificateDer, type Certificate } from './cert.ts';
import { parseCrlDer, parseCsrDer, type Crl, type Csr } from './crl.ts';
import { readTlv } from './der.ts';
import { KeyParseError, parsePrivateKeyDer, type PrivateKey } from './keys.ts';
import { decodePemBundle, scanPem, type PemScan, type ScannedBlock } from './pem.ts';
import { x509 } from './lib.ts';
import { isRedactionMarker, PRIVATE_KEY_MARKER } from '../document/redactionMarkers.ts';
import { isObj } from '../document/read.ts';
import { listItemsAsRead } from '../document/resources.ts';
import { documentStartLines, keyLine, objectLine } from './inputLines.ts';

export type Severity = 'error' | 'warning' | 'info';

/** Where a value sits: the input, the containers around it, the object and data key. */
export interface Origin {
  /** The input's name (file name, `paste`, or a workspace path). */
  input: string;
  /** Containers from the outside in, e.g. `["Secret istio-system/cacerts", "cert-chain.pem"]`. */
  path: string[];
  object?: ObjectRef;
  /** The data key (Secret/ConfigMap), or the dump field. */
  key?: string;
  /** 1-based line in the input of the object (or key), when known. */
  line?: number;
}

export interface ObjectRef {
  kind: string;
  namespace: string;
  name: string;
}

/**
 * How a value was written. `redacted`: Envoy's `[redacted]` in place of a key (a config dump);
 * `redacted-in-link`: a share link's redaction marker in place of the value (see
 * document/redactionMarkers.ts), so whatever it held is not in the input.
 */
export type ValueEncoding =
  | 'pem'
  | 'der'
  | 'base64-der'
  | 'base64-pem'
  | 'hex'
  | 'json-string'
  | 'empty'
  | 'redacted'
  | 'redacted-in-link'
  | 'text'
  | 'binary'
  | 'structured';

/** Whether a value is a share link's redaction marker (its content was removed before sharing). */
export function isRedactedInLink(v: Value | undefined): boolean {
  return v?.encoding === 'redacted-in-link';
}

/**
 * Whether a text is nothing but redaction markers: one marker (`data` after base64 decoding,
 * `stringData`, a file that held a key), or private-key markers only (a file that held keys).
 */
export function isRedactedText(text: string): boolean {
  const t = text.trim();
  if (t === '') return false;
  if (isRedactionMarker(t)) return true;
  return t.includes(PRIVATE_KEY_MARKER) && t.split(PRIVATE_KEY_MARKER).join('').trim() === '';
}

/** An artefact found in a value, with its place in it. */
export interface Located {
  /** PEM block index within the value (null for DER). */
  block: number | null;
  /** Offset (characters) of the block in the value's text. */
  offset: number | null;
  /** The PEM type it came in. */
  pemType: string | null;
}

export type Artefact =
  | (Located & { kind: 'certificate'; cert: Certificate })
  | (Located & { kind: 'private-key'; key: PrivateKey; encrypted: false })
  | (Located & { kind: 'encrypted-key'; reason: string })
  | (Located & { kind: 'crl'; crl: Crl })
  | (Located & { kind: 'csr'; csr: Csr })
  | (Located & { kind: 'public-key'; spki: Uint8Array })
  | (Located & { kind: 'opaque'; what: string });

export interface Problem {
  severity: Severity;
  message: string;
  origin: Origin;
  block?: number | null;
  offset?: number | null;
}

/** One byte string: a file, a Secret data key, a dump field. */
export interface Value {
  origin: Origin;
  bytes: Uint8Array;
  encoding: ValueEncoding;
  /** The PEM text (after unwrapping base64/JSON), when the value is PEM. */
  pemText?: string;
  scan?: PemScan;
  artefacts: Artefact[];
  problems: Problem[];
  /** Private keys a share link removed from this PEM text (its marker stands in their place). */
  keysRedactedInLink?: number;
}

export interface KubeObject {
  kind: 'Secret' | 'ConfigMap';
  ref: ObjectRef;
  type: string;
  labels: Record<string, string>;
  origin: Origin;
  /** Every data key (data merged with stringData; binaryData for ConfigMaps). */
  values: Map<string, Value>;
  /** Keys whose value could not be decoded (bad base64). */
  badKeys: string[];
}

export interface DumpCertRef {
  value: Value;
}

export interface DumpSecret {
  name: string;
  status: 'ACTIVE' | 'WARMING' | 'STATIC';
  versionInfo: string;
  lastUpdated: string;
  certificateChain?: Value;
  /** `filename` instead of inline bytes: only the path can be shown. */
  certificateChainFile?: string;
  /** `redacted`: by Envoy; `redacted-in-link`: by a share link's redaction. */
  privateKey?: 'redacted' | 'redacted-in-link' | 'inline' | 'file' | 'absent';
  trustedCa?: Value;
  trustedCaFile?: string;
  crl?: Value;
  /** SPIFFE validator trust bundles. */
  spiffe: Array<{ trustDomain: string; bundle: Value }>;
}

export interface EnvoyDump {
  style: 'config_dump' | 'istioctl';
  origin: Origin;
  secrets: DumpSecret[];
}

export interface ZtunnelCert {
  value: Value;
  serialNumber: string;
  validFrom: string;
  expirationTime: string;
}

export interface ZtunnelIdentity {
  identity: string;
  state: string;
  certChain: ZtunnelCert[];
  rootCerts: ZtunnelCert[];
}

export interface ZtunnelDump {
  origin: Origin;
  identities: ZtunnelIdentity[];
}

/** One cluster of an Istio remote secret (a kubeconfig per data key). */
export interface RemoteCluster {
  secret: ObjectRef;
  origin: Origin;
  clusterId: string;
  server: string;
  auth: string;
  ca?: Value;
  clientCert?: Value;
  clientKey?: Value;
  error?: string;
}

export interface Decoded {
  values: Value[];
  objects: KubeObject[];
  dumps: EnvoyDump[];
  ztunnel: ZtunnelDump[];
  remotes: RemoteCluster[];
  problems: Problem[];
  hints: string[];
}

export interface InputFile {
  name: string;
  /** Raw bytes (uploads, files) or text (pastes, workspace files). */
  bytes?: Uint8Array;
  text?: string;
}

/** Inputs above this size are refused with a message. */
export const MAX_INPUT_BYTES = 32 * 1024 * 1024;
/** At most this many artefacts are read from one input. */
export const MAX_ARTEFACTS = 5000;
const MAX_DEPTH = 4;

function label(o: Origin): string {
  return [o.input, ...o.path].join(' › ');
}

export function originLabel(o: Origin): string {
  return label(o);
}

function lineOf(text: string, offset: number): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

class Decoder {
  readonly out: Decoded = { values: [], objects: [], dumps: [], ztunnel: [], remotes: [], problems: [], hints: [] };
  private artefactCount = 0;

  problem(severity: Severity, message: string, origin: Origin, block?: number | null, offset?: number | null): void {
    this.out.problems.push({ severity, message, origin, block, offset });
  }

  /** Decodes a whole input. */
  input(file: InputFile): void {
    const origin: Origin = { input: file.name, path: [] };
    const size = file.bytes?.length ?? file.text?.length ?? 0;
    if (size > MAX_INPUT_BYTES) {
      this.problem('error', `${file.name} is ${(size / 1048576).toFixed(1)} MB; inputs over ${MAX_INPUT_BYTES / 1048576} MB are not read`, origin);
      return;
    }
    const bytes = file.bytes ?? utf8(file.text ?? '');
    this.value(origin, bytes, 0, file.text);
  }

  /** Decodes one byte string in its container context; returns the Value when it is leaf material. */
  value(origin: Origin, bytes: Uint8Array, depth: number, knownText?: string): Value | undefined {
    const v: Value = { origin, bytes, encoding: 'empty', artefacts: [], problems: [] };
    if (bytes.length === 0 && (knownText ?? '') === '') {
      this.out.values.push(v);
      return v;
    }
    if (depth > MAX_DEPTH) {
      v.encoding = 'binary';
      this.valueProblem(v, 'warning', 'nested more than four containers deep; not decoded further');
      this.out.values.push(v);
      return v;
    }
    // D: binary DER.
    if (knownText === undefined && bytes[0] === 0x30 && !isPrintableUtf8(bytes)) {
      v.encoding = 'der';
      this.der(v, bytes, null, null, null);
      this.out.values.push(v);
      return v;
    }
    let text = knownText ?? utf8Text(bytes);
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    if (knownText === undefined && !isPrintableUtf8(bytes)) {
      v.encoding = 'binary';
      this.valueProblem(v, 'error', `binary data that is not DER (first byte 0x${(bytes[0] ?? 0).toString(16).padStart(2, '0')})`);
      this.out.values.push(v);
      return v;
    }
    const trimmed = text.trim();
    // A JSON string literal (copied out of a JSON dump): unescape once.
    if (/^"[\s\S]*"$/.test(trimmed) && trimmed.includes('\\n')) {
      try {
        const inner = JSON.parse(trimmed) as unknown;
        if (typeof inner === 'string') {
          const sub = this.value({ ...origin, path: [...origin.path, 'JSON string'] }, utf8(inner), depth + 1, inner);
          if (sub) sub.encoding = sub.encoding === 'pem' ? 'json-string' : sub.encoding;
          return undefined;
        }
      } catch {
        // Not JSON after all; go on.
      }
    }
    if (trimmed === '[redacted]') {
      v.encoding = 'redacted';
      this.out.values.push(v);
      return v;
    }
    // A share link's redaction marker: the value was removed before sharing, nothing to read.
    if (isRedactedText(trimmed)) {
      v.encoding = 'redacted-in-link';
      const keys = trimmed.split(PRIVATE_KEY_MARKER).length - 1;
      if (keys > 0) v.keysRedactedInLink = keys;
      this.out.values.push(v);
      return v;
    }
    // A–C, F: structured documents.
    if (
      /^[{[]/.test(trimmed) ||
      /^(apiVersion|kind|items|configs|dynamicActiveSecrets|dynamic_active_secrets|dynamicWarmingSecrets|dynamic_warming_secrets|staticSecrets|static_secrets|clusters|certificates)\s*:/m.test(
        trimmed,
      ) ||
      /^---\s*$/m.test(trimmed)
    ) {
      if (this.structured(origin, text, depth)) return undefined;
    }
    // E: PEM.
    if (/-----BEGIN [^\n]*-----/.test(text)) {
      v.encoding = 'pem';
      v.pemText = text;
      this.pem(v, text);
      // A key block next to the certificates was removed before sharing.
      const removed = text.split(PRIVATE_KEY_MARKER).length - 1;
      if (removed > 0) v.keysRedactedInLink = removed;
      this.out.values.push(v);
      return v;
    }
    // I: istioctl's secret table.
    if (/^RESOURCE NAME\s+TYPE\s+STATUS\s+VALID CERT/m.test(text)) {
      this.out.hints.push(
        `${label(origin)}: this is the \`istioctl proxy-config secret\` summary; paste \`-o json\` or the Envoy config dump to see the certificates.`,
      );
      v.encoding = 'text';
      this.out.values.push(v);
      return v;
    }
    const compact = trimmed.replace(/\s+/g, '');
    // H: hex DER. Before base64: hex digits are base64 characters too, but base64 of DER
    // starts with 'M' and of PEM with 'LS0t', never with a hex digit pair decoding to 0x30.
    if (compact.length >= 16 && /^[0-9a-fA-F:]+$/.test(compact)) {
      const decoded = fromHex(compact);
      if (decoded && decoded[0] === 0x30) {
        this.value({ ...origin, path: [...origin.path, 'hex'] }, decoded, depth + 1);
        return undefined;
      }
    }
    // G: bare base64 (of DER or of PEM).
    if (compact.length >= 8 && /^[A-Za-z0-9+/]+=*$/.test(compact)) {
      const decoded = decodeBase64Std(compact);
      if (decoded && decoded.length > 0) {
        const isPem = utf8Text(decoded.subarray(0, 64)).trimStart().startsWith('-----BEGIN');
        const sub = this.value({ ...origin, path: [...origin.path, isPem ? 'base64 of PEM' : 'base64'] }, decoded, depth + 1);
        if (sub && (sub.encoding === 'pem' || sub.encoding === 'der')) sub.encoding = sub.encoding === 'pem' ? 'base64-pem' : 'base64-der';
        return undefined;
      }
      if (!decoded && /^(MII|MIG|LS0t)/.test(compact)) {
        v.encoding = 'text';
        this.valueProblem(
          v,
          'error',
          `looks like base64 (starts with ${compact.slice(0, 4)}) but is not valid base64 (length ${compact.length}, padding or stray characters)`,
        );
        this.out.values.push(v);
        return v;
      }
    }
    v.encoding = 'text';
    if (trimmed !== '') this.valueProblem(v, 'info', 'no certificate, key or CRL found (not PEM, DER, base64 or a known container)');
    this.out.values.push(v);
    return v;
  }

  private valueProblem(v: Value, severity: Severity, message: string, block?: number | null, offset?: number | null): void {
    const p: Problem = { severity, message, origin: v.origin, block, offset };
    v.problems.push(p);
    this.out.problems.push(p);
  }

  private add(v: Value, a: Artefact): void {
    this.artefactCount++;
    if (this.artefactCount === MAX_ARTEFACTS + 1)
      this.valueProblem(v, 'warning', `more than ${MAX_ARTEFACTS} certificates, keys and CRLs; the rest are not read`);
    if (this.artefactCount > MAX_ARTEFACTS) return;
    v.artefacts.push(a);
  }

  /** Binary DER, tried as each kind in turn (spec §1.2 row D). */
  der(v: Value, der: Uint8Array, block: number | null, offset: number | null, pemType: string | null): void {
    const at = { block, offset, pemType };
    let end = 0;
    try {
      end = readTlv(der, 0).next;
    } catch (e) {
      this.valueProblem(v, 'error', `not DER: ${(e as Error).message}${block !== null ? '' : ' at offset 0'}`, block, offset);
      return;
    }
    const tries: Array<() => Artefact> = [
      () => ({ ...at, kind: 'certificate', cert: parseCertificateDer(der) }),
      () => ({ ...at, kind: 'crl', crl: parseCrlDer(der) }),
      () => ({ ...at, kind: 'private-key', key: parsePrivateKeyDer(der), encrypted: false }),
      () => {
        const certs = new x509.X509Certificates(toArrayBuffer(der));
        if (certs.length === 0) throw new Error('empty PKCS#7');
        for (const c of certs) this.add(v, { ...at, kind: 'certificate', cert: parseCertificateDer(new Uint8Array(c.rawData)) });
        return { ...at, kind: 'opaque', what: `PKCS#7 with ${certs.length} certificate(s)` };
      },
      () => ({ ...at, kind: 'csr', csr: parseCsrDer(der) }),
    ];
    for (const t of tries) {
      try {
        const a = t();
        if (a.kind !== 'opaque') this.add(v, a);
        if (end < der.length) this.valueProblem(v, 'warning', `${der.length - end} bytes after the DER object`, block, offset);
        return;
      } catch {
        // try the next kind
      }
    }
    this.valueProblem(v, 'error', `unrecognised DER (${der.length} bytes): not a certificate, CRL, private key, PKCS#7 or CSR`, block, offset);
  }

  private pem(v: Value, text: string): void {
    const scan = scanPem(text);
    v.scan = scan;
    // What Go's pem.Decode sees (in order), to say which blocks Istio would skip.
    const goSees = new Set<number>();
    const goBlocks = decodePemBundle(text);
    let gi = 0;
    for (const b of scan.blocks) {
      const g = goBlocks[gi];
      if (g && g.type === b.type && equalBytes(g.bytes, b.bytes)) {
        goSees.add(b.index);
        gi++;
      }
    }
    for (const b of scan.blocks) this.pemBlock(v, b, goSees.has(b.index));
    if (scan.blocks.length === 0) this.valueProblem(v, 'error', 'a BEGIN marker without a readable block');
  }

  private pemBlock(v: Value, b: ScannedBlock, goSees: boolean): void {
    const label = displayLabel(b.type);
    const where = `block ${b.index} (${label || 'no type'}, line ${lineOf(v.pemText ?? '', b.offset)})`;
    if (b.unterminated) {
      this.valueProblem(v, 'error', `${where}: no END line (truncated?)`, b.index, b.offset);
      return;
    }
    if (b.endTypeMismatch !== undefined)
      this.valueProblem(
        v,
        'error',
        `${where}: BEGIN says "${label}" but END says "${displayLabel(b.endTypeMismatch)}"; Go's PEM decoder skips this block`,
        b.index,
        b.offset,
      );
    if (!b.base64Strict) this.valueProblem(v, 'error', `${where}: the body is not valid base64 (Go's PEM decoder skips this block)`, b.index, b.offset);
    if (b.indented) this.valueProblem(v, 'warning', `${where}: the markers are indented; Go's PEM decoder does not see this block`, b.index, b.offset);
    else if (!goSees && b.base64Strict && b.endTypeMismatch === undefined)
      this.valueProblem(v, 'warning', `${where}: Go's PEM decoder would skip this block (text after the END marker, or a malformed line)`, b.index, b.offset);
    if (!b.base64Strict || b.endTypeMismatch !== undefined) return;
    const at = { block: b.index, offset: b.offset, pemType: label };
    const encrypted = b.headers['Proc-Type']?.includes('ENCRYPTED') || b.type === 'ENCRYPTED PRIVATE KEY';
    switch (b.type) {
      case 'CERTIFICATE':
      case 'TRUSTED CERTIFICATE':
      case 'X509 CERTIFICATE': {
        try {
          let der = b.bytes;
          if (b.type === 'TRUSTED CERTIFICATE') der = der.subarray(0, readTlv(der, 0).next);
          this.add(v, { ...at, kind: 'certificate', cert: parseCertificateDer(der) });
          if (b.type === 'TRUSTED CERTIFICATE')
            this.valueProblem(
              v,
              'warning',
              `${where}: an OpenSSL "TRUSTED CERTIFICATE"; Go ignores it in trust pools and cannot parse it as a signing certificate`,
              b.index,
              b.offset,
            );
          else if (b.type === 'X509 CERTIFICATE')
            // Istio's own PEM parsing (pem.Decode, then x509.ParseCertificate) takes any label.
            this.valueProblem(
              v,
              'warning',
              `${where}: "X509 CERTIFICATE" is OpenSSL's old label; Go's AppendCertsFromPEM and tls.X509KeyPair take only "CERTIFICATE" blocks, so Istio leaves it out of trust bundles and key pairs`,
              b.index,
              b.offset,
            );
          if (Object.keys(b.headers).length > 0)
            this.valueProblem(v, 'warning', `${where}: a CERTIFICATE block with PEM headers; Go's AppendCertsFromPEM skips it`, b.index, b.offset);
        } catch (e) {
          this.valueProblem(v, 'error', `${where}: ${e instanceof CertParseError ? e.message : 'not a certificate'}`, b.index, b.offset);
        }
        return;
      }
      case 'X509 CRL':
      case 'CRL':
        try {
          this.add(v, { ...at, kind: 'crl', crl: parseCrlDer(b.bytes) });
        } catch (e) {
          this.valueProblem(v, 'error', `${where}: ${(e as Error).message}`, b.index, b.offset);
        }
        return;
      case 'CERTIFICATE REQUEST':
      case 'NEW CERTIFICATE REQUEST':
        try {
          this.add(v, { ...at, kind: 'csr', csr: parseCsrDer(b.bytes) });
        } catch (e) {
          this.valueProblem(v, 'error', `${where}: malformed certificate request: ${(e as Error).message}`, b.index, b.offset);
        }
        return;
      case 'PUBLIC KEY':
        this.add(v, { ...at, kind: 'public-key', spki: b.bytes });
        return;
      case 'PKCS7':
      case 'CMS':
        this.der(v, b.bytes, b.index, b.offset, b.type);
        return;
      default:
        if (b.type === 'PRIVATE KEY' || b.type.endsWith(' PRIVATE KEY')) {
          if (encrypted) {
            this.add(v, { ...at, kind: 'encrypted-key', reason: 'encrypted private key' });
            this.valueProblem(v, 'error', `${where}: an encrypted private key; Istio cannot read encrypted keys (KEY_ENCRYPTED)`, b.index, b.offset);
            return;
          }
          if (b.type === 'OPENSSH PRIVATE KEY') {
            this.add(v, { ...at, kind: 'encrypted-key', reason: 'OpenSSH key format' });
            this.valueProblem(
              v,
              'error',
              `${where}: an OpenSSH key; Istio reads only PKCS#1, SEC1 and PKCS#8 keys (KEY_UNSUPPORTED_PEM_TYPE)`,
              b.index,
              b.offset,
            );
            return;
          }
          try {
            this.add(v, { ...at, kind: 'private-key', key: parsePrivateKeyDer(b.bytes, b.type), encrypted: false });
          } catch (e) {
            this.valueProblem(v, 'error', `${where}: ${e instanceof KeyParseError ? e.message : 'not a private key'}`, b.index, b.offset);
          }
          return;
        }
        this.add(v, { ...at, kind: 'opaque', what: `PEM block of unknown type "${label}"` });
        this.valueProblem(v, 'warning', `${where}: unknown PEM type "${label}"`, b.index, b.offset);
    }
  }

  /** The last text split into lines: its objects and their keys are each looked up in it. */
  private split: { text: string; lines: string[] } | undefined;

  private linesOf(text: string): readonly string[] {
    if (this.split?.text !== text) this.split = { text, lines: text.split('\n') };
    return this.split.lines;
  }

  /** JSON or YAML: dumps, Kubernetes objects. Returns false when it is none of those. */
  private structured(origin: Origin, text: string, depth: number): boolean {
    let docs: unknown[] = [];
    const trimmed = text.trim();
    let parsedAsJson = false;
    if (/^[{[]/.test(trimmed)) {
      try {
        docs = [JSON.parse(trimmed)];
        parsedAsJson = true;
      } catch {
        docs = [];
      }
    }
    if (!parsedAsJson) {
      try {
        docs = jsyaml.loadAll(text, undefined, YAML_LOAD_OPTIONS) as unknown[];
      } catch (e) {
        if (/^(apiVersion|kind)\s*:/m.test(trimmed) && !/-----BEGIN/.test(trimmed.split('\n')[0] ?? '')) {
          this.problem('error', `not readable YAML: ${(e as Error).message.split('\n')[0]}`, origin);
          return true;
        }
        return false;
      }
    }
    const starts = documentStartLines(this.linesOf(text));
    let handled = false;
    docs.forEach((doc, i) => {
      if (this.document(origin, doc, depth, starts[i] ?? 1, text)) handled = true;
    });
    return handled;
  }

  private document(origin: Origin, doc: unknown, depth: number, line: number, text: string): boolean {
    if (Array.isArray(doc)) {
      // C: ztunnel certificates (a bare list of identities).
      if (doc.length > 0 && doc.every((d) => isObj(d) && 'identity' in d && ('certChain' in d || 'state' in d))) {
        this.ztunnel(origin, doc as Obj[], depth);
        return true;
      }
      return false;
    }
    if (!isObj(doc)) return false;
    // A: Envoy /config_dump.
    if (Array.isArray(doc.configs)) {
      const dumps = (doc.configs as unknown[]).filter(
        (c): c is Obj => isObj(c) && typeof c['@type'] === 'string' && (c['@type'] as string).endsWith('envoy.admin.v3.SecretsConfigDump'),
      );
      if (dumps.length === 0) {
        this.problem('info', 'an Envoy config dump without a SecretsConfigDump (no secrets to show)', origin);
        return true;
      }
      for (const d of dumps) this.envoy(origin, d, 'config_dump', depth);
      return true;
    }
    // B: istioctl proxy-config secret -o json / yaml.
    if (
      ['dynamicActiveSecrets', 'dynamicWarmingSecrets', 'dynamic_active_secrets', 'dynamic_warming_secrets', 'staticSecrets', 'static_secrets'].some(
        (k) => k in doc,
      )
    ) {
      this.envoy(origin, doc, 'istioctl', depth);
      return true;
    }
    // C: a full ztunnel dump.
    if (Array.isArray(doc.certificates) && (doc.certificates as unknown[]).every((d) => isObj(d) && 'identity' in d)) {
      this.ztunnel(origin, doc.certificates as Obj[], depth);
      return true;
    }
    // F: Kubernetes objects.
    const items = listItemsAsRead(doc);
    if (items) {
      let any = false;
      for (const item of items) if (this.document({ ...origin }, item, depth, line, text)) any = true;
      return any;
    }
    if ((doc.kind === 'Secret' || doc.kind === 'ConfigMap') && isObj(doc.metadata)) {
      this.kube(origin, doc, depth, objectLine(this.linesOf(text), str((doc.metadata as Obj).name), line), text);
      return true;
    }
    if (isKubeconfig(doc)) {
      this.problem('info', 'a kubeconfig; its certificates are read from clusters[].cluster and users[].user', origin);
      this.kubeconfig(origin, doc, depth, undefined, 'kubeconfig');
      return true;
    }
    return false;
  }

  private kube(origin: Origin, doc: Obj, depth: number, line: number, text: string): void {
    const meta = doc.metadata as Obj;
    // Names, keys and the type are shown in every message and report line: one that is not a
    // Kubernetes name (the API server would refuse it) is shown as a placeholder, since it may
    // hold anything, even a private key folded into a plain YAML scalar.
    const shown = (field: string, value: string): string => {
      if (isKubeWord(value)) return value;
      const placeholder = `(not a valid ${field}: ${value.length} characters)`;
      this.problem('warning', `${field} is not a valid Kubernetes name (the API server would reject this object); it is shown as "${placeholder}"`, {
        ...origin,
        line,
      });
      return placeholder;
    };
    const ref: ObjectRef = {
      kind: doc.kind as string,
      namespace: shown('metadata.namespace', str(meta.namespace)) || 'default',
      name: shown('metadata.name', str(meta.name)),
    };
    const labels: Record<string, string> = {};
    if (isObj(meta.labels)) for (const [k, val] of Object.entries(meta.labels)) labels[k] = str(val);
    const objOrigin: Origin = { input: origin.input, path: [...origin.path, `${ref.kind} ${ref.namespace}/${ref.name}`], object: ref, line };
    const obj: KubeObject = {
      kind: ref.kind as 'Secret' | 'ConfigMap',
      ref,
      type: shown('type', str(doc.type)) || (ref.kind === 'Secret' ? 'Opaque' : ''),
      labels,
      origin: objOrigin,
      values: new Map(),
      badKeys: [],
    };
    const entries = new Map<string, { bytes?: Uint8Array; text?: string }>();
    const base64Field = ref.kind === 'Secret' ? 'data' : 'binaryData';
    const textField = ref.kind === 'Secret' ? 'stringData' : 'data';
    if (isObj(doc[base64Field])) {
      for (const [rawKey, raw] of Object.entries(doc[base64Field] as Obj)) {
        const k = shown(`${base64Field} key`, rawKey);
        const s = raw === null || raw === undefined ? '' : typeof raw === 'string' ? raw : undefined;
        // As the API server decodes it (encoding/json → base64.StdEncoding): line breaks are skipped, a space or tab is an error.
        const bytes = s === undefined ? undefined : decodeBase64Std(s);
        if (!bytes) {
          obj.badKeys.push(k);
          this.problem('error', `${base64Field}.${k} is not valid base64 (the API server would reject this ${ref.kind})`, {
            ...objOrigin,
            key: k,
            line: keyLine(this.linesOf(text), k, line),
          });
          continue;
        }
        entries.set(k, { bytes });
      }
    }
    if (isObj(doc[textField])) {
      // stringData wins over data on a clash, as the API server merges them.
      for (const [k, raw] of Object.entries(doc[textField] as Obj))
        entries.set(shown(`${textField} key`, k), { text: raw === null || raw === undefined ? '' : str(raw) });
    }
    const isRemote = ref.kind === 'Secret' && labels['istio/multiCluster'] === 'true';
    for (const [k, e] of entries) {
      const keyOrigin: Origin = { ...objOrigin, path: [...objOrigin.path, k], key: k, line: keyLine(this.linesOf(text), k, line) };
      if (isRemote) {
        const kubeconfig = e.bytes ? utf8Text(e.bytes) : (e.text ?? '');
        if (isRedactedText(kubeconfig)) {
          this.problem('info', `remote secret key "${k}": the kubeconfig was redacted in this link; not checked`, keyOrigin);
          continue;
        }
        this.remote(obj, keyOrigin, kubeconfig, depth);
        continue;
      }
      const v = this.value(keyOrigin, e.bytes ?? utf8(e.text ?? ''), depth + 1, e.text);
      if (v) obj.values.set(k, v);
      else {
        // The value held a container (e.g. base64 inside); keep its leaf values under the key.
        const inner = this.out.values.filter((x) => x.origin.key === k && x.origin.object === keyOrigin.object && x.origin.path.length > keyOrigin.path.length);
        if (inner[0]) obj.values.set(k, inner[0]);
      }
    }
    this.out.objects.push(obj);
  }

  private remote(obj: KubeObject, origin: Origin, text: string, depth: number): void {
    let cfg: unknown;
    try {
      cfg = jsyaml.load(text, YAML_LOAD_OPTIONS);
    } catch (e) {
      this.out.remotes.push({
        secret: obj.ref,
        origin,
        clusterId: origin.key ?? '',
        server: '',
        auth: '',
        error: `the kubeconfig is not readable YAML: ${(e as Error).message.split('\n')[0]}`,
      });
      this.problem('error', `remote secret key "${origin.key}": the kubeconfig is not readable YAML`, origin);
      return;
    }
    if (!isObj(cfg)) {
      this.out.remotes.push({ secret: obj.ref, origin, clusterId: origin.key ?? '', server: '', auth: '', error: 'the value is not a kubeconfig' });
      this.problem('error', `remote secret key "${origin.key}": the value is not a kubeconfig`, origin);
      return;
    }
    this.kubeconfig(origin, cfg, depth, obj, origin.key ?? '');
  }

  /** A kubeconfig, as Istio's multi-cluster controller reads it (the current context's cluster and user). */
  private kubeconfig(origin: Origin, cfg: Obj, depth: number, obj: KubeObject | undefined, clusterId: string): void {
    const ref = obj?.ref ?? { kind: 'Config', namespace: '', name: origin.input };
    const contexts = Array.isArray(cfg.contexts) ? (cfg.contexts as unknown[]).filter(isObj) : [];
    const clusters = Array.isArray(cfg.clusters) ? (cfg.clusters as unknown[]).filter(isObj) : [];
    const users = Array.isArray(cfg.users) ? (cfg.users as unknown[]).filter(isObj) : [];
    const current = str(cfg['current-context']);
    const namedCtx = named(contexts, current);
    const ctx = namedCtx ?? onlyEntry(contexts);
    const ctxBody = ctx && isObj(ctx.context) ? ctx.context : undefined;
    const namedCluster = ctxBody ? named(clusters, str(ctxBody.cluster)) : undefined;
    const namedUser = ctxBody ? named(users, str(ctxBody.user)) : undefined;
    const cluster = namedCluster ?? onlyEntry(clusters);
    const user = namedUser ?? onlyEntry(users);
    const rc: RemoteCluster = { secret: ref, origin, clusterId, server: '', auth: 'none' };
    const errors: string[] = [];
    // client-go's Validate and ConfirmUsable refuse a current-context that names no context, and a
    // context whose cluster or user is not in the lists; the only entry of a list is still read
    // above, to show its certificates.
    if (!current || !namedCtx) errors.push(current ? `context "${current}" not found` : 'no current-context');
    else if (ctxBody) {
      if (cluster && !namedCluster) errors.push(`cluster "${str(ctxBody.cluster)}" not found`);
      if (user && !namedUser) errors.push(`user "${str(ctxBody.user)}" not found`);
    }
    const cl = cluster && isObj(cluster.cluster) ? cluster.cluster : undefined;
    if (!cl) errors.push('no cluster for the current context');
    else {
      rc.server = str(cl.server);
      if (!rc.server) errors.push('the cluster has no server');
      // client-go reads *-data as encoding/json reads []byte: line breaks skipped, a space an error.
      if (typeof cl['certificate-authority-data'] === 'string') {
        const b = decodeBase64Std(cl['certificate-authority-data']);
        if (b) rc.ca = this.value({ ...origin, path: [...origin.path, 'certificate-authority-data'] }, b, depth + 1);
        else errors.push('certificate-authority-data is not valid base64');
      } else if (cl['insecure-skip-tls-verify'] === true) rc.auth = 'insecure-skip-tls-verify';
    }
    const u = user && isObj(user.user) ? user.user : undefined;
    if (!u) errors.push('no user for the current context');
    else if (typeof u.token === 'string') rc.auth = 'bearer token';
    else if (typeof u['client-certificate-data'] === 'string') {
      rc.auth = 'client certificate';
      const c = decodeBase64Std(u['client-certificate-data'] as string);
      if (c) rc.clientCert = this.value({ ...origin, path: [...origin.path, 'client-certificate-data'] }, c, depth + 1);
      else errors.push('client-certificate-data is not valid base64');
      if (typeof u['client-key-data'] === 'string') {
        const k = decodeBase64Std(u['client-key-data'] as string);
        if (k) rc.clientKey = this.value({ ...origin, path: [...origin.path, 'client-key-data'] }, k, depth + 1);
        else errors.push('client-key-data is not valid base64');
      } else errors.push('client-certificate-data without client-key-data');
    } else if (isObj(u.exec)) rc.auth = `exec plugin (${str((u.exec as Obj).command)})`;
    else if (isObj(u['auth-provider'])) rc.auth = `auth provider (${str((u['auth-provider'] as Obj).name)})`;
    else if (typeof u.username === 'string') rc.auth = 'basic auth';
    if (errors.length > 0) {
      rc.error = `malformed kubeconfig: ${errors.join('; ')}`;
      this.problem('error', `${obj ? `remote secret key "${clusterId}"` : 'kubeconfig'}: ${rc.error}`, origin);
    }
    this.out.remotes.push(rc);
  }

  private envoy(origin: Origin, dump: Obj, style: 'config_dump' | 'istioctl', depth: number): void {
    const d: EnvoyDump = {
      style,
      origin: { ...origin, path: [...origin.path, style === 'config_dump' ? 'Envoy config dump' : 'istioctl proxy-config secret'] },
      secrets: [],
    };
    const lists: Array<[string[], DumpSecret['status']]> = [
      [['dynamic_warming_secrets', 'dynamicWarmingSecrets'], 'WARMING'],
      [['dynamic_active_secrets', 'dynamicActiveSecrets'], 'ACTIVE'],
      [['static_secrets', 'staticSecrets'], 'STATIC'],
    ];
    for (const [keys, status] of lists) {
      for (const k of keys) {
        const list = dump[k];
        if (!Array.isArray(list)) continue;
        for (const entry of list) if (isObj(entry)) d.secrets.push(this.dumpSecret(d.origin, entry, status, depth));
      }
    }
    this.out.dumps.push(d);
  }

  private dumpSecret(origin: Origin, e: Obj, status: DumpSecret['status'], depth: number): DumpSecret {
    const name = str(e.name);
    const s: DumpSecret = {
      name,
      status,
      versionInfo: str(pick(e, 'version_info', 'versionInfo')),
      lastUpdated: str(pick(e, 'last_updated', 'lastUpdated')),
      spiffe: [],
    };
    const secret = isObj(e.secret) ? e.secret : undefined;
    const so: Origin = { ...origin, path: [...origin.path, `secret ${name}`], key: name };
    const source = (ds: unknown, field: string): { value?: Value; file?: string } => {
      if (!isObj(ds)) return {};
      const inlineBytes = pick(ds, 'inline_bytes', 'inlineBytes');
      const inlineString = pick(ds, 'inline_string', 'inlineString');
      const fo: Origin = { ...so, path: [...so.path, field] };
      if (typeof inlineBytes === 'string') {
        const b = decodeBase64Std(inlineBytes.replace(/\s+/g, ''));
        if (!b) {
          this.problem('error', `${field}: inline bytes are not valid base64`, fo);
          return {};
        }
        return { value: this.leafValue(fo, b, depth) };
      }
      if (typeof inlineString === 'string') return { value: this.leafValue(fo, utf8(inlineString), depth, inlineString) };
      const filename = pick(ds, 'filename');
      if (typeof filename === 'string') return { file: filename };
      return {};
    };
    if (secret) {
      const tls = pick(secret, 'tls_certificate', 'tlsCertificate');
      if (isObj(tls)) {
        const chain = source(pick(tls, 'certificate_chain', 'certificateChain'), 'certificate chain');
        s.certificateChain = chain.value;
        s.certificateChainFile = chain.file;
        const pk = pick(tls, 'private_key', 'privateKey');
        if (isObj(pk)) {
          const ib = pick(pk, 'inline_bytes', 'inlineBytes');
          const decoded = typeof ib === 'string' ? decodeBase64Std(ib) : undefined;
          const bytesText = decoded ? utf8Text(decoded) : undefined;
          const inlineString = pick(pk, 'inline_string', 'inlineString');
          const linkRedacted = isRedactedText(bytesText ?? (typeof inlineString === 'string' ? inlineString : ''));
          // Envoy's redaction writes "[redacted]" in every string or bytes field of the key.
          const envoyRedacted = bytesText === '[redacted]' || inlineString === '[redacted]';
          s.privateKey = envoyRedacted ? 'redacted' : linkRedacted ? 'redacted-in-link' : typeof pick(pk, 'filename') === 'string' ? 'file' : 'inline';
        } else s.privateKey = 'absent';
      }
      const vc = pick(secret, 'validation_context', 'validationContext');
      if (isObj(vc)) {
        const ca = source(pick(vc, 'trusted_ca', 'trustedCa'), 'trusted CA');
        s.trustedCa = ca.value;
        s.trustedCaFile = ca.file;
        const crl = source(pick(vc, 'crl'), 'CRL');
        s.crl = crl.value;
        const custom = pick(vc, 'custom_validator_config', 'customValidatorConfig');
        const typed = isObj(custom) ? pick(custom, 'typed_config', 'typedConfig') : undefined;
        const tds = isObj(typed) ? pick(typed, 'trust_domains', 'trustDomains') : undefined;
        if (Array.isArray(tds)) {
          for (const td of tds) {
            if (!isObj(td)) continue;
            const b = source(pick(td, 'trust_bundle', 'trustBundle'), `trust bundle ${str(td.name)}`);
            if (b.value) s.spiffe.push({ trustDomain: str(td.name), bundle: b.value });
          }
        }
      }
    }
    return s;
  }

  /** A value that must end as leaf material (a dump field): decoded, and returned even when nested. */
  private leafValue(origin: Origin, bytes: Uint8Array, depth: number, text?: string): Value {
    const before = this.out.values.length;
    const v = this.value(origin, bytes, depth + 1, text);
    if (v) return v;
    const added = this.out.values.slice(before);
    return added.find((x) => x.artefacts.length > 0) ?? added[0] ?? { origin, bytes, encoding: 'empty', artefacts: [], problems: [] };
  }

  private ztunnel(origin: Origin, list: Obj[], depth: number): void {
    const z: ZtunnelDump = { origin: { ...origin, path: [...origin.path, 'ztunnel certificates'] }, identities: [] };
    for (const id of list) {
      const identity = str(id.identity);
      const io: Origin = { ...z.origin, path: [...z.origin.path, identity], key: identity };
      const certs = (field: string): ZtunnelCert[] => {
        const arr = id[field];
        if (!Array.isArray(arr)) return [];
        return arr.filter(isObj).map((c, i) => {
          const pem = str(c.pem);
          const fo: Origin = { ...io, path: [...io.path, `${field}[${i}]`] };
          // Current ztunnel writes base64 of the PEM; istioctl's fixture holds PEM text.
          const value = pem.trimStart().startsWith('-----BEGIN') ? this.leafValue(fo, utf8(pem), depth, pem) : this.leafValue(fo, utf8(pem), depth);
          return { value, serialNumber: str(c.serialNumber), validFrom: str(c.validFrom), expirationTime: str(c.expirationTime) };
        });
      };
      z.identities.push({ identity, state: str(id.state), certChain: certs('certChain'), rootCerts: certs('rootCerts') });
    }
    this.out.ztunnel.push(z);
  }
}

type Obj = Record<string, unknown>;

function str(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : '';
}

function pick(o: Obj, ...keys: string[]): unknown {
  for (const k of keys) if (Object.hasOwn(o, k)) return o[k];
  return undefined;
}

/** The entry of a kubeconfig list (contexts, clusters, users) with this name. */
function named(list: readonly Obj[], name: string): Obj | undefined {
  return list.find((e) => str(e.name) === name);
}

/**
 * `kind: Config` with clusters, or no kind and no apiVersion (or v1): clientcmd.Load reads it as v1
 * Config. Without a kind, clusters must hold `cluster` entries (another format's list is not one).
 */
function isKubeconfig(doc: Obj): boolean {
  if (!Array.isArray(doc.clusters)) return false;
  if (doc.kind === 'Config') return true;
  if (doc.kind !== undefined || (doc.apiVersion !== undefined && doc.apiVersion !== 'v1')) return false;
  return doc.clusters.length > 0 && doc.clusters.every((c) => isObj(c) && isObj(c.cluster));
}

/** The only entry of a list, when it has exactly one. */
function onlyEntry(list: readonly Obj[]): Obj | undefined {
  return list.length === 1 ? list[0] : undefined;
}

/** Decodes every input. */
export function decodeInputs(files: readonly InputFile[]): Decoded {
  const d = new Decoder();
  for (const f of files) {
    try {
      d.input(f);
    } catch (e) {
      d.problem('error', `could not be read: ${e instanceof Error ? e.message : String(e)}`, { input: f.name, path: [] });
    }
  }
  return d.out;
}

/** Decodes one value (a Secret data key, a file) on its own, in a given context. */
export function decodeValue(origin: Origin, bytes: Uint8Array, text?: string): { value?: Value; decoded: Decoded } {
  const d = new Decoder();
  const v = d.value(origin, bytes, 1, text);
  return { value: v ?? d.out.values.find((x) => x.artefacts.length > 0) ?? d.out.values[0], decoded: d.out };
}

/** A Kubernetes object from the workspace store, decoded the same way as a pasted one. */
export function decodeKubeObject(input: string, body: unknown, line: number | undefined): Decoded {
  const d = new Decoder();
  (d as unknown as { document(o: Origin, doc: unknown, depth: number, line: number, text: string): boolean }).document(
    { input, path: [] },
    body,
    0,
    line ?? 1,
    '',
  );
  return d.out;
}

/** A Kubernetes object name, namespace, data key or Secret type (the characters they allow, at most 253). */
function isKubeWord(s: string): boolean {
  return s.length <= 253 && /^[A-Za-z0-9._/-]*$/.test(s);
}

/**
 * A PEM label as we may show it. Labels are short upper-case words; a BEGIN line that runs on
 * (a PEM folded onto one line, as a plain YAML scalar does) would otherwise put the block's
 * body, perhaps a private key, into messages and reports.
 */
function displayLabel(type: string): string {
  return type.length <= 48 && /^[A-Za-z0-9][A-Za-z0-9 ._/+()]*$/.test(type) ? type : `a malformed label of ${type.length} characters`;
}
