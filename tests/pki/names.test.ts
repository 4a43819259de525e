// names.ts: distinguished names as the views print them. Expected values come from
//  - Go 1.26: x509.ParseCertificate(cert).Subject.String() for a certificate whose subject is the
//    DER below (and, for attribute values x509 refuses, pkix.Name.FillFromRDNSequence on the
//    asn1.Unmarshal'd RDNSequence, then String()), see crypto/x509/pkix/pkix.go;
//  - OpenSSL 3.0: `openssl x509 -noout -subject -nameopt sep_comma_plus_space,sname,esc_2253`
//    and `-nameopt RFC2253` of the same certificate;
//  - RFC 2253 §2 (string form of a DN) where neither tool prints the value.
// The names are built octet by octet here, never taken from our own output.
import 'reflect-metadata';
import { describe, expect, it } from 'vitest';
import { commonName, firstValue, goNameString, opensslName, parseName, rfc2253Name } from '../../src/core/pki/names.ts';
import { oid, seq, set, tlv } from './certDer.ts';

type Bytes = Uint8Array;
const enc = (s: string): Bytes => new TextEncoder().encode(s);
const printable = (s: string): Bytes => tlv(0x13, enc(s));
const utf8s = (s: string): Bytes => tlv(0x0c, enc(s));
const ia5s = (s: string): Bytes => tlv(0x16, enc(s));
const numeric = (s: string): Bytes => tlv(0x12, enc(s));
const integer5 = (): Bytes => tlv(0x02, new Uint8Array([0x05]));
/** One AttributeTypeAndValue. */
const atv = (dotted: string, value: Bytes): Bytes => seq(oid(dotted), value);
/** A Name of RDNs, each a SET of AttributeTypeAndValues. */
const dn = (...rdns: Bytes[][]): Bytes => seq(...rdns.map((r) => set(...r)));

const C = '2.5.4.6';
const ST = '2.5.4.8';
const L = '2.5.4.7';
const STREET = '2.5.4.9';
const POSTALCODE = '2.5.4.17';
const O = '2.5.4.10';
const OU = '2.5.4.11';
const CN = '2.5.4.3';
const SERIAL = '2.5.4.5';
const GN = '2.5.4.42';
const SN = '2.5.4.4';
const EMAIL = '1.2.840.113549.1.9.1';

const parsed = (...rdns: Bytes[][]) => parseName(dn(...rdns));
const go = (...rdns: Bytes[][]): string => goNameString(parsed(...rdns));
const ossl = (...rdns: Bytes[][]): string => opensslName(parsed(...rdns));
const r2253 = (...rdns: Bytes[][]): string => rfc2253Name(parsed(...rdns));

describe('parseName', () => {
  it('keeps each RDN and each attribute in DER order, with the string value', () => {
    const n = parsed([atv(C, printable('US'))], [atv(O, printable('a')), atv(O, utf8s('b'))]);
    expect(n).toEqual([
      [{ oid: C, text: 'US', stringType: 'printableString' }],
      [
        { oid: O, text: 'a', stringType: 'printableString' },
        { oid: O, text: 'b', stringType: 'utf8String' },
      ],
    ]);
  });

  it('a value that is no string keeps its DER and has no text (RFC 5280: AttributeValue ::= ANY)', () => {
    const n = parsed([atv('1.2.3.4', integer5())]);
    expect(n.length).toBe(1);
    expect(n[0]!.length).toBe(1);
    const a = n[0]![0]!;
    expect(a.oid).toBe('1.2.3.4');
    expect(a.text).toBeUndefined();
    expect(Buffer.from(a.raw!).toString('hex')).toBe('020105');
  });

  it('a NumericString is a string, as Go (parser.go parseASN1String) and openssl read it', () => {
    expect(parsed([atv(CN, numeric('123 4'))])[0]![0]!.text).toBe('123 4');
  });
});

