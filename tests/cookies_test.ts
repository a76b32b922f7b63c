import assert from "node:assert/strict";
import { prng } from "./_prng.ts";
import {
  clearCookieLines,
  type CookieConfig,
  type CookieSpec,
  MAX_COOKIE_CHUNKS,
  MAX_REQUEST_COOKIES,
  MAX_SET_COOKIE_BYTES,
  parseCookies,
  readChunkedCookie,
  resolveCookieJars,
  serializeCookie,
  sessionCookieLines,
} from "../src/cookies.ts";

const NOW = Date.UTC(2025, 0, 1, 12, 0, 0);
const IN_10_MIN = "Wed, 01 Jan 2025 12:10:00 GMT";
const EPOCH = "Thu, 01 Jan 1970 00:00:00 GMT";

function line(spec: CookieSpec, value = "v"): string {
  return serializeCookie(spec.name, value, spec.attributes, NOW);
}

function setCookieName(setCookie: string): string {
  return setCookie.slice(0, setCookie.indexOf("="));
}

// ---- default jars -----------------------------------------------------------

Deno.test("default HTTP jar uses the standard strategy: no prefix, no Secure", () => {
  const { http } = resolveCookieJars(undefined);
  assert.equal(
    line(http.sessionToken),
    "service-stack.session_token=v; Path=/; HttpOnly; SameSite=Lax",
  );
  assert.equal(
    line(http.csrfToken),
    "service-stack.csrf_token=v; Path=/; HttpOnly; SameSite=Strict",
  );
  assert.equal(
    line(http.state),
    `service-stack.state=v; Path=/; Max-Age=600; Expires=${IN_10_MIN}; HttpOnly; SameSite=Lax`,
  );
});

Deno.test("default HTTPS jar: __Secure- session and flow cookies, __Host- CSRF cookie", () => {
  const { https } = resolveCookieJars(undefined);
  assert.equal(
    line(https.sessionToken),
    "__Secure-service-stack.session_token=v; Path=/; Secure; HttpOnly; SameSite=Lax",
  );
  assert.equal(
    line(https.csrfToken),
    "__Host-service-stack.csrf_token=v; Path=/; Secure; HttpOnly; SameSite=Strict",
  );
  const flow = `Path=/; Max-Age=600; Expires=${IN_10_MIN}; Secure; HttpOnly; SameSite=Lax`;
  assert.equal(line(https.state), `__Secure-service-stack.state=v; ${flow}`);
  assert.equal(line(https.codeVerifier), `__Secure-service-stack.code_verifier=v; ${flow}`);
  assert.equal(line(https.redirectTo), `__Secure-service-stack.redirect_to=v; ${flow}`);
  assert.equal(line(https.redirectURI), `__Secure-service-stack.redirect_uri=v; ${flow}`);
});

Deno.test("the prefix option changes every cookie name", () => {
  const { http, https } = resolveCookieJars({ prefix: "app" });
  assert.deepEqual(
    Object.values(http).map((s) => s.name),
    [
      "app.session_token",
      "app.csrf_token",
      "app.state",
      "app.code_verifier",
      "app.redirect_to",
      "app.redirect_uri",
    ],
  );
  assert.equal(https.sessionToken.name, "__Secure-app.session_token");
  assert.equal(https.csrfToken.name, "__Host-app.csrf_token");
});

Deno.test("resolved jars are deeply frozen", () => {
  const jars = resolveCookieJars(undefined);
  assert.ok(Object.isFrozen(jars));
  assert.ok(Object.isFrozen(jars.http) && Object.isFrozen(jars.https));
  assert.ok(Object.isFrozen(jars.https.sessionToken));
  assert.ok(Object.isFrozen(jars.https.sessionToken.attributes));
  assert.throws(() => {
    (jars.https.sessionToken.attributes as { secure?: boolean }).secure = false;
  }, TypeError);
});

