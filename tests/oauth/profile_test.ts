import assert from "node:assert/strict";
import {
  buildUser,
  checkEmail,
  checkImageURL,
  checkText,
  defaultProfile,
  joinName,
  MAX_FIELD_LENGTH,
  normalizeEmail,
  primaryVerifiedEmail,
  ProfileError,
  readFlag,
  readImageURL,
  readSubject,
} from "../../src/oauth/profile.ts";

Deno.test("defaultProfile maps sub, name, email and picture", () => {
  const user = defaultProfile({
    sub: "user-1",
    name: "Ada Lovelace",
    email: "ada@example.com",
    picture: "https://example.com/ada.png",
  });
  assert.deepEqual(user, {
    sub: "user-1",
    name: "Ada Lovelace",
    email: "ada@example.com",
    image: "https://example.com/ada.png",
  });
});

Deno.test("defaultProfile falls back to id, login and avatar_url", () => {
  const user = defaultProfile({
    id: 583231,
    login: "octocat",
    avatar_url: "https://avatars.githubusercontent.com/u/583231?v=4",
  });
  assert.deepEqual(user, {
    sub: "583231",
    name: "octocat",
    image: "https://avatars.githubusercontent.com/u/583231?v=4",
  });
});

Deno.test("defaultProfile prefers sub over id", () => {
  assert.equal(defaultProfile({ sub: "s", id: "i" }).sub, "s");
});

Deno.test("defaultProfile falls back to username and image", () => {
  const user = defaultProfile({ id: "7", username: "ada", image: "https://example.com/i.png" });
  assert.deepEqual(user, { sub: "7", name: "ada", image: "https://example.com/i.png" });
});

Deno.test("defaultProfile skips a null name and uses login", () => {
  assert.equal(defaultProfile({ id: 1, name: null, login: "octocat" }).name, "octocat");
});

Deno.test("defaultProfile leaves out missing optional fields instead of empty strings", () => {
  const user = defaultProfile({ id: "1", name: "", email: "", picture: "" });
  assert.deepEqual(user, { sub: "1" });
  assert.deepEqual(Object.keys(user), ["sub"]);
});

Deno.test("defaultProfile drops optional fields of the wrong type", () => {
  const user = defaultProfile({
    sub: "1",
    name: 42,
    email: ["a@example.com"],
    picture: { url: "https://example.com/a.png" },
  });
  assert.deepEqual(user, { sub: "1" });
});

Deno.test("defaultProfile throws a ProfileError when there is no id", () => {
  assert.throws(() => defaultProfile({ name: "No id" }), ProfileError);
});

Deno.test("defaultProfile throws when the id is blank, fractional or an object", () => {
  for (const id of ["", "   ", 1.5, Number.NaN, { id: 1 }, true, null]) {
    assert.throws(() => defaultProfile({ id }), ProfileError, `id ${String(id)}`);
  }
});

Deno.test("defaultProfile throws when the user-info is not an object", () => {
  assert.throws(() => defaultProfile(null as unknown as Record<string, unknown>), ProfileError);
  assert.throws(() => defaultProfile([] as unknown as Record<string, unknown>), ProfileError);
});

Deno.test("defaultProfile drops a javascript: image URL", () => {
  assert.deepEqual(defaultProfile({ id: 1, picture: "javascript:alert(1)" }), { sub: "1" });
});

Deno.test("defaultProfile rejects a comma-separated email list", () => {
  assert.deepEqual(defaultProfile({ id: 1, email: "victim@example.com,attacker@evil.test" }), {
    sub: "1",
  });
});

Deno.test("readSubject stringifies safe integers only", () => {
  assert.equal(readSubject(0), "0");
  assert.equal(readSubject(2 ** 53), undefined);
  assert.equal(readSubject("abc"), "abc");
});

Deno.test("readImageURL accepts only absolute http and https URLs", () => {
  assert.equal(readImageURL("http://example.com/a.png"), "http://example.com/a.png");
  assert.equal(readImageURL("data:image/png;base64,AAAA"), undefined);
  assert.equal(readImageURL("/relative.png"), undefined);
  assert.equal(readImageURL("http://["), undefined);
});

Deno.test("buildUser never sets undefined keys", () => {
  const user = buildUser({ sub: "1", name: undefined, email: undefined, image: undefined }, "t");
  assert.deepEqual(Object.keys(user), ["sub"]);
});

Deno.test("normalizeEmail accepts a plain address and lower-cases the domain", () => {
  assert.equal(normalizeEmail("Ada.Lovelace+tag@Example.COM"), "Ada.Lovelace+tag@example.com");
  assert.equal(normalizeEmail("o'brien@example.ie"), "o'brien@example.ie");
});

