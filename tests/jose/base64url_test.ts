import assert from "node:assert/strict";
import { decodeBase64Url, encodeBase64Url } from "../../jose.ts";

Deno.test("base64url round-trips every length without padding", () => {
  for (let length = 0; length < 40; length++) {
    const bytes = crypto.getRandomValues(new Uint8Array(length));
    const text = encodeBase64Url(bytes);
    assert.doesNotMatch(text, /[=+/]/);
    assert.deepEqual(decodeBase64Url(text), bytes);
  }
});

Deno.test("base64url decoding refuses padding, other alphabets, bad lengths and stray bits", () => {
  for (const bad of ["AA==", "A+8", "A/8", "A", "AB C", "AB\n", "AB!", "AR", "AAB", "é"]) {
    assert.throws(() => decodeBase64Url(bad), { code: "ERR_JOSE_INVALID" }, bad);
  }
});