describe('commonName and firstValue', () => {
  it('commonName is the last CN with a string value (Go FillFromRDNSequence: later CNs overwrite, non-strings are skipped)', () => {
    expect(commonName(parsed([atv(CN, printable('a'))], [atv(CN, printable('b'))]))).toBe('b');
    expect(commonName(parsed([atv(CN, printable('foo'))], [atv(CN, integer5())]))).toBe('foo');
    expect(commonName(parsed([atv(O, printable('o'))]))).toBeUndefined();
  });

  it('firstValue is the first string value of the type, skipping other types and non-strings', () => {
    const n = parsed([atv(CN, printable('c'))], [atv(O, integer5())], [atv(O, printable('o1'))], [atv(O, printable('o2'))]);
    expect(firstValue(n, O)).toBe('o1');
    expect(firstValue(n, CN)).toBe('c');
    expect(firstValue(n, OU)).toBeUndefined();
  });
});

describe('opensslName (openssl -nameopt sep_comma_plus_space,sname,esc_2253)', () => {
  it('prints RDNs in certificate order with ", " and the attributes of one RDN with " + "', () => {
    // openssl: subject=C=US, O=a + O=b, CN=c1, CN=c2
    expect(ossl([atv(C, printable('US'))], [atv(O, printable('a')), atv(O, printable('b'))], [atv(CN, printable('c1'))], [atv(CN, printable('c2'))])).toBe(
      'C=US, O=a + O=b, CN=c1, CN=c2',
    );
    // openssl: subject=O=a + O=b + O=c
    expect(ossl([atv(O, printable('a')), atv(O, printable('b')), atv(O, printable('c'))])).toBe('O=a + O=b + O=c');
  });

  it('uses the short names (openssl sname)', () => {
    // openssl: subject=serialNumber=42, CN=cn, OU=ou, O=o, postalCode=12345, street=street, L=l, ST=st, C=US
    expect(
      ossl(
        [atv(SERIAL, printable('42'))],
        [atv(CN, printable('cn'))],
        [atv(OU, printable('ou'))],
        [atv(O, printable('o'))],
        [atv(POSTALCODE, printable('12345'))],
        [atv(STREET, printable('street'))],
        [atv(L, printable('l'))],
        [atv(ST, printable('st'))],
        [atv(C, printable('US'))],
      ),
    ).toBe('serialNumber=42, CN=cn, OU=ou, O=o, postalCode=12345, street=street, L=l, ST=st, C=US');
    // openssl: subject=GN=g, CN=c, SN=s and subject=emailAddress=a@b.c
    expect(ossl([atv(GN, printable('g'))], [atv(CN, printable('c'))], [atv(SN, printable('s'))])).toBe('GN=g, CN=c, SN=s');
    expect(ossl([atv(EMAIL, ia5s('a@b.c'))])).toBe('emailAddress=a@b.c');
  });

  it('escapes as RFC 2253 §2.4 says: , + " \\ < > ; anywhere, # first, space first or last', () => {
    // openssl: subject=CN=\ #a\,b\+c\"d\\e\<f\>g\;h #i\  (the value " #a,b+c"d\e<f>g;h #i ")
    expect(ossl([atv(CN, utf8s(' #a,b+c"d\\e<f>g;h #i '))])).toBe('CN=\\ #a\\,b\\+c\\"d\\\\e\\<f\\>g\\;h #i\\ ');
    // openssl: subject=CN=\#x and subject=CN=a#b (a # not at the start stays)
    expect(ossl([atv(CN, utf8s('#x'))])).toBe('CN=\\#x');
    expect(ossl([atv(CN, utf8s('a#b'))])).toBe('CN=a#b');
    // A single space is both first and last.
    expect(ossl([atv(CN, utf8s(' '))])).toBe('CN=\\ ');
    expect(ossl([atv(CN, utf8s('a b'))])).toBe('CN=a b');
  });

  it('prints a NumericString value as text (openssl: subject=CN=123)', () => {
    expect(ossl([atv(CN, numeric('123'))])).toBe('CN=123');
  });
});

