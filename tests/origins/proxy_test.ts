import assert from "node:assert/strict";
import {
  forwardedClientAddress,
  type IgnoredProxyHeaders,
  type ProxyHeaders,
  requestOrigin,
} from "../../src/origins/proxy.ts";

const OWN = "https://app.example.com";
function origin(
  url: string,
  headers: Record<string, string>,
  trust: ProxyHeaders,
  ignored: IgnoredProxyHeaders[] = [],
) {
  const request = new Request(url, { headers });
  return requestOrigin(request, {
    url: new URL(request.url),
    trustProxyHeaders: trust,
    onIgnored: (reason) => ignored.push(reason),
  });
}

// ---- requestOrigin ------------------------------------------------------------

Deno.test("requestOrigin without proxy trust uses the URL only", () => {
  assert.deepEqual(origin("http://localhost:8000/auth/session", {}, false), {
    origin: "http://localhost:8000",
    secure: false,
  });
  assert.deepEqual(origin("https://app.example.com/auth", {}, false), {
    origin: OWN,
    secure: true,
  });
});

Deno.test("requestOrigin ignores every forwarding header when trust is off", () => {
  const headers = {
    forwarded: "proto=https;host=evil.com",
    "x-forwarded-proto": "https",
    "x-forwarded-host": "evil.com",
  };
  assert.deepEqual(origin("http://internal:8080/auth", headers, false), {
    origin: "http://internal:8080",
    secure: false,
  });
});

Deno.test("requestOrigin with proxy trust but no forwarding header uses the URL", () => {
  assert.deepEqual(origin("http://localhost:8000/auth", {}, true), {
    origin: "http://localhost:8000",
    secure: false,
  });
  assert.deepEqual(origin("https://app.example.com/auth", {}, true), { origin: OWN, secure: true });
});

Deno.test('requestOrigin reads X-Forwarded-Proto and X-Forwarded-Host with "x-forwarded"', () => {
  const headers = { "x-forwarded-proto": "https", "x-forwarded-host": "app.example.com" };
  assert.deepEqual(origin("http://internal:8080/auth", headers, "x-forwarded"), {
    origin: OWN,
    secure: true,
  });
});

Deno.test("requestOrigin takes the last value of a comma-separated X-Forwarded list (the proxy's)", () => {
  const headers = { "x-forwarded-proto": "http, https", "x-forwarded-host": "b, a.example.com" };
  assert.deepEqual(origin("http://internal/", headers, "x-forwarded"), {
    origin: "https://a.example.com",
    secure: true,
  });
});

Deno.test("requestOrigin never uses the client-supplied first element of a proxy's list", () => {
  // The client sent "evil.example"; the proxy appended the real host.
  const xfh = { "x-forwarded-host": "evil.example, app.example.com", "x-forwarded-proto": "https" };
  assert.equal(origin("http://internal/", xfh, "x-forwarded").origin, "https://app.example.com");
  const fwd = { forwarded: "host=evil.example;proto=https, host=app.example.com;proto=https" };
  assert.equal(origin("http://internal/", fwd, true).origin, "https://app.example.com");
  assert.equal(origin("http://internal/", fwd, "forwarded").origin, "https://app.example.com");
  const proto = { "x-forwarded-proto": "https, http" };
  assert.deepEqual(origin("http://app.example.com/", proto, true), {
    origin: "http://app.example.com",
    secure: false,
  });
});

Deno.test('requestOrigin with "forwarded" reads the last Forwarded element and ignores X-Forwarded-*', () => {
  const headers = {
    forwarded: 'proto=http;host=b.com, for=192.0.2.60;proto=https;host="app.example.com:8443"',
    "x-forwarded-proto": "http",
    "x-forwarded-host": "evil.com",
  };
  assert.deepEqual(origin("http://internal/", headers, "forwarded"), {
    origin: "https://app.example.com:8443",
    secure: true,
  });
});

Deno.test('requestOrigin with "forwarded" never takes the host from X-Forwarded-Host', () => {
  const headers = { forwarded: "for=1.2.3.4;proto=https", "x-forwarded-host": "evil.com" };
  assert.deepEqual(origin("http://app.example.com/", headers, "forwarded"), {
    origin: OWN,
    secure: true,
  });
  // Nor its protocol from X-Forwarded-Proto when Forwarded has none.
  const proto = { forwarded: "for=1.2.3.4;host=app.example.com", "x-forwarded-proto": "https" };
  assert.deepEqual(origin("http://internal/", proto, "forwarded"), {
    origin: "http://app.example.com",
    secure: false,
  });
});

// ---- attacks on the family the proxy does not set ------------------------------

