import assert from "node:assert/strict";
import { CBOR_MAX_DEPTH, decodeCbor, decodeCborPrefix } from "../../src/webauthn/cbor.ts";
import { encodeCbor, hex } from "./_cbor.ts";
import { prng } from "../_prng.ts";

function refuses(bytes: Uint8Array, reason: string): void {
  assert.throws(() => decodeCbor(bytes), { name: "WebAuthnError", reason });
}

Deno.test("cbor decodes integers of every head size, up to 2^53 - 1 and down to -(2^53 - 1)", () => {
  assert.equal(decodeCbor(hex("00")), 0);
  assert.equal(decodeCbor(hex("17")), 23);
  assert.equal(decodeCbor(hex("1818")), 24);
  assert.equal(decodeCbor(hex("190100")), 256);
  assert.equal(decodeCbor(hex("1a00010000")), 65536);
  assert.equal(decodeCbor(hex("1b0000000100000000")), 2 ** 32);
  assert.equal(decodeCbor(hex("1b001fffffffffffff")), Number.MAX_SAFE_INTEGER);
  assert.equal(decodeCbor(hex("20")), -1);
  assert.equal(decodeCbor(hex("3901ff")), -512);
  assert.equal(decodeCbor(hex("3b001ffffffffffffe")), -Number.MAX_SAFE_INTEGER);
});

Deno.test("cbor refuses integers beyond the safe range instead of rounding them", () => {
  refuses(hex("1b0020000000000000"), "cbor_integer_range");
  refuses(hex("1bffffffffffffffff"), "cbor_integer_range");
  refuses(hex("3b001fffffffffffff"), "cbor_integer_range");
});

Deno.test("cbor decodes strings, arrays, maps and false/true/null", () => {
  const value = decodeCbor(encodeCbor(
    new Map<string | number, never>([
      ["a", [1, "x", true, false, null] as never],
      [-7, new Uint8Array([1, 2]) as never],
    ]),
  ));
  assert.deepEqual(
    value,
    new Map<string | number, unknown>([["a", [1, "x", true, false, null]], [
      -7,
      new Uint8Array([1, 2]),
    ]]),
  );
  assert.equal(decodeCbor(encodeCbor("é€😀")), "é€😀");
});

Deno.test("cbor refuses trailing bytes, and the prefix mode returns where the item ends", () => {
  refuses(hex("0100"), "cbor_trailing_bytes");
  assert.deepEqual(decodeCborPrefix(hex("a10102ff"), 0), { value: new Map([[1, 2]]), end: 3 });
  assert.deepEqual(decodeCborPrefix(hex("ff0a"), 1), { value: 10, end: 2 });
});

Deno.test("cbor refuses indefinite-length strings, arrays and maps, and a lone break", () => {
  refuses(hex("5f41014102ff"), "cbor_indefinite_length");
  refuses(hex("7f6161ff"), "cbor_indefinite_length");
  refuses(hex("9f01ff"), "cbor_indefinite_length");
  refuses(hex("bf0102ff"), "cbor_indefinite_length");
  refuses(hex("ff"), "cbor_indefinite_length");
});

Deno.test("cbor refuses non-minimal integers and lengths (preferred serialization)", () => {
  refuses(hex("1801"), "cbor_non_minimal");
  refuses(hex("190017"), "cbor_non_minimal");
  refuses(hex("1900ff"), "cbor_non_minimal");
  refuses(hex("1a0000ffff"), "cbor_non_minimal");
  refuses(hex("1b00000000ffffffff"), "cbor_non_minimal");
  refuses(hex("3800"), "cbor_non_minimal");
  refuses(hex("580100"), "cbor_non_minimal");
  refuses(hex("780161"), "cbor_non_minimal");
  refuses(hex("980101"), "cbor_non_minimal");
  refuses(hex("b8010102"), "cbor_non_minimal");
});

Deno.test("cbor refuses declared lengths larger than the input before allocating", () => {
  refuses(hex("5affffffff00"), "cbor_truncated");
  refuses(hex("7b001fffffffffffff"), "cbor_truncated");
  refuses(hex("9affffffff"), "cbor_truncated");
  refuses(hex("bb001fffffffffffff"), "cbor_truncated");
  refuses(hex("820101".slice(0, 4)), "cbor_truncated");
  refuses(hex("a201020304".slice(0, 8)), "cbor_truncated");
  refuses(hex("19ff"), "cbor_truncated");
  // Arrays and maps are refused from their head, before any element is read.
  assert.throws(() => decodeCbor(hex("9a00010000" + "00".repeat(100))), /array length exceeds/);
  assert.throws(() => decodeCbor(hex("b8ff" + "0000".repeat(100))), /map length exceeds/);
  refuses(new Uint8Array(), "cbor_truncated");
});