Deno.test("two configs never share state: one prefix does not leak into another jar", () => {
  const a = resolveCookieJars({ prefix: "a" });
  const b = resolveCookieJars({ prefix: "b" });
  assert.equal(a.https.sessionToken.name, "__Secure-a.session_token");
  assert.equal(b.https.sessionToken.name, "__Secure-b.session_token");
  assert.equal(a.http.sessionToken.name, "a.session_token");
});

// ---- overrides --------------------------------------------------------------

Deno.test("an override name replaces the part after the prefix", () => {
  const { http, https } = resolveCookieJars({ overrides: { sessionToken: { name: "sid" } } });
  assert.equal(http.sessionToken.name, "service-stack.sid");
  assert.equal(https.sessionToken.name, "__Secure-service-stack.sid");
});

Deno.test("standard strategy override over HTTPS: no prefix, Secure kept by default", () => {
  const { https } = resolveCookieJars({
    overrides: { sessionToken: { attributes: { strategy: "standard" } } },
  });
  assert.equal(
    line(https.sessionToken),
    "service-stack.session_token=v; Path=/; Secure; HttpOnly; SameSite=Lax",
  );
});

Deno.test("standard strategy with secure false over HTTPS omits Secure", () => {
  const { https } = resolveCookieJars({
    overrides: { state: { attributes: { strategy: "standard", secure: false, maxAge: 60 } } },
  });
  assert.equal(
    line(https.state),
    "service-stack.state=v; Path=/; Max-Age=60; Expires=Wed, 01 Jan 2025 12:01:00 GMT; HttpOnly; SameSite=Lax",
  );
});

Deno.test("host strategy override gives __Host- over HTTPS and nothing over HTTP", () => {
  const { http, https } = resolveCookieJars({
    overrides: { sessionToken: { name: "sid", attributes: { strategy: "host" } } },
  });
  assert.equal(
    line(https.sessionToken),
    "__Host-service-stack.sid=v; Path=/; Secure; HttpOnly; SameSite=Lax",
  );
  assert.equal(line(http.sessionToken), "service-stack.sid=v; Path=/; HttpOnly; SameSite=Lax");
});

Deno.test("secure strategy override on the CSRF cookie allows a Domain", () => {
  const { http, https } = resolveCookieJars({
    overrides: { csrfToken: { attributes: { strategy: "secure", domain: "example.com" } } },
  });
  assert.equal(
    line(https.csrfToken),
    "__Secure-service-stack.csrf_token=v; Path=/; Domain=example.com; Secure; HttpOnly; SameSite=Strict",
  );
  assert.equal(
    line(http.csrfToken),
    "service-stack.csrf_token=v; Path=/; Domain=example.com; HttpOnly; SameSite=Strict",
  );
});

Deno.test("every attribute override serializes in the documented order", () => {
  const { https } = resolveCookieJars({
    overrides: {
      sessionToken: {
        attributes: {
          path: "/app",
          domain: "example.com",
          maxAge: 120,
          httpOnly: false,
          sameSite: "none",
          partitioned: true,
          priority: "high",
        },
      },
    },
  });
  assert.equal(
    line(https.sessionToken),
    "__Secure-service-stack.session_token=v; Path=/app; Domain=example.com; Max-Age=120; " +
      "Expires=Wed, 01 Jan 2025 12:02:00 GMT; Secure; SameSite=None; Partitioned; Priority=High",
  );
});

Deno.test("over HTTP SameSite=None becomes Lax and Partitioned is dropped", () => {
  const { http } = resolveCookieJars({
    overrides: { sessionToken: { attributes: { sameSite: "none", partitioned: true } } },
  });
  assert.equal(
    line(http.sessionToken),
    "service-stack.session_token=v; Path=/; HttpOnly; SameSite=Lax",
  );
});

Deno.test("sameSite true means Strict and false omits the attribute", () => {
  const { http } = resolveCookieJars({
    overrides: {
      sessionToken: { attributes: { sameSite: true } },
      state: { attributes: { sameSite: false } },
    },
  });
  assert.match(line(http.sessionToken), /; SameSite=Strict$/);
  assert.doesNotMatch(line(http.state), /SameSite/);
});

