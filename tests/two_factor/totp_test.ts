import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only oracle; deno.json has no import map.
import * as OTPAuth from "npm:otpauth@9";
import { hmacSha1 } from "../../src/crypto/sha1.ts";
import { decodeBase32, encodeBase32 } from "../../src/two_factor/base32.ts";
import {
  generateTotpSecret,
  hotp,
  importHotpKey,
  otpauthUri,
  totpCode,
  totpStep,
  verifyTotp,
} from "../../src/two_factor/totp.ts";
import { countSubtle } from "../jose/_subtle.ts";
import { prng } from "../_prng.ts";

const RFC_SECRET = new TextEncoder().encode("12345678901234567890");

// RFC 4226 Appendix D: HOTP values for counters 0 to 9 (the full truncated value, then 6 digits).
const RFC4226 = [
  [1284755224, "755224"],
  [1094287082, "287082"],
  [137359152, "359152"],
  [1726969429, "969429"],
  [1640338314, "338314"],
  [868254676, "254676"],
  [1918287922, "287922"],
  [82162583, "162583"],
  [673399871, "399871"],
  [645520489, "520489"],
] as const;

// RFC 6238 Appendix B, SHA-1 rows: time, step T (hex), 8-digit TOTP.
const RFC6238 = [
  [59, 0x1, "94287082"],
  [1111111109, 0x23523ec, "07081804"],
  [1111111111, 0x23523ed, "14050471"],
  [1234567890, 0x273ef07, "89005924"],
  [2000000000, 0x3f940aa, "69279037"],
  [20000000000, 0x27bc86aa, "65353130"],
] as const;

Deno.test("hotp gives the RFC 4226 Appendix D values for counters 0 to 9", async () => {
  for (const [counter, [, code]] of RFC4226.entries()) {
    assert.equal(await hotp(RFC_SECRET, counter), code, `counter ${counter}`);
  }
});

Deno.test("hotp with 8 digits gives the last 8 digits of the RFC 4226 truncated values", async () => {
  for (const [counter, [full]] of RFC4226.entries()) {
    const expected = String(full % 100_000_000).padStart(8, "0");
    assert.equal(await hotp(RFC_SECRET, counter, { digits: 8 }), expected);
  }
});

Deno.test("totpCode gives the RFC 6238 Appendix B SHA-1 values with 8 digits", async () => {
  for (const [time, step, code] of RFC6238) {
    assert.equal(totpStep(time), step);
    assert.equal(await totpCode(RFC_SECRET, time, { digits: 8 }), code, `time ${time}`);
  }
});

Deno.test("totpCode's 6-digit codes are the last 6 digits of the RFC 6238 values", async () => {
  for (const [time, , code] of RFC6238) {
    assert.equal(await totpCode(RFC_SECRET, time), code.slice(2));
  }
});

Deno.test("hotp takes an imported key and gives the same codes", async () => {
  const key = await importHotpKey(RFC_SECRET);
  assert.equal(await hotp(key, 0), "755224");
  assert.equal(await totpCode(key, 59, { digits: 8 }), "94287082");
});

Deno.test("hotp encodes counters above 2^32 in all eight bytes", async () => {
  const rng = prng(7);
  for (let i = 0; i < 20; i++) {
    const secret = randomBytes(rng, 20);
    const counter = 2 ** 32 + Math.floor(rng() * 2 ** 40);
    const reference = new OTPAuth.HOTP({ secret: new OTPAuth.Secret({ buffer: secret.buffer }) });
    assert.equal(await hotp(secret, counter), reference.generate({ counter }));
  }
});