Deno.test("normalizeEmail refuses, never rewrites, an address NFKC would change", () => {
  assert.equal(normalizeEmail("ada＠example.com"), undefined);
  assert.equal(normalizeEmail("ａｄａ@example.com"), undefined);
});

Deno.test("normalizeEmail rejects a full-width at sign that becomes a second @", () => {
  assert.equal(normalizeEmail("victim＠example.com@evil.test"), undefined);
});

Deno.test("normalizeEmail rejects comma and semicolon lists", () => {
  assert.equal(normalizeEmail("a@example.com,b@example.com"), undefined);
  assert.equal(normalizeEmail("a@example.com;b@example.com"), undefined);
});

Deno.test("normalizeEmail rejects quoted local parts", () => {
  assert.equal(normalizeEmail('"victim@example.com"@evil.test'), undefined);
  assert.equal(normalizeEmail('"a b"@example.com'), undefined);
});

Deno.test("normalizeEmail rejects HTML and angle-bracket forms", () => {
  assert.equal(normalizeEmail("<script>alert(1)</script>@example.com"), undefined);
  assert.equal(normalizeEmail("Ada <ada@example.com>"), undefined);
  assert.equal(normalizeEmail("ada@example.com<img src=x onerror=alert(1)>"), undefined);
});

Deno.test("normalizeEmail rejects whitespace, control and invisible characters", () => {
  for (
    const email of [
      " ada@example.com",
      "ada@example.com\n",
      "ada @example.com",
      "ada@exa\u0000mple.com",
      "ada\u200b@example.com",
      "ada@example.com\u202e",
      "ada\u00a0@example.com",
    ]
  ) {
    assert.equal(normalizeEmail(email), undefined, JSON.stringify(email));
  }
});

Deno.test("normalizeEmail rejects addresses without exactly one @ or a dotted domain", () => {
  for (
    const email of [
      "",
      "ada",
      "@example.com",
      "ada@",
      "ada@localhost",
      "a@@example.com",
      "ada@example..com",
      "ada@.example.com",
      "ada@example.com.",
      "ada@-example.com",
      ".ada@example.com",
      "a..da@example.com",
      "ada.@example.com",
      "(comment)ada@example.com",
      "ada@[127.0.0.1]",
      "ada\\@example.com",
    ]
  ) {
    assert.equal(normalizeEmail(email), undefined, JSON.stringify(email));
  }
});

Deno.test("normalizeEmail rejects overlong addresses and non-strings", () => {
  assert.equal(normalizeEmail(`${"a".repeat(65)}@example.com`), undefined);
  assert.equal(normalizeEmail(`a@${"b".repeat(250)}.com`), undefined);
  assert.equal(normalizeEmail(42), undefined);
  assert.equal(normalizeEmail(null), undefined);
  assert.equal(normalizeEmail({ toString: () => "a@example.com" }), undefined);
});

Deno.test("primaryVerifiedEmail takes only an entry with both flags exactly true", () => {
  const list = [
    { email: "unverified@example.com", primary: true, verified: false },
    { email: "secondary@example.com", primary: false, verified: true },
    { email: "string-flags@example.com", primary: "true", verified: "true" },
    { email: "ada@example.com", primary: true, verified: true },
  ];
  assert.equal(primaryVerifiedEmail(list, "primary", "verified"), "ada@example.com");
  assert.equal(primaryVerifiedEmail(list.slice(0, 3), "primary", "verified"), undefined);
  assert.equal(primaryVerifiedEmail({ values: list }, "primary", "verified"), undefined);
});

// Field rules shared by every way into a session (D3)

Deno.test("checkEmail refuses addresses that NFKC normalisation would change", () => {
  for (
    const email of [
      "ｂoss@corp.example", // full-width letter
      "ᵇoss@corp.example", // modifier letter
      "boss＠corp.example", // full-width at sign
      "boss@corp.ｅxample", // full-width letter in the domain
      "ﬁnance@corp.example", // ligature fi
      "boss１@corp.example", // full-width digit
      "boss@corp.example\u2024com", // one-dot leader
      "boss\u00a0@corp.example", // no-break space
      "bo\u0073\u0307s@corp.example", // s + combining dot above (NFC composes it)
    ]
  ) {
    assert.equal(checkEmail(email), undefined, JSON.stringify(email));
  }
});

Deno.test("checkEmail keeps a plain address, non-ASCII letters included", () => {
  assert.equal(checkEmail("boss@corp.example"), "boss@corp.example");
  assert.equal(checkEmail("josé@corp.example"), "josé@corp.example");
  assert.equal(checkEmail("Boss@CORP.Example"), "Boss@corp.example");
});

