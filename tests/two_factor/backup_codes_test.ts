import assert from "node:assert/strict";
import {
  BACKUP_CODE_COUNT,
  generateBackupCodes,
  hashBackupCode,
  normaliseBackupCode,
  verifyBackupCode,
} from "../../src/two_factor/backup_codes.ts";
import { countSubtle } from "../jose/_subtle.ts";

const SHOWN = /^[0-9abcdefghjkmnpqrstvwxyz]{5}-[0-9abcdefghjkmnpqrstvwxyz]{5}$/;

Deno.test("generateBackupCodes makes ten distinct xxxxx-xxxxx codes and their hashes", () => {
  const { codes, hashes } = generateBackupCodes();
  assert.equal(codes.length, BACKUP_CODE_COUNT);
  assert.equal(hashes.length, BACKUP_CODE_COUNT);
  for (const code of codes) assert.match(code, SHOWN);
  assert.equal(new Set(codes).size, 10);
  for (const hash of hashes) assert.match(hash, /^[A-Za-z0-9_-]{43}$/);
  for (let i = 0; i < codes.length; i++) assert.equal(hashBackupCode(codes[i]), hashes[i]);
});

Deno.test("generated codes use every symbol of the alphabet about equally (no bias)", () => {
  const counts = new Map<string, number>();
  for (let round = 0; round < 100; round++) {
    for (const code of (generateBackupCodes()).codes) {
      for (const c of code.replace("-", "")) counts.set(c, (counts.get(c) ?? 0) + 1);
    }
  }
  // 10,000 symbols over 32: about 312 each; 200 and 430 are more than 6 standard deviations away.
  assert.equal(counts.size, 32);
  for (const [symbol, count] of counts) {
    assert.ok(count > 200 && count < 430, `${symbol}: ${count}`);
  }
});

Deno.test("the stored hashes do not contain the codes", () => {
  const { codes, hashes } = generateBackupCodes();
  const stored = JSON.stringify(hashes);
  for (const code of codes) {
    assert.ok(!stored.includes(code));
    assert.ok(!stored.includes(code.replace("-", "")));
  }
});

Deno.test("normaliseBackupCode ignores case, dashes and spaces and reads o, i, l as 0, 1, 1", () => {
  assert.equal(normaliseBackupCode("7k2mq-x9d4r"), "7k2mqx9d4r");
  assert.equal(normaliseBackupCode("7K2MQ-X9D4R"), "7k2mqx9d4r");
  assert.equal(normaliseBackupCode(" 7k2mq x9d4r "), "7k2mqx9d4r");
  assert.equal(normaliseBackupCode("7k2m\tqx9-d4r"), "7k2mqx9d4r");
  assert.equal(normaliseBackupCode("7k2mqx9d4r"), "7k2mqx9d4r");
  assert.equal(normaliseBackupCode("o1ilO-IL000"), "0111011000");
});

Deno.test("normaliseBackupCode refuses wrong lengths, other characters and non-strings", () => {
  const bad: unknown[] = [
    "7k2mq-x9d4",
    "7k2mq-x9d4rr",
    "",
    "-----",
    "7k2mq_x9d4r",
    "7k2mq.x9d4r",
    "7k2mq-x9d4u", // u is not in the alphabet
    "７k2mq-x9d4r", // fullwidth 7
    "7k2mq\u2010x9d4r", // a Unicode hyphen
    "7k2mq\u00a0x9d4r", // a no-break space
    "7k2mq\nx9d4r",
    `7k2mq${" ".repeat(60)}x9d4r`, // over 64 characters
    1234567890,
    null,
    undefined,
    { code: "7k2mq-x9d4r" },
  ];
  for (const input of bad) assert.equal(normaliseBackupCode(input), null, JSON.stringify(input));
});

Deno.test("verifyBackupCode returns the index of the matching code, in any spelling", () => {
  const { codes, hashes } = generateBackupCodes();
  for (let i = 0; i < codes.length; i++) {
    assert.equal(verifyBackupCode(hashes, codes[i]), i);
    assert.equal(verifyBackupCode(hashes, codes[i].toUpperCase().replace("-", " ")), i);
  }
});

Deno.test("verifyBackupCode refuses a code not in the list, and works on a shortened list", () => {
  const { codes, hashes } = generateBackupCodes();
  const other = generateBackupCodes();
  for (const code of other.codes) assert.equal(verifyBackupCode(hashes, code), null);
  assert.equal(verifyBackupCode(hashes.slice(1), codes[0]), null);
  assert.equal(verifyBackupCode(hashes.slice(1), codes[1]), 0);
  assert.equal(verifyBackupCode([], codes[0]), null);
});

Deno.test("verifyBackupCode refuses a code one character off", () => {
  const { codes, hashes } = generateBackupCodes();
  const code = codes[0];
  const last = code.at(-1) === "0" ? "1" : "0";
  assert.equal(verifyBackupCode(hashes, code.slice(0, -1) + last), null);
});

Deno.test("verifyBackupCode makes no Web Crypto call: the hash is computed in JavaScript", async () => {
  const { codes, hashes } = generateBackupCodes();
  assert.deepEqual(
    await countSubtle(() => Promise.resolve(verifyBackupCode(hashes, codes[9]))),
    {},
  );
  assert.deepEqual(
    await countSubtle(() => Promise.resolve(verifyBackupCode(hashes, "00000-0000x"))),
    {},
  );
  assert.deepEqual(
    await countSubtle(() => Promise.resolve(verifyBackupCode(hashes, "not a code"))),
    {},
  );
});

Deno.test("verifyBackupCode compares the hash with every stored entry, not only up to a match", () => {
  // A stored list whose entries are read through a proxy: every entry is read whatever matched.
  const { codes, hashes } = generateBackupCodes();
  const read = new Set<number>();
  const watched = new Proxy(hashes, {
    get(target, property, receiver) {
      if (typeof property === "string" && /^\d+$/.test(property)) read.add(Number(property));
      return Reflect.get(target, property, receiver);
    },
  });
  assert.equal(verifyBackupCode(watched, codes[0]), 0);
  assert.equal(read.size, 10);
});
