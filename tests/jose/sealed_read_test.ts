// The sealed-token read path that shares buffers: concurrent reads and large payloads.
import assert from "node:assert/strict";
import { createJose } from "../../jose.ts";

const SECRET = "sealed-read-test-secret-0123456789abcdef";

Deno.test("many sealed tokens decoded at once each give their own claims", async () => {
  const jose = createJose(SECRET, { mode: "sealed", purpose: "session" });
  const tokens = await Promise.all(
    Array.from({ length: 50 }, (_, i) => jose.encodeJWT({ sub: `user-${i}`, note: "é".repeat(i) })),
  );
  const claims = await Promise.all(tokens.map((token) => jose.decodeJWT(token)));
  claims.forEach((payload, i) => {
    assert.equal(payload.sub, `user-${i}`);
    assert.equal(payload.note, "é".repeat(i));
  });
});

Deno.test("a sealed token whose payload is larger than the shared buffer still decodes", async () => {
  const jose = createJose(SECRET, { mode: "sealed", purpose: "session" });
  const note = "x".repeat(8_500); // decodes to more than the 8 KiB shared buffer
  const token = await jose.encodeJWT({ sub: "big", note });
  assert.equal((await jose.decodeJWT(token)).note, note);
  const small = await jose.encodeJWT({ sub: "small" });
  assert.equal((await jose.decodeJWT(small)).note, undefined);
});

Deno.test("a sealed token with a flipped ciphertext or tag bit is refused", async () => {
  const jose = createJose(SECRET, { mode: "sealed", purpose: "session" });
  const token = await jose.encodeJWT({ sub: "a" });
  const parts = token.split(".");
  for (const index of [2, 3, 4]) {
    const segment = parts[index];
    const flipped = (segment[0] === "A" ? "B" : "A") + segment.slice(1);
    const tampered = parts.map((part, i) => (i === index ? flipped : part)).join(".");
    await assert.rejects(() => jose.decodeJWT(tampered), { code: "ERR_JWE_DECRYPTION_FAILED" });
  }
});