describe('rfc2253Name (openssl -nameopt RFC2253)', () => {
  it('reverses the RDNs and the attributes inside a multi-valued RDN, "," and "+" without spaces', () => {
    // openssl: subject=CN=c2,CN=c1,O=b+O=a,C=US
    expect(r2253([atv(C, printable('US'))], [atv(O, printable('a')), atv(O, printable('b'))], [atv(CN, printable('c1'))], [atv(CN, printable('c2'))])).toBe(
      'CN=c2,CN=c1,O=b+O=a,C=US',
    );
    // openssl: subject=O=c+O=b+O=a, and subject=O=o,GN=g+CN=x for { CN=x + GN=g }, { O=o }
    expect(r2253([atv(O, printable('a')), atv(O, printable('b')), atv(O, printable('c'))])).toBe('O=c+O=b+O=a');
    expect(r2253([atv(CN, printable('x')), atv(GN, printable('g'))], [atv(O, printable('o'))])).toBe('O=o,GN=g+CN=x');
  });

  it('escapes control characters as a backslash and two upper-case hex digits (openssl esc_ctrl, part of RFC2253)', () => {
    // openssl: subject=CN=a\01b\1Bc\7Fd
    expect(r2253([atv(CN, utf8s('a\x01b\x1bc\x7fd'))])).toBe('CN=a\\01b\\1Bc\\7Fd');
  });

  it('prints a value with no string form as # and the hex of its DER (RFC 2253 §2.4), the type as dotted OID (§2.3)', () => {
    expect(r2253([atv('1.2.3.4', integer5())])).toBe('1.2.3.4=#020105');
    expect(r2253([atv(CN, printable('c'))], [atv('1.2.3.4', tlv(0x04, new Uint8Array([1, 2])))])).toBe('1.2.3.4=#04020102,CN=c');
  });
});

