import assert from "node:assert/strict";
import { resolveCookieJars } from "../../src/cookies/jar.ts";
import { serializeCookie } from "../../src/cookies/serialize.ts";
import { parseCookies } from "../../src/cookies/parse.ts";
import {
  chunkedCookieLines,
  clearCookieLines,
  MAX_COOKIE_CHUNKS,
  MAX_SET_COOKIE_BYTES,
  readChunkedCookie,
} from "../../src/cookies/chunks.ts";
import { EPOCH, NOW, setCookieName } from "./_helpers.ts";
import { prng } from "../_prng.ts";

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
  const lines = chunkedCookieLines(spec, "abc", {
    maxAge: 3600,
    requestCookies: new Map(),
    nowMs: NOW,
  });
  assert.deepEqual(lines, [
    "__Host-service-stack.session_token=abc; Path=/; Max-Age=3600; " +
    "Expires=Wed, 01 Jan 2025 13:00:00 GMT; Secure; HttpOnly; SameSite=Lax",
  ]);
});

Deno.test("a 10 KB session value is chunked into lines under 4096 bytes and joins back", () => {
  const spec = jars.https.sessionToken;
  const value = base64urlString(10_000, 1);
  const lines = chunkedCookieLines(spec, value, {
    maxAge: 3600,
    requestCookies: new Map(),
    nowMs: NOW,
  });
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
  const overhead = serializeCookie(
    { name: spec.name, value: "", attributes: { ...spec.attributes, maxAge: 60 } },
    NOW,
  ).length;
  const fits = base64urlString(MAX_SET_COOKIE_BYTES - 1 - overhead, 2);
  assert.equal(
    chunkedCookieLines(spec, fits, { maxAge: 60, requestCookies: new Map(), nowMs: NOW }).length,
    1,
  );
  assert.equal(
    chunkedCookieLines(spec, fits + "x", { maxAge: 60, requestCookies: new Map(), nowMs: NOW })
      .length,
    2,
  );
});

Deno.test("chunked lines fill each chunk up to the limit", () => {
  const spec = jars.https.sessionToken;
  const lines = chunkedCookieLines(spec, base64urlString(20_000, 3), {
    maxAge: 60,
    requestCookies: new Map(),
    nowMs: NOW,
  });
  for (const l of lines.slice(0, -1)) assert.equal(l.length, MAX_SET_COOKIE_BYTES - 1);
});

Deno.test("a value needing more than MAX_COOKIE_CHUNKS chunks is refused", () => {
  const spec = jars.https.sessionToken;
  assert.throws(
    () =>
      chunkedCookieLines(spec, "a".repeat(4096 * (MAX_COOKIE_CHUNKS + 1)), {
        maxAge: 60,
        requestCookies: new Map(),
        nowMs: NOW,
      }),
    RangeError,
  );
});

Deno.test("writing an unchunked value clears chunks left by a larger earlier value", () => {
  const spec = jars.https.sessionToken;
  const request = parseCookies(`${spec.name}.0=a; ${spec.name}.1=b; ${spec.name}.2=c`);
  const lines = chunkedCookieLines(spec, "small", {
    maxAge: 60,
    requestCookies: request,
    nowMs: NOW,
  });
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
  const lines = chunkedCookieLines(spec, base64urlString(6000, 4), {
    maxAge: 60,
    requestCookies: request,
    nowMs: NOW,
  });
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
  assert.deepEqual(
    chunkedCookieLines(spec, "v", { maxAge: 60, requestCookies: request, nowMs: NOW }).length,
    1,
  );
  assert.deepEqual(clearCookieLines(spec, request).map(setCookieName), [spec.name]);
});

Deno.test("readChunkedCookie reads the unchunked cookie when no chunk is present", () => {
  assert.equal(readChunkedCookie("s", parseCookies("s=whole; s.x=1")), "whole");
});

Deno.test("readChunkedCookie gives nothing for an unchunked cookie beside chunks", () => {
  assert.equal(readChunkedCookie("s", parseCookies("s.0=a; s=whole; s.1=b")), undefined);
  assert.equal(readChunkedCookie("s", parseCookies("s=whole; s.0=a")), undefined);
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