Deno.test("hotp refuses bad counters, digit counts and keys", async () => {
  for (const counter of [-1, 1.5, NaN, Infinity, 2 ** 53]) {
    await assert.rejects(() => hotp(RFC_SECRET, counter), TypeError, `counter ${counter}`);
  }
  for (const digits of [5, 9, 6.5]) {
    await assert.rejects(() => hotp(RFC_SECRET, 0, { digits }), TypeError);
  }
  await assert.rejects(() => hotp(new Uint8Array(0), 0), TypeError);
  const sha256 = await crypto.subtle.importKey(
    "raw",
    RFC_SECRET,
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  await assert.rejects(() => hotp(sha256, 0), TypeError);
  const verifyOnly = await crypto.subtle.importKey(
    "raw",
    RFC_SECRET,
    { name: "HMAC", hash: "SHA-1" },
    false,
    ["verify"],
  );
  await assert.rejects(() => hotp(verifyOnly, 0), TypeError);
  await assert.rejects(() => importHotpKey("12345678901234567890" as never), TypeError);
});

function randomBytes(rng: () => number, length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length; i++) bytes[i] = Math.floor(rng() * 256);
  return bytes;
}

Deno.test("totpCode and verifyTotp agree with npm otpauth over random secrets and times", async () => {
  const seed = 20261125;
  const rng = prng(seed);
  for (let i = 0; i < 200; i++) {
    const secret = randomBytes(rng, 20);
    const time = Math.floor(rng() * 4_000_000_000);
    const reference = new OTPAuth.TOTP({
      secret: new OTPAuth.Secret({ buffer: secret.buffer }),
      algorithm: "SHA1",
      digits: 6,
      period: 30,
    });
    const expected = reference.generate({ timestamp: time * 1000 });
    assert.equal(await totpCode(secret, time), expected, `seed ${seed}, case ${i}`);
    assert.equal(verifyTotp(secret, expected, time), totpStep(time));
    // otpauth reads our URI back to the same generator.
    const parsed = OTPAuth.URI.parse(otpauthUri({ secret, issuer: "Acme", account: "a@b.c" }));
    assert.equal((parsed as OTPAuth.TOTP).generate({ timestamp: time * 1000 }), expected);
  }
});

Deno.test("verifyTotp accepts the previous, current and next step and returns that step", async () => {
  const secret = generateTotpSecret();
  const now = 1_700_000_015;
  const current = totpStep(now);
  for (const offset of [-1, 0, 1]) {
    const code = await totpCode(secret, now + offset * 30);
    const matched = verifyTotp(secret, code, now);
    // A code of another step may collide with one of the window (one chance in 10^6 each).
    const codes = await Promise.all([-1, 0, 1].map((o) => totpCode(secret, now + o * 30)));
    if (codes.filter((c) => c === code).length === 1) assert.equal(matched, current + offset);
  }
});

Deno.test("verifyTotp refuses codes two or more steps away", async () => {
  const rng = prng(42);
  let checked = 0;
  for (let i = 0; i < 50; i++) {
    const secret = randomBytes(rng, 20);
    const now = 1_600_000_000 + Math.floor(rng() * 100_000_000);
    const window = await Promise.all([-1, 0, 1].map((o) => totpCode(secret, now + o * 30)));
    for (const offset of [-3, -2, 2, 3]) {
      const code = await totpCode(secret, now + offset * 30);
      if (window.includes(code)) continue;
      assert.equal(verifyTotp(secret, code, now), null, `offset ${offset}`);
      checked++;
    }
  }
  assert.ok(checked > 190);
});

Deno.test("verifyTotp uses the step boundaries of the epoch", async () => {
  const secret = generateTotpSecret();
  const code = await totpCode(secret, 1_000_000_020); // step 33333334 = [1_000_000_020, 1_000_000_050)
  const codes = await Promise.all(
    [-3, -2, -1, 0, 1, 2, 3].map((o) => totpCode(secret, 1_000_000_020 + o * 30)),
  );
  if (codes.filter((c) => c === code).length > 1) return;
  assert.equal(verifyTotp(secret, code, 1_000_000_079.9), 33333334); // the previous step
  assert.equal(verifyTotp(secret, code, 1_000_000_080), null); // two steps later
  assert.equal(verifyTotp(secret, code, 1_000_000_019.9), 33333334); // one step earlier: next
  assert.equal(verifyTotp(secret, code, 1_000_000_019.9 - 30), null);
});

Deno.test("verifyTotp at step 0 checks steps 0 and 1 only", () => {
  assert.equal(verifyTotp(RFC_SECRET, "755224", 0), 0);
  assert.equal(verifyTotp(RFC_SECRET, "287082", 29), 1);
  assert.equal(verifyTotp(RFC_SECRET, "359152", 29), null);
});