Deno.test("checkEmail refuses lists, display names and control characters", () => {
  for (
    const email of [
      "a@corp.example, b@corp.example",
      "a@corp.example;b@corp.example",
      "Boss <boss@corp.example>",
      '"Boss" boss@corp.example',
      "boss@corp.example\r\nBcc: x@evil.example",
      "boss\u0000@corp.example",
      "boss\u0085@corp.example",
      "boss\u2028@corp.example",
      "boss\u200d@corp.example",
    ]
  ) {
    assert.equal(checkEmail(email), undefined, JSON.stringify(email));
  }
});

Deno.test("checkEmail caps the address at 254 and the local part at 64 characters", () => {
  const domain = `${"d".repeat(60)}.${"e".repeat(60)}.${"f".repeat(60)}.example`;
  const local = "l".repeat(254 - domain.length - 1);
  assert.equal(checkEmail(`${"a".repeat(64)}@corp.example`), `${"a".repeat(64)}@corp.example`);
  assert.equal(checkEmail(`${"a".repeat(65)}@corp.example`), undefined);
  assert.equal(checkEmail(`${local.slice(0, 64)}@${domain}`), `${local.slice(0, 64)}@${domain}`);
  assert.equal(checkEmail(`a@${"b".repeat(250)}.com`), undefined);
});

Deno.test("checkImageURL accepts absolute http(s) URLs within the cap", () => {
  assert.equal(checkImageURL("https://cdn.example/a.png"), "https://cdn.example/a.png");
  assert.equal(checkImageURL("http://cdn.example/a.png"), "http://cdn.example/a.png");
  assert.equal(checkImageURL(`https://cdn.example/${"a".repeat(2000)}`)?.length, 2020);
});

Deno.test("checkImageURL refuses other schemes, credentials, controls and overlong URLs", () => {
  for (
    const url of [
      "javascript:alert(1)",
      "data:image/png;base64,AAAA",
      "//cdn.example/a.png",
      "/a.png",
      "https://user:pass@cdn.example/a.png",
      "https://cdn.example/a\n.png",
      "https://cdn.example/a\t.png",
      " https://cdn.example/a.png",
      `https://cdn.example/${"a".repeat(2048)}`,
      "https://[",
    ]
  ) {
    assert.equal(checkImageURL(url), undefined, JSON.stringify(url));
  }
});

Deno.test("checkText trims and refuses control characters and text over the cap", () => {
  assert.equal(checkText("  Ada Lovelace "), "Ada Lovelace");
  assert.equal(checkText("Ada\nLovelace"), undefined);
  assert.equal(checkText("Ada\u0000"), undefined);
  assert.equal(checkText("Ada\u2029"), undefined);
  assert.equal(checkText("a".repeat(MAX_FIELD_LENGTH.name)), "a".repeat(256));
  assert.equal(checkText("a".repeat(MAX_FIELD_LENGTH.name + 1)), undefined);
  assert.equal(checkText("a".repeat(20), 10), undefined);
});

Deno.test("MAX_FIELD_LENGTH caps sub, name, email and image", () => {
  assert.deepEqual({ ...MAX_FIELD_LENGTH }, { sub: 255, name: 256, email: 254, image: 2048 });
  assert.ok(Object.isFrozen(MAX_FIELD_LENGTH));
});

Deno.test("readSubject refuses an overlong or control-laden subject", () => {
  assert.equal(readSubject("s".repeat(255)), "s".repeat(255));
  assert.equal(readSubject("s".repeat(256)), undefined);
  assert.equal(readSubject("user\n1"), undefined);
});

Deno.test("a provider profile leaves out a field that breaks a rule instead of failing", () => {
  const user = defaultProfile({
    sub: "1",
    name: "Ada\r\nInjected: yes",
    email: "ｂoss@corp.example",
    picture: "javascript:alert(1)",
  });
  assert.deepEqual(user, { sub: "1" });
});

Deno.test("readFlag reads booleans and their strings only", () => {
  assert.equal(readFlag(true), true);
  assert.equal(readFlag("TRUE"), true);
  assert.equal(readFlag("false"), false);
  for (const value of [1, 0, "1", "yes", null, undefined, {}]) {
    assert.equal(readFlag(value), undefined);
  }
});

Deno.test("joinName joins usable parts and skips the rest", () => {
  assert.equal(joinName("Ada", "Lovelace"), "Ada Lovelace");
  assert.equal(joinName("", "Lovelace"), "Lovelace");
  assert.equal(joinName(null, undefined), undefined);
});
