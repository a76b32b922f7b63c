// The client address a limit counts by: IPv6 per /64, IPv4-mapped as IPv4, and the proxy
// families as DECISIONS "Origins and proxies" names them; an untrusted header never counts.
import assert from "node:assert/strict";
import { addressKey, clientAddress } from "../../src/rate_limit/address.ts";
import { from, fullAuth, request, statuses } from "./_helpers.ts";

Deno.test("addressKey: IPv4 as is, IPv6 per /64, IPv4-mapped as IPv4, brackets and zones dropped", () => {
  const cases: [string, string | undefined][] = [
    ["203.0.113.7", "203.0.113.7"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:0DB8:0001:0002::1", "2001:db8:1:2::/64"],
    ["2001:db8::1", "2001:db8:0:0::/64"],
    ["[2001:db8:1:2::9]", "2001:db8:1:2::/64"],
    ["[2001:db8:1:2::9]:443", "2001:db8:1:2::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["::ffff:cb00:7107", "203.0.113.7"],
    ["0:0:0:0:0:ffff:127.0.0.1", "127.0.0.1"],
    ["1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7:8:9"], // not IPv6: a name, counted as itself
    ["", undefined],
    ["   ", undefined],
    ["a b", undefined],
  ];
  for (const [address, key] of cases) assert.equal(addressKey(address), key, address);
});

Deno.test("IPv6 clients in one /64 share a budget; the next /64 has its own", async () => {
  const auth = fullAuth({ rateLimit: { rules: { "/signUp": { max: 2 } } } });
  const send = (address: string) => auth.handlers.ALL(request("signUp"), from(address));
  assert.equal((await send("2001:db8:1:2::1")).status, 403);
  assert.equal((await send("2001:db8:1:2:ffff:ffff:ffff:ffff")).status, 403);
  assert.equal((await send("2001:db8:1:2:1234::99")).status, 429);
  assert.equal((await send("2001:db8:1:3::1")).status, 403);
});

Deno.test("an IPv4-mapped IPv6 address counts as its IPv4 address, not as one shared /64", async () => {
  const auth = fullAuth({ rateLimit: { rules: { "/signUp": { max: 1 } } } });
  const send = (address: string) => auth.handlers.ALL(request("signUp"), from(address));
  assert.equal((await send("::ffff:198.51.100.1")).status, 403);
  assert.equal((await send("198.51.100.1")).status, 429);
  // Another IPv4 client behind the same dual-stack socket is not held back.
  assert.equal((await send("::ffff:198.51.100.2")).status, 403);
});

Deno.test("without trustedProxyHeaders no forwarding header changes the key: 100 spoofed values are still limited", async () => {
  const auth = fullAuth({ rateLimit: { rules: { "/signUp": { max: 3 } } } });
  let i = 0;
  const found = await statuses(100, () => {
    i++;
    return auth.handlers.ALL(
      request("signUp", {
        headers: {
          "X-Forwarded-For": `10.0.${i >> 8}.${i & 255}`,
          Forwarded: `for=10.1.${i >> 8}.${i & 255}`,
        },
      }),
      from("203.0.113.7"),
    );
  });
  assert.equal(found.filter((status) => status !== 429).length, 3);
});

/** The address the limiter counts by for `headers` under `proxy`, from runtime 127.0.0.1. */
function counted(
  proxy: false | true | "forwarded" | "x-forwarded" | "x-forwarded-proto",
  headers: HeadersInit,
) {
  return clientAddress(new Request("http://localhost/", { headers }), from("127.0.0.1"), proxy);
}

Deno.test('"forwarded": for= of the last Forwarded element; X-Forwarded-For is never read', () => {
  assert.equal(
    counted("forwarded", { Forwarded: "for=198.51.100.9, for=203.0.113.1" }),
    "203.0.113.1",
  );
  assert.equal(
    counted("forwarded", { Forwarded: 'for="[2001:db8:1:2::5]:4711"' }),
    "2001:db8:1:2::/64",
  );
  assert.equal(counted("forwarded", { "X-Forwarded-For": "203.0.113.1" }), "127.0.0.1");
  assert.equal(
    counted("forwarded", { Forwarded: "for=203.0.113.1", "X-Forwarded-For": "198.51.100.9" }),
    "203.0.113.1",
  );
});

Deno.test('"x-forwarded" and "x-forwarded-proto": the last X-Forwarded-For value; Forwarded is never read', () => {
  for (const proxy of ["x-forwarded", "x-forwarded-proto"] as const) {
    assert.equal(counted(proxy, { "X-Forwarded-For": "198.51.100.9, 203.0.113.1" }), "203.0.113.1");
    assert.equal(
      counted(proxy, { "X-Forwarded-For": "198.51.100.9,::ffff:203.0.113.2" }),
      "203.0.113.2",
    );
    assert.equal(counted(proxy, { Forwarded: "for=203.0.113.1" }), "127.0.0.1");
  }
});

Deno.test("true: Forwarded when only it is present, else X-Forwarded-For; the runtime's when both are", () => {
  assert.equal(counted(true, { Forwarded: "for=203.0.113.1" }), "203.0.113.1");
  assert.equal(counted(true, { "X-Forwarded-For": "1.1.1.1, 203.0.113.2" }), "203.0.113.2");
  assert.equal(
    counted(true, { Forwarded: "for=203.0.113.1", "X-Forwarded-For": "203.0.113.2" }),
    "127.0.0.1",
  );
});

Deno.test("false: every forwarding header is ignored", () => {
  assert.equal(
    counted(false, { Forwarded: "for=203.0.113.1", "X-Forwarded-For": "203.0.113.2" }),
    "127.0.0.1",
  );
});

Deno.test("a missing or unusable proxy entry falls back to the runtime's address", () => {
  assert.equal(counted("x-forwarded", {}), "127.0.0.1");
  assert.equal(counted("forwarded", { Forwarded: "for=unknown" }), "127.0.0.1");
  assert.equal(counted("forwarded", { Forwarded: "for=_hidden" }), "127.0.0.1");
  assert.equal(counted("x-forwarded", { "X-Forwarded-For": "not an address" }), "127.0.0.1");
  assert.equal(
    clientAddress(new Request("http://localhost/"), undefined, "x-forwarded"),
    undefined,
  );
});

Deno.test("behind a trusted proxy, clients count apart and a client-sent first element never counts", async () => {
  const auth = fullAuth({
    trustedProxyHeaders: "x-forwarded-proto",
    rateLimit: { rules: { "/signUp": { max: 2 } } },
  });
  const viaProxy = (client: string, spoof: string) =>
    auth.handlers.ALL(
      request("signUp", { headers: { "X-Forwarded-For": `${spoof}, ${client}` } }),
      from("10.0.0.2"), // the proxy
    );
  let i = 0;
  const one = await statuses(20, () => viaProxy("203.0.113.7", `192.0.2.${++i}`));
  assert.equal(one.filter((status) => status !== 429).length, 2);
  assert.equal((await viaProxy("203.0.113.8", "192.0.2.1")).status, 403);
});

Deno.test("baseURL does not change where the address comes from", async () => {
  const auth = fullAuth({
    baseURL: "https://app.example.com",
    trustedProxyHeaders: "forwarded",
    rateLimit: { rules: { "/signUp": { max: 1 } } },
  });
  const send = (client: string) =>
    auth.handlers.ALL(
      new Request("https://app.example.com/auth/signUp", {
        method: "POST",
        headers: { Forwarded: `for=${client}` },
      }),
      from("10.0.0.2"),
    );
  assert.equal((await send("203.0.113.7")).status, 403);
  assert.equal((await send("203.0.113.7")).status, 429);
  assert.equal((await send("203.0.113.8")).status, 403);
});