Deno.test("an explicit undefined attribute keeps the default", () => {
  const { https } = resolveCookieJars({
    overrides: { csrfToken: { attributes: { path: undefined, httpOnly: undefined } } },
  });
  assert.equal(
    line(https.csrfToken),
    "__Host-service-stack.csrf_token=v; Path=/; Secure; HttpOnly; SameSite=Strict",
  );
});

Deno.test("a fixed expires date is serialized when no maxAge is set", () => {
  const { http } = resolveCookieJars({
    overrides: { sessionToken: { attributes: { expires: new Date(Date.UTC(2030, 5, 1)) } } },
  });
  assert.equal(
    line(http.sessionToken),
    "service-stack.session_token=v; Path=/; Expires=Sat, 01 Jun 2030 00:00:00 GMT; HttpOnly; SameSite=Lax",
  );
});

// ---- config validation ------------------------------------------------------

function rejects(config: unknown, pattern: RegExp): void {
  assert.throws(() => resolveCookieJars(config as CookieConfig), (e: unknown) => {
    assert.ok(e instanceof TypeError, String(e));
    assert.match(e.message, pattern);
    return true;
  });
}

Deno.test("a prefix that is not a cookie-name token is rejected", () => {
  rejects({ prefix: "" }, /cookies\.prefix/);
  rejects({ prefix: "my app" }, /cookies\.prefix/);
  rejects({ prefix: "a;b" }, /cookies\.prefix/);
  rejects({ prefix: "a=b" }, /cookies\.prefix/);
  rejects({ prefix: "é" }, /cookies\.prefix/);
  rejects({ prefix: 5 }, /cookies\.prefix/);
});

Deno.test("a prefix or name carrying __Secure- or __Host- is rejected", () => {
  rejects({ prefix: "__Secure-app" }, /added by the strategy/);
  rejects({ prefix: "__host-app" }, /added by the strategy/);
  rejects({ overrides: { state: { name: "__Host-x" } } }, /added by the strategy/);
});

Deno.test("an override name that is not a token is rejected", () => {
  rejects({ overrides: { sessionToken: { name: "a b" } } }, /overrides\.sessionToken\.name/);
  rejects({ overrides: { sessionToken: { name: "" } } }, /overrides\.sessionToken\.name/);
  rejects({ overrides: { sessionToken: { name: "x,y" } } }, /overrides\.sessionToken\.name/);
});

Deno.test("an unknown cookie key or attribute is rejected", () => {
  rejects({ overrides: { session: { name: "x" } } }, /Unknown cookie key "session"/);
  rejects({ overrides: { state: { attributes: { maxage: 5 } } } }, /Unknown attribute "maxage"/);
});

Deno.test("host strategy rejects a Domain or a Path other than /", () => {
  rejects(
    { overrides: { csrfToken: { attributes: { domain: "example.com" } } } },
    /forbids Domain/,
  );
  rejects(
    { overrides: { sessionToken: { attributes: { strategy: "host", path: "/app" } } } },
    /requires Path=\//,
  );
});

Deno.test("secure false with the secure or host strategy is rejected", () => {
  rejects({ overrides: { sessionToken: { attributes: { secure: false } } } }, /always sets Secure/);
  rejects({ overrides: { csrfToken: { attributes: { secure: false } } } }, /always sets Secure/);
});

