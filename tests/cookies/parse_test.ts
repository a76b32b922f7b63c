import assert from "node:assert/strict";
import { MAX_REQUEST_COOKIES, parseCookies } from "../../src/cookies/parse.ts";
import { prng } from "../_prng.ts";

// ---- parseCookies -----------------------------------------------------------

Deno.test("parseCookies reads pairs, trims whitespace and strips one pair of quotes", () => {
  const map = parseCookies(' a=1 ;b = "two" ;c=; d="x;');
  assert.deepEqual([...map], [["a", "1"], ["b", "two"], ["c", ""], ["d", '"x']]);
});

Deno.test("parseCookies drops a name sent twice: neither copy is used", () => {
  const map = parseCookies("a=1; b=2; a=3");
  assert.equal(map.has("a"), false);
  assert.equal(map.get("b"), "2");
});

Deno.test("parseCookies drops a name sent three times, and a twice-sent empty value too", () => {
  assert.equal(parseCookies("a=1; a=2; a=3").has("a"), false);
  assert.equal(parseCookies("a=; a=x").has("a"), false);
});

Deno.test("parseCookies treats names case-sensitively: A and a are two cookies", () => {
  const map = parseCookies("a=1; A=2");
  assert.equal(map.get("a"), "1");
  assert.equal(map.get("A"), "2");
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

/** The trimming parseCookies does, written the plain way (slice, then trim). */
function plainParse(header: string): Map<string, string> {
  const cookies = new Map<string, string>();
  const repeated = new Set<string>();
  for (const pair of header.split(";").slice(0, 4 * MAX_REQUEST_COOKIES)) {
    const eq = pair.indexOf("=");
    if (eq === -1) continue;
    const name = pair.slice(0, eq).trim();
    if (name === "") continue;
    if (cookies.has(name) || repeated.has(name)) {
      cookies.delete(name);
      repeated.add(name);
      continue;
    }
    if (cookies.size >= MAX_REQUEST_COOKIES) continue;
    const value = pair.slice(eq + 1).trim();
    cookies.set(
      name,
      value.length >= 2 && value.startsWith('"') && value.endsWith('"')
        ? value.slice(1, -1)
        : value,
    );
  }
  return cookies;
}

Deno.test("parseCookies trims exactly what String.prototype.trim trims, for every code unit", () => {
  for (let code = 0; code < 0x10000; code++) {
    const ws = String.fromCharCode(code);
    const header = `${ws}a${ws}=${ws}1${ws}; b=2`;
    assert.deepEqual([...parseCookies(header)], [...plainParse(header)], `U+${code.toString(16)}`);
  }
});

Deno.test("parseCookies agrees with a slice-then-trim reading on random headers", () => {
  const seed = 20261125;
  const random = prng(seed);
  const parts = [" ", "  ", "\t", "\u00a0", "\u3000", "\n", ";", "=", '"', "a", "b", "tok", "=v"];
  for (let i = 0; i < 5_000; i++) {
    let header = "";
    const length = Math.floor(random() * 24);
    for (let j = 0; j < length; j++) header += parts[Math.floor(random() * parts.length)];
    assert.deepEqual(
      [...parseCookies(header)],
      [...plainParse(header)],
      `seed ${seed}, ${JSON.stringify(header)}`,
    );
  }
});
