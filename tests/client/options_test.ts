import assert from "node:assert/strict";
import { createAuthClient } from "../../client.ts";
import type { AuthClientOptions } from "../../client.ts";
import { resolveClientOptions } from "../../src/client/options.ts";

function refuses(options: unknown, pattern: RegExp): void {
  assert.throws(
    () => createAuthClient(options as AuthClientOptions),
    (e: unknown) => e instanceof TypeError && pattern.test(e.message),
    JSON.stringify(options),
  );
}

Deno.test("defaults are basePath /auth, cache no-store, credentials include, mode cors", () => {
  const resolved = resolveClientOptions();
  assert.equal(resolved.prefix, "/auth");
  assert.equal(resolved.cache, "no-store");
  assert.equal(resolved.credentials, "include");
  assert.equal(resolved.mode, "cors");
  assert.equal(resolved.fetch, undefined);
  assert.equal(resolved.headers, undefined);
});

Deno.test("resolved options are frozen", () => {
  assert.equal(Object.isFrozen(resolveClientOptions({})), true);
});

Deno.test("baseURL is reduced to its origin", () => {
  assert.equal(
    resolveClientOptions({ baseURL: "https://Auth.Example.com/" }).prefix,
    "https://auth.example.com/auth",
  );
  assert.equal(
    resolveClientOptions({ baseURL: "http://localhost:8000" }).prefix,
    "http://localhost:8000/auth",
  );
});

Deno.test("a baseURL that is not an http(s) origin is refused", () => {
  for (
    const baseURL of [
      "auth.example.com",
      "ftp://auth.example.com",
      "javascript:alert(1)",
      "https://auth.example.com/api",
      "https://user:pw@auth.example.com",
      "https://auth.example.com?x=1",
      "https://auth.example.com/?",
      "https://auth.example.com#top",
      "http://[",
      "",
      42,
    ]
  ) {
    refuses({ baseURL }, /^Invalid baseURL option .*: expected an http\(s\) origin/);
  }
});

Deno.test("basePath keeps a single leading slash and drops a trailing one", () => {
  assert.equal(resolveClientOptions({ basePath: "/api/auth/" }).prefix, "/api/auth");
  assert.equal(resolveClientOptions({ basePath: "/" }).prefix, "");
  assert.equal(resolveClientOptions({ basePath: "/a-b_c.d~e/%7E" }).prefix, "/a-b_c.d~e/%7E");
});

Deno.test("a basePath that could leave the origin or carry a query is refused", () => {
  for (
    const basePath of [
      "auth",
      "",
      "//evil.test",
      "/\\evil.test",
      "/a//b",
      "/a?x=1",
      "/a#b",
      "/a b",
      "/a\nb",
      1,
    ]
  ) {
    refuses(
      { basePath },
      /^Invalid basePath option .*: expected a path starting with a single "\/"/,
    );
  }
});

Deno.test("an unknown cache, credentials or mode value is refused", () => {
  refuses(
    { cache: "sometimes" },
    /^Invalid cache option "sometimes": expected one of default, no-store/,
  );
  refuses({ credentials: "always" }, /^Invalid credentials option "always": expected one of omit/);
  refuses({ mode: "navigate" }, /^Invalid mode option "navigate": expected one of cors/);
});

Deno.test("every valid cache, credentials and mode value is accepted", () => {
  for (
    const cache of [
      "default",
      "no-store",
      "reload",
      "no-cache",
      "force-cache",
      "only-if-cached",
    ] as const
  ) {
    assert.equal(resolveClientOptions({ cache }).cache, cache);
  }
  for (const credentials of ["omit", "same-origin", "include"] as const) {
    assert.equal(resolveClientOptions({ credentials }).credentials, credentials);
  }
  for (const mode of ["cors", "no-cors", "same-origin"] as const) {
    assert.equal(resolveClientOptions({ mode }).mode, mode);
  }
});

Deno.test("a fetch option that is not a function is refused", () => {
  refuses({ fetch: "fetch" }, /^Invalid fetch option: expected a fetch-compatible function\.$/);
});

Deno.test("a headers option that is neither an object nor a function is refused", () => {
  refuses({ headers: "Authorization: x" }, /^Invalid headers option/);
  refuses({ headers: null }, /^Invalid headers option/);
});

Deno.test("options that are not an object are refused", () => {
  refuses("https://auth.example.com", /^Invalid createAuthClient options/);
  refuses(null, /^Invalid createAuthClient options/);
});