Deno.test("invalid attribute values are rejected", () => {
  rejects({ overrides: { state: { attributes: { strategy: "strict" } } } }, /strategy/);
  rejects({ overrides: { state: { attributes: { maxAge: -1 } } } }, /maxAge/);
  rejects({ overrides: { state: { attributes: { maxAge: 1.5 } } } }, /maxAge/);
  rejects({ overrides: { state: { attributes: { maxAge: Infinity } } } }, /maxAge/);
  rejects({ overrides: { state: { attributes: { expires: new Date(NaN) } } } }, /expires/);
  rejects({ overrides: { state: { attributes: { domain: "a;b" } } } }, /Domain/);
  rejects({ overrides: { state: { attributes: { domain: "exa mple.com" } } } }, /Domain/);
  rejects({ overrides: { state: { attributes: { path: "app" } } } }, /Path/);
  rejects({ overrides: { state: { attributes: { path: "/a;Domain=evil" } } } }, /Path/);
  rejects({ overrides: { state: { attributes: { path: "/a\nb" } } } }, /Path/);
  rejects({ overrides: { state: { attributes: { sameSite: "loose" } } } }, /SameSite/);
  rejects({ overrides: { state: { attributes: { priority: "urgent" } } } }, /Priority/);
  rejects({ overrides: { state: { attributes: { httpOnly: "yes" } } } }, /httpOnly/);
});

Deno.test("overrides that make two cookies share a name are rejected", () => {
  rejects({ overrides: { state: { name: "csrf_token" } } }, /collide/);
  rejects(
    {
      overrides: {
        state: { name: "x", attributes: { strategy: "host" } },
        codeVerifier: { name: "x" },
      },
    },
    /collide/,
  );
});

Deno.test("an override named like another cookie's chunk is rejected", () => {
  rejects({ overrides: { state: { name: "session_token.0" } } }, /collide/);
});

Deno.test("non-object config parts are rejected", () => {
  rejects("service-stack", /cookies option/);
  rejects({ overrides: [] }, /cookies\.overrides/);
  rejects({ overrides: { state: "x" } }, /cookies\.overrides\.state/);
  rejects({ overrides: { state: { attributes: 1 } } }, /attributes/);
});

// ---- serializeCookie --------------------------------------------------------

Deno.test("serializeCookie computes Expires from now and maxAge", () => {
  assert.equal(
    serializeCookie("a", "b", { maxAge: 86400 }, NOW),
    "a=b; Max-Age=86400; Expires=Thu, 02 Jan 2025 12:00:00 GMT",
  );
});

Deno.test("serializeCookie with maxAge 0 or less expires at the epoch", () => {
  assert.equal(serializeCookie("a", "", { maxAge: 0 }, NOW), `a=; Max-Age=0; Expires=${EPOCH}`);
  assert.equal(serializeCookie("a", "", { maxAge: -5 }, NOW), `a=; Max-Age=0; Expires=${EPOCH}`);
});

Deno.test("serializeCookie prefers maxAge over a fixed expires", () => {
  assert.equal(
    serializeCookie("a", "b", { maxAge: 60, expires: new Date(0) }, NOW),
    "a=b; Max-Age=60; Expires=Wed, 01 Jan 2025 12:01:00 GMT",
  );
});

Deno.test("serializeCookie accepts base64url and dot values", () => {
  const value = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc-_DEF";
  assert.equal(serializeCookie("t", value, {}, NOW), `t=${value}`);
});

Deno.test("serializeCookie rejects values that are not cookie octets", () => {
  for (const bad of ["a b", "a;b", "a,b", 'a"b', "a\\b", "a\nb", "é", "a\x7fb"]) {
    assert.throws(() => serializeCookie("t", bad, {}, NOW), TypeError, JSON.stringify(bad));
  }
});

Deno.test("serializeCookie rejects names that are not tokens", () => {
  for (const bad of ["", "a b", "a=b", "a;b", "a\tb", "(x)"]) {
    assert.throws(() => serializeCookie(bad, "v", {}, NOW), TypeError, JSON.stringify(bad));
  }
});

Deno.test("serializeCookie rejects attribute injection through path or domain", () => {
  assert.throws(() => serializeCookie("t", "v", { path: "/; Domain=evil.com" }, NOW), TypeError);
  assert.throws(() => serializeCookie("t", "v", { domain: "a.com; Secure" }, NOW), TypeError);
});

