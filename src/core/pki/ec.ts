// Prime-field Weierstrass curves used for TLS keys (NIST P-256, P-384, P-521; all with
// a = -3), and the one operation the credential checks need: the public point d·G of a
// private scalar d. Plain BigInt arithmetic in Jacobian coordinates; not constant-time,
// which is acceptable here because it only inspects keys the user already holds.
// Curve constants are the standard SEC 2 / FIPS 186 domain parameters.

export interface Curve {
  name: 'P-256' | 'P-384' | 'P-521';
  oid: string;
  p: bigint;
  b: bigint;
  gx: bigint;
  gy: bigint;
  n: bigint;
  /** Field element size in bytes. */
  size: number;
}

const h = (s: string) => BigInt('0x' + s);

export const CURVES: readonly Curve[] = [
  {
    name: 'P-256',
    oid: '1.2.840.10045.3.1.7',
    p: h('FFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF'),
    b: h('5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B'),
    gx: h('6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296'),
    gy: h('4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5'),
    n: h('FFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551'),
    size: 32,
  },
  {
    name: 'P-384',
    oid: '1.3.132.0.34',
    p: h('FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFFFF0000000000000000FFFFFFFF'),
    b: h('B3312FA7E23EE7E4988E056BE3F82D19181D9C6EFE8141120314088F5013875AC656398D8A2ED19D2A85C8EDD3EC2AEF'),
    gx: h('AA87CA22BE8B05378EB1C71EF320AD746E1D3B628BA79B9859F741E082542A385502F25DBF55296C3A545E3872760AB7'),
    gy: h('3617DE4A96262C6F5D9E98BF9292DC29F8F41DBD289A147CE9DA3113B5F0B8C00A60B1CE1D7E819D7A431D7C90EA0E5F'),
    n: h('FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFC7634D81F4372DDF581A0DB248B0A77AECEC196ACCC52973'),
    size: 48,
  },
  {
    name: 'P-521',
    oid: '1.3.132.0.35',
    p: (1n << 521n) - 1n,
    b: h('0051953EB9618E1C9A1F929A21A0B68540EEA2DA725B99B315F3B8B489918EF109E156193951EC7E937B1652C0BD3BB1BF073573DF883D2C34F1EF451FD46B503F00'),
    gx: h('00C6858E06B70404E9CD9E3ECB662395B4429C648139053FB521F828AF606B4D3DBAA14B5E77EFE75928FE1DC127A2FFA8DE3348B3C1856A429BF97E7E31C2E5BD66'),
    gy: h('011839296A789A3BC0045C8A5FB42C7D1BD998F54449579B446817AFBD17273E662C97EE72995EF42640C550B9013FAD0761353C7086A272C24088BE94769FD16650'),
    n: h('01FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFA51868783BF2F966B7FCC0148F709A5D03BB5C9B8899C47AEBB6FB71E91386409'),
    size: 66,
  },
];

export function curveByOid(oid: string): Curve | undefined {
  return CURVES.find((c) => c.oid === oid);
}

export interface AffinePoint {
  x: bigint;
  y: bigint;
}

type Jacobian = [bigint, bigint, bigint];

function mod(a: bigint, p: bigint): bigint {
  const r = a % p;
  return r < 0n ? r + p : r;
}

function modPow(base: bigint, exp: bigint, p: bigint): bigint {
  let result = 1n;
  let b = mod(base, p);
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % p;
    b = (b * b) % p;
    e >>= 1n;
  }
  return result;
}

function double(c: Curve, [x, y, z]: Jacobian): Jacobian {
  const p = c.p;
  if (y === 0n || z === 0n) return [0n, 1n, 0n];
  const delta = (z * z) % p;
  const gamma = (y * y) % p;
  const beta = (x * gamma) % p;
  const alpha = mod(3n * mod(x - delta, p) * ((x + delta) % p), p);
  const x3 = mod(alpha * alpha - 8n * beta, p);
  const z3 = mod((y + z) * (y + z) - gamma - delta, p);
  const y3 = mod(alpha * mod(4n * beta - x3, p) - 8n * ((gamma * gamma) % p), p);
  return [x3, y3, z3];
}

function add(c: Curve, a: Jacobian, b: Jacobian): Jacobian {
  const p = c.p;
  if (a[2] === 0n) return b;
  if (b[2] === 0n) return a;
  const z1z1 = (a[2] * a[2]) % p;
  const z2z2 = (b[2] * b[2]) % p;
  const u1 = (a[0] * z2z2) % p;
  const u2 = (b[0] * z1z1) % p;
  const s1 = (((a[1] * b[2]) % p) * z2z2) % p;
  const s2 = (((b[1] * a[2]) % p) * z1z1) % p;
  const hh = mod(u2 - u1, p);
  const r = mod(s2 - s1, p);
  if (hh === 0n) return r === 0n ? double(c, a) : [0n, 1n, 0n];
  const h2 = (hh * hh) % p;
  const h3 = (h2 * hh) % p;
  const u1h2 = (u1 * h2) % p;
  const x3 = mod(r * r - h3 - 2n * u1h2, p);
  const y3 = mod(r * mod(u1h2 - x3, p) - s1 * h3, p);
  const z3 = (((hh * a[2]) % p) * b[2]) % p;
  return [x3, y3, z3];
}

/** d·G in affine coordinates; undefined for a scalar outside [1, n-1]. */
export function publicPoint(c: Curve, d: bigint): AffinePoint | undefined {
  if (d <= 0n || d >= c.n) return undefined;
  let acc: Jacobian = [0n, 1n, 0n];
  const g: Jacobian = [c.gx, c.gy, 1n];
  for (let i = BigInt(d.toString(2).length - 1); i >= 0n; i--) {
    acc = double(c, acc);
    if ((d >> i) & 1n) acc = add(c, acc, g);
  }
  if (acc[2] === 0n) return undefined;
  const zInv = modPow(acc[2], c.p - 2n, c.p);
  const zInv2 = (zInv * zInv) % c.p;
  return { x: (acc[0] * zInv2) % c.p, y: (((acc[1] * zInv2) % c.p) * zInv) % c.p };
}

/** True when the point satisfies y² = x³ − 3x + b. */
export function onCurve(c: Curve, pt: AffinePoint): boolean {
  const p = c.p;
  return mod(pt.y * pt.y - (pt.x * pt.x * pt.x - 3n * pt.x + c.b), p) === 0n;
}
