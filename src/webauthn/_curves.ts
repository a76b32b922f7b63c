/**
 * Point checks Web Crypto does not make on import (Deno imports an ECDSA
 * point off its curve, and any 32 bytes as an Ed25519 key): P-256 points on
 * the curve, Ed25519 points that decode and are not of small order.
 * Registration-time only, so plain BigInt arithmetic is fast enough.
 *
 * @module
 */

// 2^256 - 2^224 + 2^192 + 2^96 - 1, as a literal: a module-level computation would stay in bundles.
const P256_P = 0xffffffff00000001000000000000000000000000ffffffffffffffffffffffffn;
const P256_B = 0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604bn;

// 2^255 - 19
const ED_P = 0x7fffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffedn;
const ED_D = 37095705934669439343138083508754565189542113879843219016388785533085940283555n;
/** A square root of -1 modulo ED_P. */
const ED_SQRT_M1 = 19681161376707505956807079304988542015446066515923890162744021073123829784752n;

function mod(a: bigint, m: bigint): bigint {
  const r = a % m;
  return r < 0n ? r + m : r;
}

function powMod(base: bigint, exponent: bigint, m: bigint): bigint {
  let result = 1n;
  let b = mod(base, m);
  let e = exponent;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % m;
    b = (b * b) % m;
    e >>= 1n;
  }
  return result;
}

function bigEndian(bytes: Uint8Array): bigint {
  let n = 0n;
  for (const byte of bytes) n = (n << 8n) | BigInt(byte);
  return n;
}

/** Whether (x, y), big-endian coordinates, is a point of P-256 (y² = x³ - 3x + b). */
export function isP256Point(x: Uint8Array, y: Uint8Array): boolean {
  const px = bigEndian(x);
  const py = bigEndian(y);
  if (px >= P256_P || py >= P256_P) return false;
  const left = (py * py) % P256_P;
  const right = mod(px * px % P256_P * px - 3n * px + P256_B, P256_P);
  return left === right;
}

type EdPoint = readonly [bigint, bigint];

/** Twisted Edwards addition (a = -1); complete, so no case is special. */
function edAdd([x1, y1]: EdPoint, [x2, y2]: EdPoint): EdPoint {
  const t = ED_D * x1 % ED_P * x2 % ED_P * y1 % ED_P * y2 % ED_P;
  const x3 = (x1 * y2 + y1 * x2) % ED_P * powMod(1n + t, ED_P - 2n, ED_P);
  const y3 = (y1 * y2 + x1 * x2) % ED_P * powMod(mod(1n - t, ED_P), ED_P - 2n, ED_P);
  return [x3 % ED_P, y3 % ED_P];
}

/**
 * Whether a 32-byte Ed25519 public key (RFC 8032 section 5.1.3) decodes to
 * a point that is not of small order (a small-order key lets one signature
 * verify for many messages under lenient verifiers).
 */
export function isEd25519Point(encoded: Uint8Array): boolean {
  if (encoded.length !== 32) return false;
  const le = encoded.slice().reverse();
  const sign = le[0] >> 7;
  le[0] &= 0x7f;
  const y = bigEndian(le);
  if (y >= ED_P) return false;
  const y2 = y * y % ED_P;
  const u = mod(y2 - 1n, ED_P);
  const v = (ED_D * y2 + 1n) % ED_P;
  const vInv = powMod(v, ED_P - 2n, ED_P);
  const x2 = u * vInv % ED_P;
  let x = powMod(x2, (ED_P + 3n) / 8n, ED_P);
  if (x * x % ED_P !== x2) {
    x = x * ED_SQRT_M1 % ED_P;
    if (x * x % ED_P !== x2) return false;
  }
  if (x === 0n && sign === 1) return false;
  if ((Number(x & 1n)) !== sign) x = ED_P - x;
  let point: EdPoint = [x, y];
  for (let i = 0; i < 3; i++) point = edAdd(point, point);
  return !(point[0] === 0n && point[1] === 1n);
}
