/**
 * HMAC-SHA-1 (RFC 2104 over FIPS 180-4 SHA-1) in plain JavaScript, for
 * checking a TOTP code: HOTP signs an 8-byte counter, so a code check is
 * three tiny MACs that a Web Crypto round trip (a key import, then the
 * MACs: about 40 µs each here) would cost far more than. Only adds, rotates
 * and xors 32-bit words: no branch and no table index depends on the key
 * or the message (the round function is chosen by round number). No
 * constant-time guarantee comes from a JavaScript engine, though. Checked
 * against `crypto.subtle` under Deno, Node and Bun and the RFC 2202 vectors.
 *
 * SHA-1 is broken for collisions, not as HMAC's hash: HOTP (RFC 4226) and
 * every authenticator app use HMAC-SHA-1.
 *
 * @module
 */

import { blockDigest, type BlockHash, blockHmac } from "./_block_hash.ts";

type Bytes = Uint8Array<ArrayBuffer>;

const INITIAL = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
/** The message schedule, reused: nothing here yields while it is in use. */
const W = new Int32Array(80);

function compress(state: Int32Array, blocks: Uint8Array): void {
  const w = W;
  for (let offset = 0; offset < blocks.length; offset += 64) {
    for (let i = 0; i < 16; i++) {
      const at = offset + i * 4;
      w[i] = (blocks[at] << 24) | (blocks[at + 1] << 16) | (blocks[at + 2] << 8) | blocks[at + 3];
    }
    for (let i = 16; i < 80; i++) {
      const x = w[i - 3] ^ w[i - 8] ^ w[i - 14] ^ w[i - 16];
      w[i] = (x << 1) | (x >>> 31);
    }
    let a = state[0], b = state[1], c = state[2], d = state[3], e = state[4];
    for (let i = 0; i < 80; i++) {
      let f: number, k: number;
      if (i < 20) {
        f = (b & c) | (~b & d);
        k = 0x5a827999;
      } else if (i < 40) {
        f = b ^ c ^ d;
        k = 0x6ed9eba1;
      } else if (i < 60) {
        f = (b & c) | (b & d) | (c & d);
        k = 0x8f1bbcdc;
      } else {
        f = b ^ c ^ d;
        k = 0xca62c1d6;
      }
      const t = (((a << 5) | (a >>> 27)) + f + e + k + w[i]) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = t;
    }
    state[0] = (state[0] + a) | 0;
    state[1] = (state[1] + b) | 0;
    state[2] = (state[2] + c) | 0;
    state[3] = (state[3] + d) | 0;
    state[4] = (state[4] + e) | 0;
  }
}

/** SHA-1 as a {@linkcode BlockHash} (exported for the tests of its scratch buffers). */
export const SHA1: BlockHash = { initial: INITIAL, compress, scratch: W };

/**
 * The SHA-1 digest of `data`.
 *
 * @example
 * ```ts
 * import { sha1 } from "./sha1.ts";
 *
 * const digest = sha1(new TextEncoder().encode("abc")); // 20 bytes
 * ```
 */
export function sha1(data: Uint8Array): Bytes {
  return blockDigest(SHA1, data);
}

/**
 * An HMAC-SHA-1 function for `key` (keys over 64 bytes are hashed first):
 * the padded key's two states are computed once.
 *
 * @example
 * ```ts
 * import { hmacSha1 } from "./sha1.ts";
 *
 * const mac = hmacSha1(new TextEncoder().encode("12345678901234567890"));
 * const tag = mac(new Uint8Array(8)); // 20 bytes: HOTP's MAC of counter 0
 * ```
 */
export function hmacSha1(key: Uint8Array): (message: Uint8Array) => Bytes {
  return blockHmac(SHA1, key);
}