Deno.test("serializeCookie rejects a non-finite maxAge or an out-of-range expiry", () => {
  assert.throws(() => serializeCookie("t", "v", { maxAge: NaN }, NOW), TypeError);
  assert.throws(() => serializeCookie("t", "v", { maxAge: 1e15 }, NOW), TypeError);
});

// ---- parseCookies -----------------------------------------------------------

Deno.test("parseCookies reads pairs, trims whitespace and strips one pair of quotes", () => {
  const map = parseCookies(' a=1 ;b = "two" ;c=; d="x;');
  assert.deepEqual([...map], [["a", "1"], ["b", "two"], ["c", ""], ["d", '"x']]);
});

Deno.test("parseCookies keeps the first occurrence of a name", () => {
  assert.equal(parseCookies("a=1; a=2").get("a"), "1");
});

Deno.test("parseCookies skips pairs without = and empty names", () => {
  assert.deepEqual([...parseCookies(";;x; =v; =; y=1;")], [["y", "1"]]);
});

Deno.test("parseCookies finds the pairs after many segments without =", () => {
  const tail = "y".repeat(10_000);
  const map = parseCookies(`${"x; ".repeat(700)}${tail}=1; z; w=2`);
  assert.deepEqual([...map], [[tail, "1"], ["w", "2"]]);
});

Deno.test("parseCookies keeps values as sent, including bad percent-encoding", () => {
  const map = parseCookies("a=%E0%A4%A; b=%; c=a=b=c");
  assert.equal(map.get("a"), "%E0%A4%A");
  assert.equal(map.get("b"), "%");
  assert.equal(map.get("c"), "a=b=c");
});

Deno.test("parseCookies returns an empty map for null or empty headers", () => {
  assert.equal(parseCookies(null).size, 0);
  assert.equal(parseCookies("").size, 0);
});

Deno.test("parseCookies keeps at most MAX_REQUEST_COOKIES cookies", () => {
  const header = Array.from({ length: 1000 }, (_, i) => `c${i}=${i}`).join("; ");
  const map = parseCookies(header);
  assert.equal(map.size, MAX_REQUEST_COOKIES);
  assert.equal(map.get("c0"), "0");
  assert.equal(map.has(`c${MAX_REQUEST_COOKIES}`), false);
});

Deno.test("parseCookies bounds the segments scanned in a header of empty pairs", () => {
  const map = parseCookies(";".repeat(100_000) + "late=1");
  assert.equal(map.has("late"), false);
});

Deno.test("parseCookies never throws on a few thousand random headers", () => {
  const random = prng(0x5eed);
  const alphabet = 'ab=; ",%\\\t\n\r\0\x7f\u00e9\u{1F600}\ud800.-_';
  const chars = [...alphabet];
  for (let n = 0; n < 5000; n++) {
    let header = "";
    const length = Math.floor(random() * 80);
    for (let i = 0; i < length; i++) header += chars[Math.floor(random() * chars.length)];
    const map = parseCookies(header);
    for (const [name, value] of map) {
      assert.equal(typeof name, "string");
      assert.notEqual(name, "");
      assert.equal(typeof value, "string");
      assert.ok(!name.includes(";") && !value.includes(";"));
    }
  }
});

// ---- chunking ---------------------------------------------------------------

const jars = resolveCookieJars(undefined);

function base64urlString(length: number, seed: number): string {
  const random = prng(seed);
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.";
  let out = "";
  for (let i = 0; i < length; i++) out += alphabet[Math.floor(random() * alphabet.length)];
  return out;
}

function browserJar(lines: string[]): Map<string, string> {
  const map = new Map<string, string>();
  for (const l of lines) {
    const pair = l.slice(0, l.indexOf(";"));
    const eq = pair.indexOf("=");
    if (/Max-Age=0(;|$)/.test(l)) map.delete(pair.slice(0, eq));
    else map.set(pair.slice(0, eq), pair.slice(eq + 1));
  }
  return map;
}