Deno.test("verifyTotp refuses anything but exactly six ASCII digits, without crypto", async () => {
  const secret = RFC_SECRET;
  const now = 59;
  assert.equal(verifyTotp(secret, "287082", now), 1);
  const bad: unknown[] = [
    "١٢٣٤٥٦", // Arabic-Indic digits
    "۲۸۷۰۸۲", // Extended Arabic-Indic digits
    "２８７０８２", // fullwidth digits
    "𝟐𝟖𝟕𝟎𝟖𝟐", // mathematical bold digits
    "28708",
    "2870820",
    "0287082",
    " 287082",
    "287082 ",
    "287 082",
    "287-082",
    "28708a",
    "+28708",
    "-28708",
    "2.8708",
    "28708\n",
    "",
    "0x4F",
    287082,
    null,
    undefined,
    ["287082"],
  ];
  for (const code of bad) {
    let result: number | null = -1;
    const counts = await countSubtle(() => {
      result = verifyTotp(secret, code as string, now);
      return Promise.resolve();
    });
    assert.equal(result, null, JSON.stringify(code));
    assert.deepEqual(counts, {}, JSON.stringify(code));
  }
});

Deno.test("verifyTotp makes no Web Crypto call: its three HMAC-SHA-1 run in JavaScript", async () => {
  const secret = generateTotpSecret();
  const now = 1_700_000_000;
  for (const code of [await totpCode(secret, now), "000000"]) {
    const counts = await countSubtle(() => Promise.resolve(verifyTotp(secret, code, now)));
    assert.deepEqual(counts, {});
  }
  // What Web Crypto computes, the JavaScript check accepts, for each step of the window.
  for (const offset of [-30, 0, 30]) {
    const code = await totpCode(secret, now + offset);
    assert.equal(verifyTotp(secret, code, now), totpStep(now + offset));
  }
});

Deno.test("verifyTotp computes every step's code whatever matched first", async () => {
  // With the code of the previous step, the later steps are still computed and compared.
  const secret = generateTotpSecret();
  const now = 1_700_000_000;
  const code = await totpCode(secret, now - 30);
  const mac = hmacSha1(secret);
  const counters: number[] = [];
  const counting = (message: Uint8Array) => {
    counters.push(new DataView(message.buffer, message.byteOffset).getUint32(4));
    return mac(message);
  };
  assert.equal(verifyTotp(counting, code, now), totpStep(now) - 1);
  assert.deepEqual(counters, [totpStep(now) - 1, totpStep(now), totpStep(now) + 1]);
});

Deno.test("verifyTotp refuses invalid times and secrets", () => {
  for (const now of [-1, NaN, Infinity, "59" as unknown as number]) {
    assert.throws(() => verifyTotp(RFC_SECRET, "287082", now), TypeError);
  }
  assert.throws(() => verifyTotp(new Uint8Array(0), "287082", 59), TypeError);
  assert.throws(() => verifyTotp("GEZDGNBV" as unknown as Uint8Array, "287082", 59), TypeError);
});

Deno.test("generateTotpSecret makes 20 random bytes", () => {
  const a = generateTotpSecret();
  const b = generateTotpSecret();
  assert.equal(a.length, 20);
  assert.notDeepEqual(a, b);
  assert.equal(encodeBase32(a).length, 32);
});

