/**
 * SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104) in plain JavaScript, for
 * the short inputs of a request's hot path (a `clientDataJSON`, a session id,
 * a JWS signing input). A Web Crypto call costs a trip to another thread
 * (about 40 µs on a small server) however small its input; hashing a few
 * hundred bytes here takes a few microseconds. The functions only add,
 * rotate and xor 32-bit words: no branch and no memory index depends on the
 * bytes or the key, so the time depends on the input's length alone.
 * Tested against `crypto.subtle` on random inputs and the RFC 4231 vectors.
 *
 * @module
 */

import { blockDigest, type BlockHash, blockHmac } from "./_block_hash.ts";

type Bytes = Uint8Array<ArrayBuffer>;

/** The first 64 primes. */
const PRIMES: number[] = [];
for (let n = 2; PRIMES.length < 64; n++) {
  if (PRIMES.every((p) => n % p !== 0)) PRIMES.push(n);
}
/** The first 32 bits of the fraction of `x` (FIPS 180-4 section 4.2.2 and 5.3.3 define both tables so). */
const fraction32 = (x: number) => ((x - Math.floor(x)) * 0x100000000) | 0;
/**
 * Round constants: fractions of the cube roots of the first 64 primes. Every
 * root lies over a thousand ulps away from a 32-bit boundary, so any libm
 * within a few ulps (V8, JavaScriptCore) gives the exact table; the FIPS
 * vectors check it.
 */
const K = Int32Array.from(PRIMES, (p) => fraction32(Math.cbrt(p)));
/** Initial hash value: fractions of the square roots of the first 8 primes. */
const INITIAL = PRIMES.slice(0, 8).map((p) => fraction32(Math.sqrt(p)));

/** The message schedule, reused: compression never yields while it is in use. */
const W = new Int32Array(64);

/** Runs the compression function over `blocks` (a multiple of 64 bytes) into `state`. */
function compress(state: Int32Array, blocks: Uint8Array): void {
  const w = W;
  for (let offset = 0; offset < blocks.length; offset += 64) {
    for (let i = 0; i < 16; i++) {
      const at = offset + i * 4;
      w[i] = (blocks[at] << 24) | (blocks[at + 1] << 16) | (blocks[at + 2] << 8) | blocks[at + 3];
    }
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15];
      const y = w[i - 2];
      const s0 = ((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3);
      const s1 = ((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) | 0;
    }
    let a = state[0], b = state[1], c = state[2], d = state[3];
    let e = state[4], f = state[5], g = state[6], h = state[7];
    for (let i = 0; i < 64; i++) {
      const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + S1 + ((e & f) ^ (~e & g)) + K[i] + w[i]) | 0;
      const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    state[0] = (state[0] + a) | 0;
    state[1] = (state[1] + b) | 0;
    state[2] = (state[2] + c) | 0;
    state[3] = (state[3] + d) | 0;
    state[4] = (state[4] + e) | 0;
    state[5] = (state[5] + f) | 0;
    state[6] = (state[6] + g) | 0;
    state[7] = (state[7] + h) | 0;
  }
}

const SHA256: BlockHash = { initial: INITIAL, compress };

/**
 * The SHA-256 digest of `data`.
 *
 * @example
 * ```ts
 * import { sha256 } from "./sha256.ts";
 *
 * const digest = sha256(new TextEncoder().encode("abc")); // 32 bytes
 * ```
 */
export function sha256(data: Uint8Array): Bytes {
  return blockDigest(SHA256, data);
}

/** HMAC-SHA-256 under one key: the padded key's two states are computed once. */
export type HmacSha256 = (message: Uint8Array) => Bytes;

/**
 * An HMAC-SHA-256 function for `key` (any length; keys over 64 bytes are
 * hashed first, as RFC 2104 says). The inner and outer padded keys are
 * absorbed once, so each MAC costs the message's blocks plus two.
 *
 * @example
 * ```ts
 * import { hmacSha256 } from "./sha256.ts";
 *
 * const mac = hmacSha256(crypto.getRandomValues(new Uint8Array(32)));
 * const tag = mac(new TextEncoder().encode("message")); // 32 bytes
 * ```
 */
export function hmacSha256(key: Uint8Array): HmacSha256 {
  return blockHmac(SHA256, key);
}
