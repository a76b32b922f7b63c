import assert from "node:assert/strict";
const assertEquals: typeof assert.deepStrictEqual = assert.deepStrictEqual;
import { joseForPurpose } from "../../jose.ts";
import {
  emailCodeMatches,
  generateEmailCode,
  isEmailCode,
  openEmailToken,
  sealEmailToken,
} from "../../src/email/token.ts";

const SECRET = "a-test-secret-that-is-long-enough-for-hkdf-0123456789";
const now = Math.floor(Date.now() / 1000);
const email = joseForPurpose(SECRET, { purpose: "email" });

Deno.test("an email token opens for its own kind with the claims it was sealed with", async () => {
  const { token, claims } = await sealEmailToken(email, {
    kind: "sign-in",
    email: "ada@example.com",
    maxAge: 600,
    now,
    redirectTo: "/dashboard",
  });
  const opened = await openEmailToken(email, token, "sign-in");
  assertEquals(opened, claims);
  assertEquals(opened?.email, "ada@example.com");
  assertEquals(opened?.redirectTo, "/dashboard");
  assertEquals(opened?.expiresAt, now + 600);
  assert((opened?.id.length ?? 0) >= 16);
});

Deno.test("an email token of one kind is refused as any other kind", async () => {
  const { token } = await sealEmailToken(email, {
    kind: "reset-password",
    email: "ada@example.com",
    sub: "u1",
    maxAge: 3600,
    now,
  });
  for (const kind of ["sign-in", "verify-email", "change-email"] as const) {
    assertEquals(await openEmailToken(email, token, kind), null);
  }
  assert(await openEmailToken(email, token, "reset-password"));
});

Deno.test("tokens of other purposes, tampered and foreign tokens are refused", async () => {
  const flow = joseForPurpose(SECRET, { purpose: "oauth-flow" });
  const session = joseForPurpose(SECRET, { purpose: "session" });
  const payload = { pur: "sign-in", em: "ada@example.com", jti: "x".repeat(22) };
  assertEquals(await openEmailToken(email, await flow.encodeJWT(payload), "sign-in"), null);
  assertEquals(await openEmailToken(email, await session.encodeJWT(payload), "sign-in"), null);
  const other = joseForPurpose("another-secret-that-is-long-enough-0123456789abcdef", {
    purpose: "email",
  });
  assertEquals(await openEmailToken(email, await other.encodeJWT(payload), "sign-in"), null);
  const { token } = await sealEmailToken(email, {
    kind: "sign-in",
    email: "ada@example.com",
    maxAge: 600,
    now,
  });
  const tampered = token.slice(0, -3) + (token.endsWith("A") ? "BBB" : "AAA");
  assertEquals(await openEmailToken(email, tampered, "sign-in"), null);
  for (const bad of [undefined, 42, "", "a.b.c.d.e", "x".repeat(5000), {}]) {
    assertEquals(await openEmailToken(email, bad, "sign-in"), null);
  }
});

Deno.test("an expired email token is refused", async () => {
  const { token } = await sealEmailToken(email, {
    kind: "sign-in",
    email: "ada@example.com",
    maxAge: 600,
    now: now - 700,
  });
  assertEquals(await openEmailToken(email, token, "sign-in"), null);
});

Deno.test("email codes are six ASCII digits, uniformly spread", () => {
  const counts = new Array(10).fill(0);
  for (let i = 0; i < 2000; i++) {
    const code = generateEmailCode();
    assert(isEmailCode(code), code);
    counts[Number(code[0])]++;
  }
  // Every leading digit shows up: no truncation to a smaller range.
  assert(counts.every((count) => count > 100), String(counts));
});

Deno.test("malformed codes never match", () => {
  assert(emailCodeMatches("012345", "012345"));
  assert(!emailCodeMatches("012346", "012345"));
  for (const bad of ["12345", "1234567", "12345a", " 12345", "١٢٣٤٥٦", "１２３４５６", "+12345"]) {
    assert(!isEmailCode(bad), bad);
    assert(!emailCodeMatches(bad, "012345"), bad);
  }
});

Deno.test("a compact token of another secret, a cut or lengthened token, and a swapped IV are refused", async () => {
  const other = joseForPurpose("another-secret-that-is-long-enough-0123456789abcdef", {
    purpose: "email",
  });
  const input = { kind: "sign-in" as const, email: "ada@example.com", maxAge: 600, now };
  const foreign = (await sealEmailToken(other, input)).token;
  assert.doesNotMatch(foreign, /\./);
  assertEquals(await openEmailToken(email, foreign, "sign-in"), null);
  const { token } = await sealEmailToken(email, input);
  const second = (await sealEmailToken(email, input)).token;
  assert(await openEmailToken(email, token, "sign-in"));
  assertEquals(await openEmailToken(email, token.slice(1), "sign-in"), null);
  assertEquals(await openEmailToken(email, token + "A", "sign-in"), null);
  assertEquals(await openEmailToken(email, second.slice(0, 16) + token.slice(16), "sign-in"), null);
  assertEquals(await openEmailToken(email, token.slice(0, 38), "sign-in"), null);
});
