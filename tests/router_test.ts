import assert from "node:assert/strict";
import type { AuthContext } from "../src/config.ts";
import { matchRoute, route } from "../src/router.ts";

const ok = () => Promise.resolve(new Response("ok"));
const TABLE = [
  route("GET", "session", ok),
  route("PATCH", "session", ok),
  route("POST", "signIn/credentials", ok, { enabled: (ctx) => ctx.authorize !== undefined }),
  route("GET", "signIn/:provider", ok),
  route("GET", "callback/:provider", ok),
];

function ctx(basePath = "/auth", authorize = true): AuthContext {
  return { basePath, authorize: authorize ? () => null : undefined } as unknown as AuthContext;
}

function match(pathname: string, method = "GET", context = ctx()) {
  return matchRoute(TABLE, { ctx: context, pathname, method });
}

Deno.test("matchRoute: a literal path matches with the methods it allows", () => {
  const found = match("/auth/session");
  assert.equal(found.kind, "match");
  assert.deepEqual(found.kind === "match" ? found.allow : [], ["GET", "PATCH"]);
});

Deno.test("matchRoute: a parameter is captured decoded", () => {
  const found = match("/auth/signIn/my%20provider");
  assert.ok(found.kind === "match");
  assert.deepEqual(found.params, { provider: "my provider" });
});

Deno.test("matchRoute: a literal route wins over a parameter route for the same path", () => {
  assert.deepEqual(match("/auth/signIn/credentials", "GET"), {
    kind: "method_not_allowed",
    allow: ["POST"],
  });
});

Deno.test("matchRoute: a route the config turns off is absent, not read as a parameter", () => {
  const matched = match("/auth/signIn/credentials", "POST", ctx("/auth", false));
  assert.equal(matched.kind, "not_found");
  // The route that is off comes along, so that the 404 can name the option that turns it on.
  assert.deepEqual(matched.kind === "not_found" && matched.off?.segments, [
    "signIn",
    "credentials",
  ]);
});

Deno.test("matchRoute: extra, doubled or trailing slashes and dot segments never match", () => {
  for (
    const path of [
      "/auth//session",
      "/auth/session/",
      "/auth/./session",
      "/auth/signIn//github",
      "/auth/signIn/github/",
      "/authsession",
      "/auth",
      "/other/session",
      "/auth/signIn/%2Fetc",
      "/auth/signIn/%E0%A4%A",
    ]
  ) {
    assert.equal(match(path).kind, "not_found", path);
  }
});

Deno.test("matchRoute: OPTIONS never matches but reports what the path allows", () => {
  assert.deepEqual(match("/auth/session", "OPTIONS"), {
    kind: "method_not_allowed",
    allow: ["GET", "PATCH"],
  });
});

Deno.test("matchRoute: a root basePath puts routes at the top", () => {
  assert.equal(match("/session", "GET", ctx("")).kind, "match");
  assert.equal(match("/auth/session", "GET", ctx("")).kind, "not_found");
});