Deno.test("true: a client's Forwarded next to the proxy's X-Forwarded-* decides nothing, and is reported", () => {
  // The proxy sets X-Forwarded-*; the client added a Forwarded header of its own.
  const headers = {
    forwarded: "proto=https;host=evil.example",
    "x-forwarded-proto": "https",
    "x-forwarded-host": "app.example.com",
    "x-forwarded-for": "203.0.113.7",
  };
  const ignored: IgnoredProxyHeaders[] = [];
  assert.deepEqual(origin("http://internal:8080/", headers, true, ignored), {
    origin: "http://internal:8080",
    secure: false,
  });
  assert.deepEqual(ignored, ["both-families"]);
});

Deno.test("true: a client's X-Forwarded-* next to the proxy's Forwarded decides nothing", () => {
  const headers = {
    forwarded: "proto=https;host=app.example.com",
    "x-forwarded-host": "evil.example",
  };
  const ignored: IgnoredProxyHeaders[] = [];
  assert.equal(origin("http://internal/", headers, true, ignored).origin, "http://internal");
  assert.deepEqual(ignored, ["both-families"]);
  // Any X-Forwarded header counts, X-Forwarded-For included.
  const withFor = { forwarded: "host=evil.example", "x-forwarded-for": "203.0.113.7" };
  assert.equal(origin("http://internal/", withFor, true).origin, "http://internal");
});

Deno.test("true: a proxy that sets only X-Forwarded-Proto never lets a client's X-Forwarded-Host decide", () => {
  const headers = { "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" };
  const ignored: IgnoredProxyHeaders[] = [];
  assert.deepEqual(origin("http://app.example.com/", headers, true, ignored), {
    origin: OWN,
    secure: true,
  });
  assert.deepEqual(ignored, ["x-forwarded-host"]);
  // Neither alone.
  assert.equal(
    origin("http://app.example.com/", { "x-forwarded-host": "evil.example" }, true).origin,
    "http://app.example.com",
  );
});

Deno.test('"x-forwarded-proto": only the protocol is read; X-Forwarded-Host and Forwarded never decide', () => {
  const headers = {
    "x-forwarded-proto": "https",
    "x-forwarded-host": "evil.example",
    forwarded: "proto=http;host=evil.example",
  };
  const ignored: IgnoredProxyHeaders[] = [];
  assert.deepEqual(origin("http://app.example.com/", headers, "x-forwarded-proto", ignored), {
    origin: OWN,
    secure: true,
  });
  assert.deepEqual(ignored, []);
});

Deno.test('"x-forwarded": a client\'s Forwarded header is ignored entirely', () => {
  const headers = {
    forwarded: "proto=https;host=evil.example",
    "x-forwarded-proto": "https",
    "x-forwarded-host": "app.example.com",
  };
  assert.equal(origin("http://internal/", headers, "x-forwarded").origin, OWN);
  // Without the proxy's own headers, the request URL decides, never Forwarded.
  const alone = { forwarded: "proto=https;host=evil.example" };
  assert.equal(origin("http://internal/", alone, "x-forwarded").origin, "http://internal");
});

Deno.test('"forwarded": a client\'s X-Forwarded-* headers are ignored entirely', () => {
  const alone = { "x-forwarded-proto": "https", "x-forwarded-host": "evil.example" };
  assert.deepEqual(origin("http://internal/", alone, "forwarded"), {
    origin: "http://internal",
    secure: false,
  });
  const both = { forwarded: "proto=https;host=app.example.com", ...alone };
  assert.equal(origin("http://internal/", both, "forwarded").origin, OWN);
});

Deno.test("protocol and host never come one from each family, under any setting", () => {
  const headers = { forwarded: "proto=https", "x-forwarded-host": "evil.example" };
  for (const trust of [true, "forwarded", "x-forwarded", "x-forwarded-proto"] as const) {
    const { origin: found } = origin("http://internal/", headers, trust);
    assert.notEqual(found, "https://evil.example", String(trust));
  }
  const reverse = { forwarded: "host=evil.example", "x-forwarded-proto": "https" };
  for (const trust of [true, "forwarded", "x-forwarded", "x-forwarded-proto"] as const) {
    assert.notEqual(origin("http://internal/", reverse, trust).origin, "https://evil.example");
  }
});

Deno.test("requestOrigin handles quoted Forwarded values and case-insensitive names", () => {
  const headers = { forwarded: 'For="[2001:db8:cafe::17]:4711"; Proto="HTTPS"; Host="[::1]:3000"' };
  assert.deepEqual(origin("http://internal/", headers, "forwarded"), {
    origin: "https://[::1]:3000",
    secure: true,
  });
});

