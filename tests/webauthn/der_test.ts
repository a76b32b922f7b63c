import assert from "node:assert/strict";
import { derToRawEcdsa } from "../../src/webauthn/der.ts";
import { rawToDer } from "./_authenticator.ts";
import { hex } from "./_cbor.ts";

function refuses(h: string): void {
  assert.throws(() => derToRawEcdsa(hex(h), 32), {
    name: "WebAuthnError",
    reason: "signature_malformed",
  }, h);
}

Deno.test("der: round-trips r ‖ s of every shape (high bit, leading zero bytes)", () => {
  const cases = [
    "ff".repeat(32) + "7f".repeat(32),
    "00".repeat(31) + "01" + "80" + "00".repeat(31),
    "0000ab" + "cd".repeat(29) + "01".repeat(32),
  ];
  for (const h of cases) assert.deepEqual(derToRawEcdsa(rawToDer(hex(h)), 32), hex(h));
  for (let i = 0; i < 200; i++) {
    const raw = crypto.getRandomValues(new Uint8Array(64));
    raw[0] = 1;
    raw[32] = 1;
    assert.deepEqual(derToRawEcdsa(rawToDer(raw), 32), raw);
  }
});

Deno.test("der: accepts the smallest valid signature", () => {
  const raw = derToRawEcdsa(hex("3006020101020102"), 32);
  assert.equal(raw[31], 1);
  assert.equal(raw[63], 2);
});

Deno.test("der: refuses a wrong tag, a wrong or long-form length, and trailing bytes", () => {
  refuses("3106020101020102");
  refuses("3007020101020102");
  refuses("3005020101020102");
  refuses("308106020101020102");
  refuses("300602010102010200");
  refuses("3007020101020102" + "00"); // a byte after the integers, inside the SEQUENCE
  refuses("30060201010201");
  refuses("");
  refuses("30");
});

Deno.test("der: refuses integers that are negative, zero, padded or too long", () => {
  refuses("3006020181020102"); // r negative
  refuses("3006020100020102"); // r zero
  refuses("30070202000102" + "0102"); // r with a needless leading zero
  refuses("3008020200010201" + "02"); // same, lengths adjusted
  refuses("300402000200"); // empty integers
  refuses("3006030101020102"); // not INTEGER
  refuses("3026022101" + "00".repeat(32) + "020101"); // r of 33 significant bytes
});