Deno.test(`cbor refuses nesting deeper than ${CBOR_MAX_DEPTH} levels, arrays and maps alike`, () => {
  const deep = (n: number, open: string, leaf = "00") => hex(open.repeat(n) + leaf);
  assert.ok(decodeCbor(deep(CBOR_MAX_DEPTH, "81")));
  refuses(deep(CBOR_MAX_DEPTH + 1, "81"), "cbor_too_deep");
  refuses(deep(CBOR_MAX_DEPTH + 1, "a100"), "cbor_too_deep");
  // Far deeper input fails fast and without a stack overflow.
  refuses(deep(100_000, "81"), "cbor_too_deep");
});

Deno.test("cbor refuses duplicate map keys, and keeps an integer key and a text key apart", () => {
  refuses(hex("a201020103"), "cbor_duplicate_key");
  refuses(hex("a2616101616102"), "cbor_duplicate_key");
  refuses(hex("a3010261610101" + "04"), "cbor_duplicate_key");
  assert.deepEqual(
    decodeCbor(hex("a20161316131" + "02")),
    new Map<number | string, unknown>([[1, "1"], ["1", 2]]),
  );
});

Deno.test("cbor refuses map keys other than integers and text", () => {
  refuses(hex("a1410101"), "cbor_unsupported");
  refuses(hex("a1800101"), "cbor_unsupported");
  refuses(hex("a1f501"), "cbor_unsupported");
});

Deno.test("cbor refuses invalid UTF-8 in text strings and keeps a BOM as text", () => {
  refuses(hex("61ff"), "cbor_invalid_utf8");
  refuses(hex("62c328"), "cbor_invalid_utf8");
  refuses(hex("63eda080"), "cbor_invalid_utf8"); // an encoded surrogate
  refuses(hex("62c0af"), "cbor_invalid_utf8"); // overlong "/"
  assert.equal(decodeCbor(hex("63efbbbf")), "\ufeff");
});

Deno.test("cbor refuses tags, floats, undefined, other simple values and reserved heads", () => {
  refuses(hex("c11a514b67b0"), "cbor_unsupported");
  refuses(hex("d8184100"), "cbor_unsupported");
  refuses(hex("f93c00"), "cbor_unsupported");
  refuses(hex("fa47c35000"), "cbor_unsupported");
  refuses(hex("fb3ff199999999999a"), "cbor_unsupported");
  refuses(hex("f7"), "cbor_unsupported");
  refuses(hex("f0"), "cbor_unsupported");
  refuses(hex("f820"), "cbor_unsupported");
  refuses(hex("1c"), "cbor_unsupported");
  refuses(hex("5e"), "cbor_unsupported");
});

Deno.test("cbor byte strings are views into the input, not copies", () => {
  const input = hex("420102");
  const value = decodeCbor(input) as Uint8Array;
  assert.equal(value.buffer, input.buffer);
  assert.deepEqual([...value], [1, 2]);
});

Deno.test("cbor fuzz: random and mutated input yields a value or a WebAuthnError, nothing else", () => {
  const seed = Date.now() >>> 0;
  const random = prng(seed);
  const valid = encodeCbor(
    new Map<never, never>([
      ["fmt" as never, "none" as never],
      ["attStmt" as never, new Map() as never],
      ["authData" as never, new Uint8Array(64) as never],
      [1 as never, [1, -2, "x", [true, null]] as never],
    ]),
  );
  for (let i = 0; i < 20_000; i++) {
    const bytes = i % 2 === 0
      ? valid.slice()
      : new Uint8Array(Math.floor(random() * 40)).map(() => Math.floor(random() * 256));
    if (i % 2 === 0) {
      for (let k = 0; k < 1 + Math.floor(random() * 3); k++) {
        bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
      }
    }
    try {
      decodeCbor(bytes);
    } catch (error) {
      assert.equal((error as Error).name, "WebAuthnError", `seed ${seed}, input ${bytes}`);
    }
  }
});
