import assert from "node:assert/strict";
import { pbkdf2Sync, randomBytes } from "node:crypto";
import { hashPassword, verifyPassword } from "../../src/crypto/password.ts";

const PASSWORD = "correct horse battery staple";
const STORED = await hashPassword(PASSWORD);

function b64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(
    /=+$/,
    "",
  );
}

/** Builds an encoded hash with Node's PBKDF2 as an independent oracle. */
function oracleHash(password: string, iterations: number, salt = randomBytes(16)): string {
  const hash = pbkdf2Sync(password, salt, iterations, 32, "sha256");
  return `$pbkdf2-sha256$${iterations}$${b64url(salt)}$${b64url(hash)}`;
}

/** The PBKDF2 derivations (iterations, output bits) made while `fn` runs, through a spy. */
async function derivations(fn: () => Promise<unknown>): Promise<[number, number][]> {
  const subtle = crypto.subtle as unknown as Record<string, unknown>;
  const original = crypto.subtle.deriveBits;
  const calls: [number, number][] = [];
  subtle.deriveBits = (algorithm: Pbkdf2Params, key: CryptoKey, length: number) => {
    calls.push([algorithm.iterations, length]);
    return original.call(crypto.subtle, algorithm, key, length);
  };
  try {
    await fn();
  } finally {
    delete subtle.deriveBits;
  }
  return calls;
}

function withChar(text: string, index: number, char: string): string {
  return text.slice(0, index) + char + text.slice(index + 1);
}