Deno.test("requestOrigin drops the default port from a forwarded host", () => {
  const headers = { "x-forwarded-proto": "https", "x-forwarded-host": "app.example.com:443" };
  assert.deepEqual(origin("http://internal/", headers, "x-forwarded"), {
    origin: OWN,
    secure: true,
  });
});

Deno.test("requestOrigin falls back to the URL for an invalid forwarded protocol", () => {
  for (const proto of ["ftp", "javascript", "https:", "", "http s"]) {
    assert.deepEqual(
      origin("http://app.example.com/", { "x-forwarded-proto": proto }, true),
      { origin: "http://app.example.com", secure: false },
      proto,
    );
  }
});

Deno.test("requestOrigin falls back to the URL for an invalid forwarded host", () => {
  const bad = [
    "evil.com/path",
    "evil.com@x",
    "user@evil.com",
    "evil.com:99999",
    "evil.com:0",
    "evil.com:",
    "evil .com",
    "evil.com.",
    "-evil.com",
    "[::1",
    "::1",
    "[zz::1]",
    "999.1.1.1",
    "a_b.com",
    "evil.com\\x",
    "evil.com?x",
    "evil.com#x",
    "%65vil.com",
    "",
  ];
  for (const host of bad) {
    assert.deepEqual(
      origin("https://app.example.com/", { "x-forwarded-host": host }, "x-forwarded"),
      { origin: OWN, secure: true },
      host,
    );
  }
});

Deno.test("requestOrigin falls back to the URL for a malformed Forwarded header", () => {
  const bad = [
    'proto=https;host="evil.com',
    "proto=https;host=evil.com;host=other.com",
    "proto https",
    "proto=https;;=x",
    "host=evil.com/x",
    "proto=ftp;host=evil.com/x",
  ];
  for (const forwarded of bad) {
    const result = origin("http://app.example.com/", { forwarded }, true);
    assert.equal(result.origin, "http://app.example.com", forwarded);
    assert.equal(result.secure, false, forwarded);
  }
});

Deno.test("requestOrigin keeps a valid Forwarded field when the other is invalid", () => {
  const headers = { forwarded: 'proto=https;host="evil.com/path"' };
  assert.deepEqual(origin("http://app.example.com/", headers, true), { origin: OWN, secure: true });
});

Deno.test("requestOrigin returns a frozen value", () => {
  assert.ok(Object.isFrozen(origin("http://a.com/", {}, false)));
  assert.ok(Object.isFrozen(origin("http://a.com/", {}, true)));
  assert.ok(Object.isFrozen(origin("http://a.com/", { "x-forwarded-proto": "https" }, true)));
});

// ---- forwardedClientAddress ------------------------------------------------------

function client(headers: Record<string, string>, trust: ProxyHeaders = true): string | undefined {
  return forwardedClientAddress(new Request("http://internal/", { headers }), {
    trustProxyHeaders: trust,
  });
}

Deno.test("forwardedClientAddress is undefined when proxy headers are not trusted", () => {
  assert.equal(client({ "x-forwarded-for": "203.0.113.7" }, false), undefined);
  assert.equal(client({ forwarded: "for=203.0.113.7" }, false), undefined);
});

Deno.test("forwardedClientAddress reads the last X-Forwarded-For value (the proxy's)", () => {
  assert.equal(client({ "x-forwarded-for": " 10.0.0.1 , 203.0.113.7" }), "203.0.113.7");
  assert.equal(client({ "x-forwarded-for": "2001:DB8::1" }), "2001:db8::1");
});

Deno.test("forwardedClientAddress reads the configured family and strips port and brackets", () => {
  const headers = {
    forwarded: 'for="[2001:db8:cafe::17]:4711";proto=https',
    "x-forwarded-for": "1.1.1.1",
  };
  assert.equal(client(headers, "forwarded"), "2001:db8:cafe::17");
  assert.equal(client(headers, "x-forwarded"), "1.1.1.1");
  // Under true, two families at once give no address.
  assert.equal(client(headers), undefined);
  assert.equal(client({ forwarded: 'for=198.51.100.17, for="192.0.2.43:47011"' }), "192.0.2.43");
});

Deno.test("forwardedClientAddress refuses values that are not IP addresses", () => {
  for (
    const v of [
      "unknown",
      "_hidden",
      "evil.com",
      "999.1.1.1",
      "1.2.3",
      "01.2.3.4",
      "<script>",
      "[::1",
      "",
    ]
  ) {
    assert.equal(client({ "x-forwarded-for": v }), undefined, v);
  }
  assert.equal(client({ forwarded: "for=unknown" }), undefined);
  assert.equal(client({ forwarded: 'for="_gazonk"' }), undefined);
});
