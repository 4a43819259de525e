// Distinguished names in the three spellings the views need: openssl's one-line form in
// certificate order (`C=US, O=Istio, CN=Root CA`, what the corpus and most users compare
// with), RFC 2253 (reversed, `CN=Root CA,O=Istio,C=US`), and Go's pkix.Name.String(), which
// Istio's error texts carry ("missing CRL signed by certificates: [CN=Root CA]").
// Parsing is @peculiar/asn1-x509's; the formatting follows each tool's rules.
import { asn1, asnX509 } from './lib.ts';
import { DN_SHORT_NAMES, GO_DN_NAMES } from './oids.ts';
import { hex } from './bytes.ts';
import { readTlv } from './der.ts';

export interface NameAttribute {
  oid: string;
  /** The value as text; undefined for a value that is not a string type. */
  text?: string;
  /** ASN.1 string type of the value (`printableString`, `utf8String`, …) or `other`. */
  stringType: string;
  /** DER of a non-string value. */
  raw?: Uint8Array;
}

/** A name as its relative distinguished names (each one or more attributes), in DER order. */
export type ParsedName = NameAttribute[][];

const NUMERIC_STRING = 0x12;

const STRING_FIELDS = ['printableString', 'utf8String', 'ia5String', 'teletexString', 'bmpString', 'universalString'] as const;

/** Parses a DER Name. Throws on malformed input. */
export function parseName(der: Uint8Array): ParsedName {
  const name = asn1.AsnConvert.parse(der, asnX509.Name);
  return fromAsnName(name);
}

export function fromAsnName(name: asnX509.Name): ParsedName {
  const out: ParsedName = [];
  for (const rdn of name) {
    const attrs: NameAttribute[] = [];
    for (const atv of rdn) {
      const v = atv.value;
      let found: NameAttribute | undefined;
      for (const f of STRING_FIELDS) {
        const s = v[f];
        if (typeof s === 'string') {
          found = { oid: atv.type, text: s, stringType: f };
          break;
        }
      }
      if (!found && v.anyValue) found = numericString(atv.type, new Uint8Array(v.anyValue));
      if (!found)
        found = v.anyValue ? { oid: atv.type, stringType: 'other', raw: new Uint8Array(v.anyValue) } : { oid: atv.type, text: '', stringType: 'other' };
      attrs.push(found);
    }
    out.push(attrs);
  }
  return out;
}

/**
 * A NumericString value (X.680 §41.2: digits and space), which the library leaves as an
 * opaque value. Go's x509 (parser.go parseASN1String) and openssl read it as a string.
 */
function numericString(oid: string, der: Uint8Array): NameAttribute | undefined {
  if (der[0] !== NUMERIC_STRING) return undefined;
  const t = readTlv(der, 0);
  return { oid, text: String.fromCharCode(...der.subarray(t.start, t.end)), stringType: 'numericString' };
}

function escape2253(value: string): string {
  let out = '';
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    const edge = i === 0 || i === value.length - 1;
    if (',+"\\<>;'.includes(c) || (c === '#' && i === 0) || (c === ' ' && edge)) out += '\\' + c;
    else if (c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f) out += '\\' + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0');
    else out += c;
  }
  return out;
}

function opensslAttr(a: NameAttribute): string {
  const key = DN_SHORT_NAMES[a.oid] ?? a.oid;
  const value = a.text !== undefined ? escape2253(a.text) : `#${hex(a.raw ?? new Uint8Array())}`;
  return `${key}=${value}`;
}

/** openssl `-nameopt sep_comma_plus_space,sname,esc_2253`: certificate order, `, ` between RDNs. */
export function opensslName(name: ParsedName): string {
  return name.map((rdn) => rdn.map(opensslAttr).join(' + ')).join(', ');
}

/**
 * openssl `-nameopt RFC2253`: reversed order, `,` between RDNs, `+` inside one. openssl
 * reverses the attributes inside a multi-valued RDN too (it walks all entries backwards).
 */
export function rfc2253Name(name: ParsedName): string {
  return [...name]
    .reverse()
    .map((rdn) => [...rdn].reverse().map(opensslAttr).join('+'))
    .join(',');
}

