/**
 * What SHA-256 and SHA-1 share (FIPS 180-4 Merkle–Damgård over 64-byte
 * blocks, big-endian words): the padding with the message length, the
 * digest's bytes, and HMAC (RFC 2104) with the padded key's two states
 * computed once. Each hash brings only its initial value and compression.
 *
 * Input must be a `Uint8Array` (else a `TypeError`: another typed array or a
 * string would be hashed as something else than its bytes). Every scratch
 * buffer (the padded tail, the message schedule, the working state, HMAC's
 * padded keys and inner digest) is zeroed once a digest is done, so no copy
 * of a secret's blocks outlives the call.
 *
 * @module
 */

type Bytes = Uint8Array<ArrayBuffer>;

/** One hash function: its initial value (as many words as the digest) and compression. */
export interface BlockHash {
  /** The initial hash value, one 32-bit word per 4 digest bytes. */
  readonly initial: readonly number[];
  /** Absorbs `blocks` (a multiple of 64 bytes) into `state`. */
  compress(state: Int32Array, blocks: Uint8Array): void;
  /** The message schedule `compress` reuses, zeroed after each digest. */
  readonly scratch: Int32Array;
}

/** Throws a TypeError unless `value` is a `Uint8Array` (a Node `Buffer` is one). */
function checkBytes(value: unknown, what: string): asserts value is Uint8Array {
  if (!(value instanceof Uint8Array)) {
    throw new TypeError(`${what} is not a Uint8Array; expected the bytes to hash.`);
  }
}

/** The padded tail, reused: nothing here yields while it is in use; all zeros between digests. */
const TAIL = new Uint8Array(128);

/**
 * Finishes a hash whose `state` already absorbed `prefixLength` bytes (0 or a
 * multiple of 64): absorbs `data`, pads, and writes the digest.
 */
function finish(
  hash: BlockHash,
  state: Int32Array,
  prefixLength: number,
  data: Uint8Array,
  wipeSchedule = true,
): Bytes {
  const whole = data.length - (data.length % 64);
  hash.compress(state, data.subarray(0, whole));
  const rest = data.length - whole;
  // Zero already: every digest zeroes it after use.
  const tail = TAIL.subarray(0, rest < 56 ? 64 : 128);
  tail.set(data.subarray(whole));
  tail[rest] = 0x80;
  const bits = (prefixLength + data.length) * 8;
  const end = tail.length;
  // Inputs here are far below 2^32 bytes; the high word still carries what a 32-bit word cannot.
  const high = Math.floor(bits / 0x100000000);
  tail[end - 8] = high >>> 24;
  tail[end - 7] = high >>> 16;
  tail[end - 6] = high >>> 8;
  tail[end - 5] = high;
  tail[end - 4] = bits >>> 24;
  tail[end - 3] = bits >>> 16;
  tail[end - 2] = bits >>> 8;
  tail[end - 1] = bits;
  hash.compress(state, tail);
  const digest = new Uint8Array(state.length * 4);
  for (let i = 0; i < state.length; i++) {
    digest[i * 4] = state[i] >>> 24;
    digest[i * 4 + 1] = state[i] >>> 16;
    digest[i * 4 + 2] = state[i] >>> 8;
    digest[i * 4 + 3] = state[i];
  }
  // Nothing of the input stays behind in the reused buffers or the working state.
  tail.fill(0);
  if (wipeSchedule) hash.scratch.fill(0);
  state.fill(0);
  return digest;
}

/**
 * The digest of `data` under `hash`.
 *
 * @example
 * ```ts ignore
 * import { blockDigest } from "./_block_hash.ts";
 * declare const SHA256: import("./_block_hash.ts").BlockHash;
 * blockDigest(SHA256, new TextEncoder().encode("abc")); // 32 bytes
 * ```
 */
export function blockDigest(hash: BlockHash, data: Uint8Array): Bytes {
  checkBytes(data, "data");
  return finish(hash, Int32Array.from(hash.initial), 0, data);
}

/**
 * An HMAC function for `key` under `hash` (keys over 64 bytes are hashed
 * first): the inner and outer padded keys are absorbed once, so each MAC
 * costs the message's blocks plus two.
 *
 * @example
 * ```ts ignore
 * import { blockHmac } from "./_block_hash.ts";
 * declare const SHA256: import("./_block_hash.ts").BlockHash;
 * const mac = blockHmac(SHA256, new Uint8Array(32));
 * mac(new TextEncoder().encode("message")); // 32 bytes
 * ```
 */
export function blockHmac(hash: BlockHash, key: Uint8Array): (message: Uint8Array) => Bytes {
  checkBytes(key, "key");
  const block = new Uint8Array(64);
  block.set(key.length > 64 ? blockDigest(hash, key) : key);
  const inner = Int32Array.from(hash.initial);
  const outer = Int32Array.from(hash.initial);
  for (const [state, pad] of [[inner, 0x36], [outer, 0x5c]] as const) {
    const padded = block.map((byte) => byte ^ pad);
    hash.compress(state, padded);
    padded.fill(0);
  }
  block.fill(0);
  hash.scratch.fill(0);
  // The working state, reused (no call yields while it is in use) and zeroed by each digest.
  const work = new Int32Array(inner.length);
  return (message) => {
    checkBytes(message, "message");
    work.set(inner);
    // The outer digest compresses a whole block after this one: it overwrites the schedule.
    const innerDigest = finish(hash, work, 64, message, false);
    work.set(outer);
    const mac = finish(hash, work, 64, innerDigest);
    innerDigest.fill(0);
    return mac;
  };
}

/**
 * The buffers a digest under `hash` reuses (the padded tail and the message
 * schedule), for tests that check they hold nothing once a digest is done.
 *
 * @example
 * ```ts ignore
 * import { scratchBuffers } from "./_block_hash.ts";
 * declare const SHA256: import("./_block_hash.ts").BlockHash;
 * scratchBuffers(SHA256).every((buffer) => buffer.every((value) => value === 0)); // true
 * ```
 */
export function scratchBuffers(hash: BlockHash): readonly (Uint8Array | Int32Array)[] {
  return [TAIL, hash.scratch];
}
