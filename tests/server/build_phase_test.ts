/**
 * `next build` imports every route module to collect page data, without the
 * runtime secrets: `createAuth` must not throw then (`NEXT_PHASE` is
 * `phase-production-build`), yet every other process, `next start` among
 * them, must still fail at once without a secret. Next.js itself is not
 * installed: the phase is simulated through `NEXT_PHASE`, in `env` and in a
 * real process environment.
 *
 * @module
 */

import assert from "node:assert/strict";
import { createAuth } from "../../mod.ts";
import { signInAs } from "../../testing.ts";
import { REPO_ROOT } from "../support/server.ts";

const BUILD = { NEXT_PHASE: "phase-production-build" };
const SECRET = "build-phase-test-secret-0123456789-abcdef";
const NO_SECRET = /no secret was found/;
const NO_CLIENT_ID = /"github" has no client id/;

Deno.test("next build: createAuth without a secret or provider credentials does not throw", () => {
  const auth = createAuth({ oauth: ["github"], env: { ...BUILD } });
  // What a route module does at import: `export const { GET, POST, PATCH } = auth.handlers`.
  const { GET, POST, PATCH, ALL } = auth.handlers;
  for (const handler of [GET, POST, PATCH, ALL]) assert.equal(typeof handler, "function");
});

Deno.test("next build: the deferred instance has the methods of a real one", () => {
  const real = createAuth({ oauth: [], secret: SECRET, env: {} });
  const deferred = createAuth({ oauth: ["github"], env: { ...BUILD } });
  for (const part of ["handlers", "api", "jose"] as const) {
    assert.deepEqual(Object.keys(deferred[part]).sort(), Object.keys(real[part]).sort(), part);
    for (const method of Object.values(deferred[part])) assert.equal(typeof method, "function");
  }
});

Deno.test("next build: using the instance without a secret throws the config error", async () => {
  const auth = createAuth({ oauth: ["github"], env: { ...BUILD } });
  const request = new Request("http://localhost/auth/session");
  await assert.rejects(() => auth.handlers.GET(request), NO_SECRET);
  await assert.rejects(() => auth.handlers.ALL(request), NO_SECRET);
  await assert.rejects(() => auth.api.getSession(request), NO_SECRET);
  await assert.rejects(() => auth.jose.encodeJWT({ sub: "1" }), NO_SECRET);
  await assert.rejects(() => signInAs(auth, { sub: "1" }), NO_SECRET);
});

Deno.test("next build: with a secret but no client id, use names the missing credential", async () => {
  const auth = createAuth({ oauth: ["github"], env: { ...BUILD, AUTH_SECRET: SECRET } });
  await assert.rejects(
    () => auth.handlers.GET(new Request("http://localhost/auth/session")),
    NO_CLIENT_ID,
  );
});

Deno.test("next build: the instance builds itself on first use once the environment has it", async () => {
  const env: Record<string, string> = { ...BUILD };
  const auth = createAuth({ oauth: ["github"], env });
  Object.assign(env, {
    AUTH_SECRET: SECRET,
    GITHUB_CLIENT_ID: "id",
    GITHUB_CLIENT_SECRET: "secret",
  });
  const response = await auth.handlers.GET(new Request("http://localhost/auth/session"));
  assert.equal(response.status, 200);
  assert.equal(await response.text(), "null");
  const cookie = await signInAs(auth, { sub: "user-1", name: "Ada" });
  const session = await auth.api.getSession(
    new Request("http://localhost/", { headers: { cookie } }),
  );
  assert.equal(session?.user.name, "Ada");
});

Deno.test("next build: a configuration that works is a real instance at once", async () => {
  const auth = createAuth({ oauth: [], secret: SECRET, env: { ...BUILD } });
  const cookie = await signInAs(auth, { sub: "user-1" });
  assert.match(cookie, /session_token=/);
});

Deno.test("outside next build a missing secret or client id still throws at once", () => {
  for (
    const phase of [undefined, "", "phase-production-server", "phase-development-server", "build"]
  ) {
    const env = phase === undefined ? {} : { NEXT_PHASE: phase };
    assert.throws(() => createAuth({ oauth: ["github"], env }), NO_SECRET, String(phase));
    assert.throws(
      () => createAuth({ oauth: ["github"], env: { ...env, AUTH_SECRET: SECRET } }),
      NO_CLIENT_ID,
      String(phase),
    );
  }
});

Deno.test("next build: errors other than configuration errors are not deferred", () => {
  const config = {
    get oauth(): string[] {
      throw new RangeError("boom");
    },
    env: { ...BUILD, AUTH_SECRET: SECRET },
  };
  assert.throws(() => createAuth(config as never), RangeError);
});

/** Runs a module that creates an instance from the process environment, as a route module does. */
async function importRouteModule(env: Record<string, string>): Promise<{
  code: number;
  stderr: string;
}> {
  const script = `import { createAuth } from "${REPO_ROOT}/mod.ts";\n` +
    `export const { GET, POST } = createAuth({ oauth: ["github"] }).handlers;\n`;
  const { code, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["eval", "--no-check", script],
    // Only what Deno needs: no secret from the developer's shell.
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "",
      HOME: Deno.env.get("HOME") ?? "",
      ...(Deno.env.get("DENO_DIR") ? { DENO_DIR: Deno.env.get("DENO_DIR")! } : {}),
      NO_COLOR: "1",
      DENO_NO_UPDATE_CHECK: "1",
      ...env,
    },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code, stderr: new TextDecoder().decode(stderr) };
}

Deno.test("a process in next build's phase imports the route module without secrets", async () => {
  const build = await importRouteModule(BUILD);
  assert.equal(build.code, 0, build.stderr);
});

Deno.test("a process in next start's phase without secrets fails at once with the config error", async () => {
  const start = await importRouteModule({ NEXT_PHASE: "phase-production-server" });
  assert.equal(start.code, 1);
  assert.match(start.stderr, NO_SECRET);
  const plain = await importRouteModule({});
  assert.equal(plain.code, 1);
  assert.match(plain.stderr, NO_SECRET);
});
