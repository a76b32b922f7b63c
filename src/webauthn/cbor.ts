/**
 * A strict CBOR decoder (RFC 8949) for the subset WebAuthn uses: integers,
 * byte and text strings, arrays, maps, `false`, `true` and `null`.
 *
 * Everything else is refused, never guessed at: indefinite lengths, tags,
 * floats and other simple values, non-minimal ("non-preferred") integer and
 * length encodings (RFC 8949 section 4.2.1), integers beyond
 * `Number.MAX_SAFE_INTEGER`, duplicate map keys, map keys other than
 * integers and text, invalid UTF-8, nesting deeper than {@link CBOR_MAX_DEPTH},
 * and declared lengths larger than the bytes left (checked before anything is
 * allocated). Map key order is not enforced: authenticators and browsers do
 * not agree on one, and order cannot change how a map is read.
 *
 * @module
 */

import { WebAuthnError } from "./errors.ts";

/** A decoded CBOR map: keys are integers or text. */
export type CborMap = Map<number | string, CborValue>;

/** A decoded CBOR data item. Byte strings are views into the input (no copy). */
export type CborValue =
  | number
  | string
  | Uint8Array<ArrayBuffer>
  | boolean
  | null
  | CborValue[]
  | CborMap;

/** The deepest nesting of arrays and maps the decoder reads. */
export const CBOR_MAX_DEPTH = 16;

const utf8 = /* @__PURE__ */ new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

interface Reader {
  readonly bytes: Uint8Array<ArrayBuffer>;
  pos: number;
}

/**
 * Decodes one CBOR data item that must span all of `bytes`.
 *
 * @throws {WebAuthnError} with a `cbor_*` reason on any malformed or
 *   unsupported input, or `cbor_trailing_bytes` when bytes follow the item.
 *
 * @example
 * ```ts
 * import { decodeCbor } from "./cbor.ts";
 * decodeCbor(new Uint8Array([0xa1, 0x01, 0x02])); // Map { 1 => 2 }
 * ```
 */
export function decodeCbor(bytes: Uint8Array): CborValue {
  const { value, end } = decodeCborPrefix(bytes, 0);
  if (end !== bytes.length) {
    throw new WebAuthnError(
      "cbor_trailing_bytes",
      "CBOR input has bytes after its data item; expected exactly one item.",
    );
  }
  return value;
}

/**
 * Decodes the one CBOR data item starting at `offset` and returns it with
 * the offset just past it, for structures where more data follows (the
 * credential public key inside authenticator data).
 *
 * @throws {WebAuthnError} with a `cbor_*` reason on malformed or unsupported input.
 *
 * @example
 * ```ts
 * import { decodeCborPrefix } from "./cbor.ts";
 * decodeCborPrefix(new Uint8Array([0x01, 0xff]), 0); // { value: 1, end: 1 }
 * ```
 */
export function decodeCborPrefix(
  bytes: Uint8Array,
  offset: number,
): { value: CborValue; end: number } {
  const reader: Reader = { bytes: bytes as Uint8Array<ArrayBuffer>, pos: offset };
  const value = readItem(reader, 0);
  return { value, end: reader.pos };
}

function fail(reason: ConstructorParameters<typeof WebAuthnError>[0], message: string): never {
  throw new WebAuthnError(reason, message);
}

/** Reads a head's argument: the value for ints, the length for strings and containers. */
function readArgument(r: Reader, info: number): number {
  const { bytes } = r;
  if (info < 24) return info;
  if (info === 31) {
    fail(
      "cbor_indefinite_length",
      "CBOR indefinite length or break found; expected definite lengths only.",
    );
  }
  if (info > 27) {
    fail(
      "cbor_unsupported",
      "CBOR head uses a reserved additional information value; expected 0 to 27.",
    );
  }
  const size = 1 << (info - 24);
  if (r.pos + size > bytes.length) {
    fail("cbor_truncated", "CBOR input ends inside a data item head; expected more bytes.");
  }
  let value = 0;
  if (size === 8) {
    const high = (bytes[r.pos] << 24 >>> 0) + (bytes[r.pos + 1] << 16) + (bytes[r.pos + 2] << 8) +
      bytes[r.pos + 3];
    // 2^53 - 1 has 21 significant bits in the high word.
    if (high > 0x1fffff) {
      fail("cbor_integer_range", "CBOR integer exceeds 2^53 - 1; expected a safe integer.");
    }
    value = high * 0x100000000;
    for (let i = 4; i < 8; i++) value += bytes[r.pos + i] * 2 ** (8 * (7 - i));
  } else {
    for (let i = 0; i < size; i++) value = value * 256 + bytes[r.pos + i];
  }
  r.pos += size;
  // Preferred serialization: the shortest head that holds the value.
  const shortest = value < 24
    ? 0
    : value < 0x100
    ? 24
    : value < 0x10000
    ? 25
    : value < 0x100000000
    ? 26
    : 27;
  if (info !== shortest) {
    fail(
      "cbor_non_minimal",
      "CBOR integer or length uses a longer encoding than needed; expected the shortest form.",
    );
  }
  return value;
}

