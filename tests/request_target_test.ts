import assert, { deepEqual as assertEquals } from "node:assert/strict";
import { requestTarget } from "../src/request_target.ts";

function viaURL(href: string) {
  try {
    const { origin, protocol, host, pathname } = new URL(href);
    return { origin, protocol, host, pathname };
  } catch {
    return null;
  }
}

Deno.test("request target: a plain request URL is read as URL reads it", () => {
  for (
    const href of [
      "http://localhost:8000/auth/session",
      "https://app.example.com/auth/signIn/github?redirectTo=%2Fdash&x=1",
      "http://127.0.0.1:18091/auth/callback/mock?code=abc&state=x-y_z.~",
      "https://a-b.c9.example/auth/",
      "http://h/",
    ]
  ) {
    assertEquals(requestTarget(href), viaURL(href), href);
  }
});

Deno.test("request target: what the URL parser rewrites is read by the URL parser", () => {
  const cases: [string, Partial<NonNullable<ReturnType<typeof viaURL>>>][] = [
    ["http://LOCALHOST:8000/auth/session", { host: "localhost:8000" }],
    ["http://localhost:80/auth/session", { origin: "http://localhost" }],
    ["https://localhost:443/auth/session", { origin: "https://localhost" }],
    ["http://localhost/auth/../auth/session", { pathname: "/auth/session" }],
    ["http://localhost/auth/./session", { pathname: "/auth/session" }],
    ["http://localhost/auth/%2e%2e/x", { pathname: "/x" }],
    ["http://localhost/auth\\session", { pathname: "/auth/session" }],
    ["http://0x7f.1/auth/session", { host: "127.0.0.1" }],
    ["http://2130706433/auth/session", { host: "127.0.0.1" }],
    ["http://127.1/auth/session", { host: "127.0.0.1" }],
    ["http://0177.0.0.1/auth/session", { host: "127.0.0.1" }],
    ["http://localhost:0080/auth/session", { origin: "http://localhost" }],
    ["http://localhost/a b", { pathname: "/a%20b" }],
  ];
  for (const [href, expected] of cases) {
    const target = requestTarget(href);
    assertEquals(target, viaURL(href), href);
    for (const [key, value] of Object.entries(expected)) {
      assertEquals(target?.[key as keyof typeof target], value, href);
    }
  }
});

Deno.test("request target: no absolute URL is null, as new URL() would throw", () => {
  for (
    const href of ["", "/auth/session", "not a url", "http://", "http://a:99999/x", "http://[::1/x"]
  ) {
    assertEquals(requestTarget(href), null, href);
  }
});

Deno.test("request target: equals new URL() on 20,000 generated URLs with tricky parts", () => {
  const schemes = ["http://", "https://", "HTTP://", "ftp://", "http:/"];
  const hosts = [
    "localhost",
    "LocalHost",
    "a.b",
    "a..b",
    "-a.b",
    "a-.b",
    "xn--nxasmq6b.com",
    "xn--zz",
    "127.0.0.1",
    "127.0.0.01",
    "256.0.0.1",
    "1.2.3",
    "0x10.0.0.1",
    "1.2.3.4.5",
    "a.1",
    "a.0x1",
    "[::1]",
    "exa mple.com",
    "ex%41mple.com",
    "é.com",
    "a_b.com",
    "localhost.",
  ];
  const ports = ["", ":80", ":443", ":8080", ":0", ":65535", ":65536", ":08", ":1a"];
  const paths = [
    "/",
    "/auth/session",
    "/auth/./x",
    "/auth/../x",
    "/.well-known/x",
    "/a//b",
    "/a%2fb",
    "/a%2E",
    "/~user",
    "/a b",
    "/a'b",
    '/a"b',
    "/a^b",
    "/a`b",
    "/a{b}",
    "/a|b",
    "/ä",
    "/a\\b",
    "/a\tb",
    "",
  ];
  const queries = [
    "",
    "?",
    "?a=1",
    "?a=%zz",
    "?a=b c",
    "?a='",
    '?a="',
    "?a=<>",
    "?a=é",
    "#f",
    "?a#f",
  ];
  let seed = 42;
  const pick = <T>(list: T[]): T => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return list[seed % list.length];
  };
  let fast = 0;
  for (let i = 0; i < 20_000; i++) {
    const href = pick(schemes) + pick(hosts) + pick(ports) + pick(paths) + pick(queries);
    const expected = viaURL(href);
    assertEquals(requestTarget(href), expected, href);
    if (expected !== null && href.startsWith("http") && href === new URL(href).href) fast++;
  }
  assert(fast > 500, "the generator produced enough canonical URLs to exercise the fast reading");
});

Deno.test("request target: a repeated URL reads the same, frozen, however URLs alternate", () => {
  const hrefs = [
    "http://localhost:8000/auth/session",
    "http://localhost:8000/auth/session",
    "http://localhost:8000/auth/session?x=1",
    "http://LOCALHOST:8000/auth/session",
    "http://localhost:8000/auth/./session",
    "not a url",
    "http://localhost:8000/auth/session",
    "https://localhost:8000/auth/session",
    "https://localhost:8000/auth/session",
    "http://localhost:8000/auth/csrf",
  ];
  for (let round = 0; round < 3; round++) {
    for (const href of hrefs) {
      const target = requestTarget(href);
      assertEquals(target, viaURL(href), href);
      if (target !== null) assert.ok(Object.isFrozen(target), href);
    }
  }
});