// Go's pkix.Name.String(): attributes not filed into named fields first in the sequence (so
// last in the text), then C, ST, L, STREET, POSTALCODE, O, OU, CN, SERIALNUMBER, printed in
// reverse; a type with no name is printed as <oid>=#<hex of asn1.Marshal(value)>.
describe('goNameString (Go pkix.Name.String)', () => {
  it('orders the named fields as ToRDNSequence does and prints them in reverse', () => {
    // Go: SERIALNUMBER=42,CN=cn,OU=ou,O=o,POSTALCODE=12345,STREET=street,L=l,ST=st,C=US
    expect(
      go(
        [atv(SERIAL, printable('42'))],
        [atv(CN, printable('cn'))],
        [atv(OU, printable('ou'))],
        [atv(O, printable('o'))],
        [atv(POSTALCODE, printable('12345'))],
        [atv(STREET, printable('street'))],
        [atv(L, printable('l'))],
        [atv(ST, printable('st'))],
        [atv(C, printable('US'))],
      ),
    ).toBe('SERIALNUMBER=42,CN=cn,OU=ou,O=o,POSTALCODE=12345,STREET=street,L=l,ST=st,C=US');
  });

  it('joins the values of a multi-valued field with "+" in one RDN; CN and SERIALNUMBER keep the last value', () => {
    // Go: CN=c2,O=a+O=b,C=US
    expect(go([atv(C, printable('US'))], [atv(O, printable('a')), atv(O, printable('b'))], [atv(CN, printable('c1'))], [atv(CN, printable('c2'))])).toBe(
      'CN=c2,O=a+O=b,C=US',
    );
    // Go: CN=c,OU=a+OU=b (two OU RDNs become one)
    expect(go([atv(OU, printable('a'))], [atv(CN, printable('c'))], [atv(OU, printable('b'))])).toBe('CN=c,OU=a+OU=b');
    // Go: SERIALNUMBER=2
    expect(go([atv(SERIAL, printable('1'))], [atv(SERIAL, printable('2'))])).toBe('SERIALNUMBER=2');
  });

  it('leaves out an empty CommonName or SerialNumber, but not an empty O (ToRDNSequence: len(n.CommonName) > 0)', () => {
    // Go: "" (the last CN is empty), O=O1, CN=a, O=
    expect(go([atv(CN, printable('x'))], [atv(CN, printable(''))])).toBe('');
    expect(go([atv(O, printable('O1'))], [atv(CN, printable(''))])).toBe('O=O1');
    expect(go([atv(SERIAL, printable(''))], [atv(CN, printable('a'))])).toBe('CN=a');
    expect(go([atv(O, printable(''))])).toBe('O=');
  });

  it('skips non-string values of the named fields (FillFromRDNSequence: `value, ok := atv.Value.(string); if !ok { continue }`)', () => {
    // Go (pkix): CN=c,O=o and CN=foo
    expect(go([atv(O, printable('o'))], [atv(O, integer5())], [atv(CN, printable('c'))])).toBe('CN=c,O=o');
    expect(go([atv(CN, printable('foo'))], [atv(CN, integer5())])).toBe('CN=foo');
  });

  it('prints a NumericString CommonName as text (Go: CN=123)', () => {
    expect(go([atv(CN, numeric('123'))])).toBe('CN=123');
  });

  it('puts attributes without a Go field name last, each as its own RDN, as <oid>=#<DER>', () => {
    // Go: CN=x,O=o,2.5.4.42=#130167 (the CN + GN RDN is split: GN first in the sequence)
    expect(go([atv(CN, printable('x')), atv(GN, printable('g'))], [atv(O, printable('o'))])).toBe('CN=x,O=o,2.5.4.42=#130167');
    // Go: CN=c,2.5.4.4=#130173,2.5.4.42=#130167
    expect(go([atv(GN, printable('g'))], [atv(CN, printable('c'))], [atv(SN, printable('s'))])).toBe('CN=c,2.5.4.4=#130173,2.5.4.42=#130167');
    // Go (pkix): CN=c,C=US,1.2.3.4=#020105 (a non-string value is marshalled as it is)
    expect(go([atv(C, printable('US'))], [atv('1.2.3.4', integer5())], [atv(CN, printable('c'))])).toBe('CN=c,C=US,1.2.3.4=#020105');
  });

  it('re-marshals a string as PrintableString when every character allows it, else UTF8String (asn1.Marshal)', () => {
    // Go: 2.5.4.42=#130441622031, #130141, and emailAddress (IA5String in the certificate) as UTF8String: '@' is not printable.
    expect(go([atv(GN, printable('Ab 1'))])).toBe('2.5.4.42=#130441622031');
    expect(go([atv(GN, printable('A'))])).toBe('2.5.4.42=#130141');
    expect(go([atv(EMAIL, ia5s('a@b.c'))])).toBe('1.2.840.113549.1.9.1=#0c056140622e63');
    // Go reads '*' and '&' in a PrintableString but Marshal refuses them in one: 2.5.4.42=#0c03412642, #0c032a2e78.
    expect(go([atv(GN, printable('A&B'))])).toBe('2.5.4.42=#0c03412642');
    expect(go([atv(GN, printable('*.x'))])).toBe('2.5.4.42=#0c032a2e78');
  });

  it('writes the DER length of the re-marshalled value in the short form up to 127 and the long form from 128 (X.690 §10.1)', () => {
    const a = (n: number) => 'a'.repeat(n);
    const hexA = (n: number) => '61'.repeat(n);
    // Go: 2.5.4.42=#137f61…, #13818061…, #1382012c61…
    expect(go([atv(GN, printable(a(127)))])).toBe(`2.5.4.42=#137f${hexA(127)}`);
    expect(go([atv(GN, printable(a(128)))])).toBe(`2.5.4.42=#138180${hexA(128)}`);
    expect(go([atv(GN, printable(a(300)))])).toBe(`2.5.4.42=#1382012c${hexA(300)}`);
  });

  it('escapes , + " \\ < > ; anywhere, a leading #, and a leading or trailing space (RDNSequence.String)', () => {
    // Go: CN=\ #a\,b\+c\"d\\e\<f\>g\;h #i\  and CN=a#b and CN=\#x
    expect(go([atv(CN, utf8s(' #a,b+c"d\\e<f>g;h #i '))])).toBe('CN=\\ #a\\,b\\+c\\"d\\\\e\\<f\\>g\\;h #i\\ ');
    expect(go([atv(CN, utf8s('a#b'))])).toBe('CN=a#b');
    expect(go([atv(CN, utf8s('#x'))])).toBe('CN=\\#x');
    expect(go([atv(CN, utf8s('a b'))])).toBe('CN=a b');
    // Go: CN=é\  (the trailing space after a two-byte character)
    expect(go([atv(CN, utf8s('é '))])).toBe('CN=é\\ ');
  });

  it('leaves control characters as they are (Go escapes only the characters above)', () => {
    // Go: "CN=a\x01b\x1bc\x7fd"
    expect(go([atv(CN, utf8s('a\x01b\x1bc\x7fd'))])).toBe('CN=a\x01b\x1bc\x7fd');
  });
});