function decodeText(view: Uint8Array<ArrayBuffer>): string {
  try {
    return utf8.decode(view);
  } catch {
    return fail("cbor_invalid_utf8", "CBOR text string is not valid UTF-8; expected UTF-8 text.");
  }
}

function readItem(r: Reader, depth: number): CborValue {
  const { bytes } = r;
  if (r.pos >= bytes.length) {
    fail("cbor_truncated", "CBOR input ends before a data item; expected more bytes.");
  }
  const initial = bytes[r.pos++];
  const major = initial >> 5;
  const info = initial & 0x1f;
  switch (major) {
    case 0:
      return readArgument(r, info);
    case 1: {
      const n = readArgument(r, info);
      if (n >= Number.MAX_SAFE_INTEGER) {
        fail(
          "cbor_integer_range",
          "CBOR negative integer is below -(2^53 - 1); expected a safe integer.",
        );
      }
      return -1 - n;
    }
    case 2:
    case 3: {
      const length = readArgument(r, info);
      if (length > bytes.length - r.pos) {
        fail(
          "cbor_truncated",
          "CBOR string length exceeds the remaining input; expected a length that fits.",
        );
      }
      const view = bytes.subarray(r.pos, r.pos + length);
      r.pos += length;
      return major === 2 ? view : decodeText(view);
    }
    case 4: {
      const count = readArgument(r, info);
      if (depth >= CBOR_MAX_DEPTH) {
        fail(
          "cbor_too_deep",
          `CBOR nesting exceeds ${CBOR_MAX_DEPTH} levels; expected shallower data.`,
        );
      }
      // Each element takes at least one byte: refuse before allocating.
      if (count > bytes.length - r.pos) {
        fail(
          "cbor_truncated",
          "CBOR array length exceeds the remaining input; expected a length that fits.",
        );
      }
      const out: CborValue[] = [];
      for (let i = 0; i < count; i++) out.push(readItem(r, depth + 1));
      return out;
    }
    case 5: {
      const count = readArgument(r, info);
      if (depth >= CBOR_MAX_DEPTH) {
        fail(
          "cbor_too_deep",
          `CBOR nesting exceeds ${CBOR_MAX_DEPTH} levels; expected shallower data.`,
        );
      }
      if (count * 2 > bytes.length - r.pos) {
        fail(
          "cbor_truncated",
          "CBOR map length exceeds the remaining input; expected a length that fits.",
        );
      }
      const out: CborMap = new Map();
      for (let i = 0; i < count; i++) {
        const key = readItem(r, depth + 1);
        if (typeof key !== "number" && typeof key !== "string") {
          fail(
            "cbor_unsupported",
            "CBOR map key is neither an integer nor text; expected an integer or text key.",
          );
        }
        if (out.has(key)) {
          fail("cbor_duplicate_key", "CBOR map repeats a key; expected each key once.");
        }
        out.set(key, readItem(r, depth + 1));
      }
      return out;
    }
    case 6:
      return fail("cbor_unsupported", "CBOR tag found; expected untagged data.");
    default: {
      // Major type 7: only false (20), true (21) and null (22).
      if (info === 20) return false;
      if (info === 21) return true;
      if (info === 22) return null;
      if (info === 31) {
        fail(
          "cbor_indefinite_length",
          "CBOR break found outside an indefinite-length item; expected definite lengths only.",
        );
      }
      return fail(
        "cbor_unsupported",
        "CBOR float or simple value found; expected only false, true or null.",
      );
    }
  }
}