Deno.test("a small session value is one Set-Cookie line", () => {
  const spec = jars.https.sessionToken;
  const lines = sessionCookieLines(spec, "abc", 3600, new Map(), NOW);
  assert.deepEqual(lines, [
    "__Secure-service-stack.session_token=abc; Path=/; Max-Age=3600; " +
    "Expires=Wed, 01 Jan 2025 13:00:00 GMT; Secure; HttpOnly; SameSite=Lax",
  ]);
});

Deno.test("a 10 KB session value is chunked into lines under 4096 bytes and joins back", () => {
  const spec = jars.https.sessionToken;
  const value = base64urlString(10_000, 1);
  const lines = sessionCookieLines(spec, value, 3600, new Map(), NOW);
  assert.equal(lines.length, 3);
  assert.deepEqual(lines.map(setCookieName), [0, 1, 2].map((i) => `${spec.name}.${i}`));
  for (const l of lines) {
    assert.ok(new TextEncoder().encode(l).length < MAX_SET_COOKIE_BYTES, `${l.length}`);
    assert.match(l, /; Path=\/; Max-Age=3600; Expires=.*; Secure; HttpOnly; SameSite=Lax$/);
  }
  assert.equal(readChunkedCookie(spec.name, browserJar(lines)), value);
});

Deno.test("a value whose single line would be exactly 4096 bytes is chunked", () => {
  const spec = jars.http.sessionToken;
  const overhead = serializeCookie(spec.name, "", { ...spec.attributes, maxAge: 60 }, NOW).length;
  const fits = base64urlString(MAX_SET_COOKIE_BYTES - 1 - overhead, 2);
  assert.equal(sessionCookieLines(spec, fits, 60, new Map(), NOW).length, 1);
  assert.equal(sessionCookieLines(spec, fits + "x", 60, new Map(), NOW).length, 2);
});

Deno.test("chunked lines fill each chunk up to the limit", () => {
  const spec = jars.https.sessionToken;
  const lines = sessionCookieLines(spec, base64urlString(20_000, 3), 60, new Map(), NOW);
  for (const l of lines.slice(0, -1)) assert.equal(l.length, MAX_SET_COOKIE_BYTES - 1);
});

Deno.test("a value needing more than MAX_COOKIE_CHUNKS chunks is refused", () => {
  const spec = jars.https.sessionToken;
  assert.throws(
    () => sessionCookieLines(spec, "a".repeat(4096 * (MAX_COOKIE_CHUNKS + 1)), 60, new Map(), NOW),
    RangeError,
  );
});

Deno.test("writing an unchunked value clears chunks left by a larger earlier value", () => {
  const spec = jars.https.sessionToken;
  const request = parseCookies(`${spec.name}.0=a; ${spec.name}.1=b; ${spec.name}.2=c`);
  const lines = sessionCookieLines(spec, "small", 60, request, NOW);
  assert.deepEqual(lines.map(setCookieName), [
    spec.name,
    `${spec.name}.0`,
    `${spec.name}.1`,
    `${spec.name}.2`,
  ]);
  for (const l of lines.slice(1)) {
    assert.equal(
      l.slice(l.indexOf("=")),
      `=; Path=/; Max-Age=0; Expires=${EPOCH}; Secure; HttpOnly; SameSite=Lax`,
    );
  }
  const after = browserJar(lines);
  for (const [k, v] of request) if (!after.has(k)) after.set(k, v);
  for (const l of lines) if (/Max-Age=0;/.test(l)) after.delete(setCookieName(l));
  assert.equal(readChunkedCookie(spec.name, after), "small");
});

Deno.test("writing a chunked value clears the unchunked cookie and surplus chunks", () => {
  const spec = jars.https.sessionToken;
  const request = parseCookies(
    `${spec.name}=old; ${spec.name}.0=a; ${spec.name}.1=b; ${spec.name}.2=c; ${spec.name}.3=d`,
  );
  const lines = sessionCookieLines(spec, base64urlString(6000, 4), 60, request, NOW);
  const cleared = lines.filter((l) => l.includes("Max-Age=0;")).map(setCookieName);
  assert.deepEqual(cleared, [spec.name, `${spec.name}.2`, `${spec.name}.3`]);
  assert.deepEqual(
    lines.filter((l) => !l.includes("Max-Age=0;")).map(setCookieName),
    [`${spec.name}.0`, `${spec.name}.1`],
  );
});