Deno.test("hashPassword produces $pbkdf2-sha256$600000$<salt>$<hash> with 16- and 32-byte fields", () => {
  assert.match(STORED, /^\$pbkdf2-sha256\$600000\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
});

Deno.test("a hash verifies with the same password", async () => {
  assert.equal(await verifyPassword(PASSWORD, STORED), true);
});

Deno.test("a hash does not verify with a different password", async () => {
  assert.equal(await verifyPassword("correct horse battery stapler", STORED), false);
  assert.equal(await verifyPassword("", STORED), false);
  assert.equal(await verifyPassword(PASSWORD.toUpperCase(), STORED), false);
});

Deno.test("two hashes of one password differ because the salt is random", async () => {
  const again = await hashPassword(PASSWORD);
  assert.notEqual(again, STORED);
  assert.notEqual(again.split("$")[3], STORED.split("$")[3]);
});

Deno.test("the hash equals PBKDF2-HMAC-SHA-256 computed by node:crypto for the stored salt", () => {
  const [, , iterations, salt] = STORED.split("$");
  const saltBytes = Uint8Array.from(
    atob(salt.replace(/-/g, "+").replace(/_/g, "/")),
    (c) => c.charCodeAt(0),
  );
  assert.equal(oracleHash(PASSWORD, Number(iterations), Buffer.from(saltBytes)), STORED);
});

Deno.test("verifyPassword reads the iteration count from the encoded string", async () => {
  const stored = oracleHash("pw", 100_000);
  assert.equal(await verifyPassword("pw", stored), true);
  assert.equal(await verifyPassword("pw2", stored), false);
});

Deno.test("verifyPassword refuses a correct hash whose iteration count is below 100,000", async () => {
  assert.equal(await verifyPassword("pw", oracleHash("pw", 99_999)), false);
  assert.equal(await verifyPassword("pw", oracleHash("pw", 1)), false);
});

Deno.test("verifyPassword never derives at an absurd iteration count, only the decoy's 600,000", async () => {
  const [, , , salt, hash] = STORED.split("$");
  for (const iterations of ["10000001", "99999999", "2000000000", "1e9"]) {
    let verdict: boolean | undefined;
    const calls = await derivations(async () => {
      verdict = await verifyPassword(PASSWORD, `$pbkdf2-sha256$${iterations}$${salt}$${hash}`);
    });
    assert.equal(verdict, false, iterations);
    assert.deepEqual(calls, [[600_000, 256]], iterations);
  }
});

Deno.test("verifyPassword without a stored hash (unknown user) derives once at full cost and answers false", async () => {
  for (const missing of [undefined, null]) {
    let verdict: boolean | undefined;
    const calls = await derivations(async () => {
      verdict = await verifyPassword(PASSWORD, missing);
    });
    assert.equal(verdict, false, String(missing));
    assert.deepEqual(calls, [[600_000, 256]], `${missing}: one PBKDF2 derivation, as for a user`);
  }
});

Deno.test("an unknown user costs the same derivation as a known user's wrong password", async () => {
  const known = await derivations(() => verifyPassword("wrong password", STORED));
  const unknown = await derivations(() => verifyPassword("wrong password", undefined));
  assert.deepEqual(unknown, known);
});

Deno.test("no password, whatever it is, matches a missing stored hash", async () => {
  for (const password of ["", PASSWORD, "\0", "decoy"]) {
    assert.equal(await verifyPassword(password, undefined), false, JSON.stringify(password));
  }
});

Deno.test("a malformed stored hash (an account without a password) costs the decoy too", async () => {
  const [, , , salt, hash] = STORED.split("$");
  // "" for an account without a password; a 21-character salt is not base64url at all.
  for (const encoded of ["", "!", `$pbkdf2-sha256$600000$${"A".repeat(21)}$${hash}`, salt]) {
    let verdict: boolean | undefined;
    const calls = await derivations(async () => {
      verdict = await verifyPassword(PASSWORD, encoded);
    });
    assert.equal(verdict, false, JSON.stringify(encoded));
    assert.deepEqual(calls, [[600_000, 256]], JSON.stringify(encoded));
  }
});

Deno.test("a Unicode password round-trips as UTF-8", async () => {
  const stored = await hashPassword("pässwörd 🔑");
  assert.equal(await verifyPassword("pässwörd 🔑", stored), true);
  // NFD form of the same text is a different byte string: no normalization.
  assert.equal(await verifyPassword("pässwörd 🔑".normalize("NFD"), stored), false);
  assert.equal(stored, oracleHash("pässwörd 🔑", 600_000, Buffer.from(decodeSalt(stored))));
});

function decodeSalt(stored: string): Uint8Array {
  const salt = stored.split("$")[3];
  return Uint8Array.from(atob(salt.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
}

Deno.test("a tampered hash field does not verify", async () => {
  const hashStart = STORED.lastIndexOf("$") + 1;
  const c = STORED[hashStart + 5];
  assert.equal(
    await verifyPassword(PASSWORD, withChar(STORED, hashStart + 5, c === "A" ? "B" : "A")),
    false,
  );
});

Deno.test("a tampered salt field does not verify", async () => {
  const saltStart = STORED.indexOf("$", 16) + 1;
  const c = STORED[saltStart + 3];
  assert.equal(
    await verifyPassword(PASSWORD, withChar(STORED, saltStart + 3, c === "A" ? "B" : "A")),
    false,
  );
});

Deno.test("a tampered iteration count does not verify", async () => {
  assert.equal(await verifyPassword(PASSWORD, STORED.replace("$600000$", "$600001$")), false);
});

Deno.test("malformed encoded strings give false without throwing", async () => {
  const [, , , salt, hash] = STORED.split("$");
  const malformed = [
    "",
    "plain",
    "$",
    "$$$$",
    `$pbkdf2-sha512$600000$${salt}$${hash}`,
    `$PBKDF2-SHA256$600000$${salt}$${hash}`,
    `pbkdf2-sha256$600000$${salt}$${hash}`,
    `$pbkdf2-sha256$600000$${salt}$${hash}$`,
    `$pbkdf2-sha256$600000$${salt}$${hash}=`,
    `$pbkdf2-sha256$600000$${salt}=$${hash}`,
    `$pbkdf2-sha256$600000$${salt}`,
    `$pbkdf2-sha256$$${salt}$${hash}`,
    `$pbkdf2-sha256$0600000$${salt}$${hash}`,
    `$pbkdf2-sha256$-600000$${salt}$${hash}`,
    `$pbkdf2-sha256$600000.5$${salt}$${hash}`,
    `$pbkdf2-sha256$ 600000$${salt}$${hash}`,
    `$pbkdf2-sha256$600000$${salt}$${hash.slice(0, -1)}`,
    `$pbkdf2-sha256$600000$${salt}$${hash}A`,
    `$pbkdf2-sha256$600000$${salt.slice(0, 12)}$${hash}`,
    `$pbkdf2-sha256$600000$${salt}$${hash.slice(0, -1)}+`,
    `$pbkdf2-sha256$600000$${salt.slice(0, -1)}/$${hash}`,
    `$pbkdf2-sha256$600000$${salt}$${hash.slice(0, -1)}B`,
    `$pbkdf2-sha256$600000$${salt}$${hash}\n`,
    ` ${STORED}`,
  ];
  for (const encoded of malformed) {
    assert.equal(await verifyPassword(PASSWORD, encoded), false, JSON.stringify(encoded));
  }
});

Deno.test("non-string arguments to verifyPassword give false", async () => {
  assert.equal(await verifyPassword(undefined as unknown as string, STORED), false);
  assert.equal(await verifyPassword(PASSWORD, null as unknown as string), false);
  assert.equal(await verifyPassword({} as unknown as string, STORED), false);
});

Deno.test("hashPassword rejects a non-string password", async () => {
  await assert.rejects(() => hashPassword(undefined as unknown as string), TypeError);
  await assert.rejects(() => hashPassword(12345 as unknown as string), TypeError);
});
