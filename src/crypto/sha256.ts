/**
 * SHA-256 (FIPS 180-4) and HMAC-SHA-256 (RFC 2104) in plain JavaScript, for
 * the short inputs of a request's hot path (a `clientDataJSON`, a session id,
 * a JWS signing input). A Web Crypto call costs a trip to another thread
 * (about 40 µs on a small server) however small its input; hashing a few
 * hundred bytes here takes a few microseconds. The functions only add,
 * rotate and xor 32-bit words: no branch and no table index depends on the
 * bytes or the key (the round constants are read by round number). That is
 * a property of this source, not a constant-time guarantee: a JavaScript
 * engine promises none (its compilers and garbage collector may still vary
 * with the data). Tested against the runtime's `crypto.subtle` under Deno,
 * Node and Bun, and the FIPS 180-4 and RFC 4231 vectors.
 *
 * @module
 */

import { blockDigest, type BlockHash, blockHmac } from "./_block_hash.ts";

type Bytes = Uint8Array<ArrayBuffer>;

/**
 * Round constants (FIPS 180-4 section 4.2.2): the first 32 bits of the
 * fractional parts of the cube roots of the first 64 primes, written out.
 */
// deno-fmt-ignore
const K = Int32Array.of(
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
);
/** Initial hash value (FIPS 180-4 section 5.3.3): from the square roots of the first 8 primes. */
// deno-fmt-ignore
const INITIAL = [
  0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

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

/** SHA-256 as a {@linkcode BlockHash} (exported for the tests of its scratch buffers). */
export const SHA256: BlockHash = { initial: INITIAL, compress, scratch: W };

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