Deno.test("stale-chunk clearing ignores cookies that only look like chunks", () => {
  const spec = jars.http.sessionToken;
  const request = parseCookies(
    `${spec.name}.evil=1; ${spec.name}x=1; ${spec.name}.01=1; ${spec.name}.-1=1; ${spec.name}.=1`,
  );
  assert.deepEqual(sessionCookieLines(spec, "v", 60, request, NOW).length, 1);
  assert.deepEqual(clearCookieLines(spec, request).map(setCookieName), [spec.name]);
});

Deno.test("readChunkedCookie prefers the unchunked cookie", () => {
  assert.equal(readChunkedCookie("s", parseCookies("s.0=a; s=whole; s.1=b")), "whole");
});

Deno.test("readChunkedCookie joins contiguous chunks in index order", () => {
  assert.equal(readChunkedCookie("s", parseCookies("s.2=c; s.0=a; s.1=b")), "abc");
});

Deno.test("readChunkedCookie stops at the first missing chunk", () => {
  assert.equal(readChunkedCookie("s", parseCookies("s.0=a; s.2=c")), "a");
  assert.equal(readChunkedCookie("s", parseCookies("s.1=b; s.2=c")), undefined);
});

Deno.test("readChunkedCookie never joins loosely named cookies", () => {
  const cookies = parseCookies("s.evil=x; sx=y; s.00=z; s.0x=w; s.+0=v; s.=u; s_0=t");
  assert.equal(readChunkedCookie("s", cookies), undefined);
  assert.equal(readChunkedCookie("s", parseCookies("s.0=a; s.1x=evil; s.01=evil")), "a");
});

Deno.test("readChunkedCookie refuses more than MAX_COOKIE_CHUNKS chunks", () => {
  const header = Array.from({ length: MAX_COOKIE_CHUNKS + 1 }, (_, i) => `s.${i}=a`).join("; ");
  assert.equal(readChunkedCookie("s", parseCookies(header)), undefined);
  const max = Array.from({ length: MAX_COOKIE_CHUNKS }, (_, i) => `s.${i}=a`).join("; ");
  assert.equal(readChunkedCookie("s", parseCookies(max)), "a".repeat(MAX_COOKIE_CHUNKS));
});

Deno.test("readChunkedCookie returns undefined when nothing is present or the value is empty", () => {
  assert.equal(readChunkedCookie("s", new Map()), undefined);
  assert.equal(readChunkedCookie("s", parseCookies("s=")), undefined);
});

Deno.test("clearCookieLines clears the cookie and every chunk present, with matching attributes", () => {
  const spec = jars.https.csrfToken;
  const lines = clearCookieLines(spec, parseCookies(`${spec.name}.1=b; other=1; ${spec.name}.0=a`));
  assert.deepEqual(lines, [
    `${spec.name}=; Path=/; Max-Age=0; Expires=${EPOCH}; Secure; HttpOnly; SameSite=Strict`,
    `${spec.name}.0=; Path=/; Max-Age=0; Expires=${EPOCH}; Secure; HttpOnly; SameSite=Strict`,
    `${spec.name}.1=; Path=/; Max-Age=0; Expires=${EPOCH}; Secure; HttpOnly; SameSite=Strict`,
  ]);
});

Deno.test("clearing a flow cookie ignores its configured maxAge", () => {
  const [l] = clearCookieLines(jars.http.state, new Map());
  assert.equal(
    l,
    `service-stack.state=; Path=/; Max-Age=0; Expires=${EPOCH}; HttpOnly; SameSite=Lax`,
  );
});