Deno.test("base32 matches the RFC 4648 section 10 vectors without padding", () => {
  const vectors = [
    ["", ""],
    ["f", "MY"],
    ["fo", "MZXQ"],
    ["foo", "MZXW6"],
    ["foob", "MZXW6YQ"],
    ["fooba", "MZXW6YTB"],
    ["foobar", "MZXW6YTBOI"],
  ];
  const encoder = new TextEncoder();
  for (const [text, encoded] of vectors) {
    assert.equal(encodeBase32(encoder.encode(text)), encoded);
    assert.deepEqual(decodeBase32(encoded), encoder.encode(text));
    assert.deepEqual(decodeBase32(encoded.toLowerCase()), encoder.encode(text));
  }
  assert.equal(encodeBase32(RFC_SECRET), "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
});

Deno.test("base32 round-trips random bytes of every length and agrees with otpauth", () => {
  const rng = prng(99);
  for (let length = 0; length < 70; length++) {
    const bytes = randomBytes(rng, length);
    const encoded = encodeBase32(bytes);
    assert.deepEqual(decodeBase32(encoded), bytes);
    if (length > 0) assert.equal(encoded, new OTPAuth.Secret({ buffer: bytes.buffer }).base32);
  }
});

Deno.test("base32 decoding refuses padding, other characters, impossible lengths and stray bits", () => {
  const bad = [
    "MY======", // padding
    "MZXW6YTBOI======",
    "MZXW6YTB=",
    "MZXW 6YTB", // space
    "MZXW6YTB\n",
    "MZXW1YTB", // 1 is not in the alphabet
    "MZXW0YTB", // nor 0
    "MZXW8YTB", // nor 8
    "MZXW-YTB",
    "MZXWÉYTB",
    "MZXW６YTB", // fullwidth 6
    "M", // lengths 1, 3 and 6 (mod 8) decode to no whole byte count
    "MZX",
    "MZXW6Y",
    "MZ", // "f" is "MY": the last 2 bits of Z are set
    "MZXR", // "fo" is "MZXQ"
    "MZXW7", // "foo" is "MZXW6"
  ];
  for (const text of bad) assert.throws(() => decodeBase32(text), TypeError, JSON.stringify(text));
  assert.throws(() => decodeBase32(42 as unknown as string), TypeError);
});

Deno.test("otpauthUri writes the key URI with issuer, parameters and unpadded secret", () => {
  assert.equal(
    otpauthUri({ secret: RFC_SECRET, issuer: "Acme", account: "ada@example.com" }),
    "otpauth://totp/Acme:ada%40example.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ" +
      "&issuer=Acme&algorithm=SHA1&digits=6&period=30",
  );
});

Deno.test("otpauthUri percent-encodes the issuer and account (space as %20, reserved characters)", () => {
  const uri = otpauthUri({
    secret: RFC_SECRET,
    issuer: "My App & Co (beta)!",
    account: "ada lovelace+x/y?z#w:v'é*",
  });
  assert.equal(
    uri,
    "otpauth://totp/My%20App%20%26%20Co%20%28beta%29%21:" +
      "ada%20lovelace%2Bx%2Fy%3Fz%23w%3Av%27%C3%A9%2A" +
      "?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=My%20App%20%26%20Co%20%28beta%29%21" +
      "&algorithm=SHA1&digits=6&period=30",
  );
  const parsed = OTPAuth.URI.parse(uri) as OTPAuth.TOTP;
  assert.equal(parsed.issuer, "My App & Co (beta)!");
  assert.equal(parsed.label, "ada lovelace+x/y?z#w:v'é*");
  assert.equal(parsed.secret.base32, "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ");
  const url = new URL(uri);
  assert.equal(url.searchParams.get("issuer"), "My App & Co (beta)!");
});

Deno.test("otpauthUri refuses an issuer with a colon, empty or long names, and bad secrets", () => {
  const ok = { secret: RFC_SECRET, issuer: "Acme", account: "ada" };
  assert.throws(() => otpauthUri({ ...ok, issuer: "Acme:Inc" }), TypeError);
  assert.throws(() => otpauthUri({ ...ok, issuer: "" }), TypeError);
  assert.throws(() => otpauthUri({ ...ok, account: "" }), TypeError);
  assert.throws(() => otpauthUri({ ...ok, account: "a".repeat(257) }), TypeError);
  assert.throws(() => otpauthUri({ ...ok, account: "\ud800" }), TypeError);
  assert.throws(() => otpauthUri({ ...ok, secret: new Uint8Array(0) }), TypeError);
  assert.throws(
    () => otpauthUri({ ...ok, secret: "GEZDGNBV" as unknown as Uint8Array }),
    TypeError,
  );
  assert.throws(() => otpauthUri(undefined as never), TypeError);
});