export function commonName(name: ParsedName): string | undefined {
  let cn: string | undefined;
  for (const rdn of name) for (const a of rdn) if (a.oid === '2.5.4.3' && a.text !== undefined) cn = a.text;
  return cn;
}

export function firstValue(name: ParsedName, oid: string): string | undefined {
  for (const rdn of name) for (const a of rdn) if (a.oid === oid && a.text !== undefined) return a.text;
  return undefined;
}

// ---- Go's pkix.Name.String() --------------------------------------------------------

/**
 * Whether Go's asn1.Marshal writes a string as a PrintableString: every character in the
 * PrintableString alphabet. Go tolerates `*` and `&` when parsing, but Marshal rejects them
 * (marshal.go makeField: isPrintable(…, rejectAsterisk, rejectAmpersand)) and writes a
 * UTF8String instead.
 */
function goPrintable(s: string): boolean {
  return /^[a-zA-Z0-9 '()+,\-./:=?]*$/.test(s);
}

function derLength(n: number): number[] {
  if (n < 0x80) return [n];
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return [0x80 | bytes.length, ...bytes];
}

/** What Go's asn1.Marshal writes for a string value it parsed from a name. */
function goMarshalString(s: string): Uint8Array {
  const body = new TextEncoder().encode(s);
  const tag = goPrintable(s) ? 0x13 : 0x0c;
  return new Uint8Array([tag, ...derLength(body.length), ...body]);
}

function goEscape(value: string): string {
  const chars = [...value];
  let out = '';
  chars.forEach((c, k) => {
    let esc = false;
    if (',+"\\<>;'.includes(c)) esc = true;
    else if (c === ' ') esc = k === 0 || k === chars.length - 1;
    else if (c === '#') esc = k === 0;
    out += esc ? '\\' + c : c;
  });
  return out;
}

const GO_FIELDS: ReadonlyArray<[string, 'multi' | 'last']> = [
  ['2.5.4.6', 'multi'],
  ['2.5.4.8', 'multi'],
  ['2.5.4.7', 'multi'],
  ['2.5.4.9', 'multi'],
  ['2.5.4.17', 'multi'],
  ['2.5.4.10', 'multi'],
  ['2.5.4.11', 'multi'],
  ['2.5.4.3', 'last'],
  ['2.5.4.5', 'last'],
];

/**
 * Go's `pkix.Name.String()` of a parsed certificate name: the attributes Go does not file
 * into named fields come first in the sequence (so last in the text), then C, ST, L,
 * STREET, POSTALCODE, O, OU, CN, SERIALNUMBER (each type one RDN); printed in reverse.
 */
export function goNameString(name: ParsedName): string {
  const known = new Set(GO_FIELDS.map(([o]) => o));
  const rdns: NameAttribute[][] = [];
  for (const rdn of name) for (const a of rdn) if (!known.has(a.oid)) rdns.push([a]);
  for (const [oid, mode] of GO_FIELDS) {
    const values: NameAttribute[] = [];
    for (const rdn of name) for (const a of rdn) if (a.oid === oid && a.text !== undefined) values.push(a);
    if (values.length === 0) continue;
    // Go keeps the last CommonName / SerialNumber and leaves it out when it is empty
    // (pkix.Name.ToRDNSequence: `if len(n.CommonName) > 0`).
    if (mode === 'last' && values[values.length - 1]!.text === '') continue;
    rdns.push(mode === 'last' ? [values[values.length - 1]!] : values);
  }
  const parts: string[] = [];
  for (let i = rdns.length - 1; i >= 0; i--) {
    parts.push(
      rdns[i]!.map((a) => {
        const type = GO_DN_NAMES[a.oid];
        if (!type) {
          const der = a.text !== undefined ? goMarshalString(a.text) : (a.raw ?? new Uint8Array());
          return `${a.oid}=#${hex(der)}`;
        }
        return `${type}=${goEscape(a.text ?? '')}`;
      }).join('+'),
    );
  }
  return parts.join(',');
}
