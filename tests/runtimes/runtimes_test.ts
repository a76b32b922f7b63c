/**
 * The examples, each started as a real server on loopback and driven
 * through the demo's flows: Deno runs `examples/deno/main.ts` from the
 * repository; Bun runs `examples/bun/server.ts` and Node runs
 * `examples/node/server.mjs`, `examples/express/server.mjs` and
 * `examples/hono-node/server.mjs` from a staged copy of `examples/` where
 * `@service-stack/auth` is the npm build, as JSR serves it to npm users,
 * and Express and Hono come from `node_modules/`.
 *
 * @module
 */

import assert from "node:assert/strict";
import * as sourceMain from "../../mod.ts";
import * as sourceClient from "../../client.ts";
import * as sourceJose from "../../jose.ts";
import * as sourceTesting from "../../testing.ts";
import * as sourceNode from "../../node.ts";
import { HttpClient } from "../support/http_client.ts";
import { stageApp, type StagedApp } from "../support/npm_package.ts";
import {
  REPO_ROOT,
  type RunningServer,
  type Runtime,
  runtimeCommand,
  startServer,
} from "../support/server.ts";
import { missingTool, toolPath } from "../support/tools.ts";
import { currentSession, demoPassword, mutate, signInWithMock } from "./_demo_flow.ts";

/** Where an example's server comes from. */
interface Target {
  /** Names the example in test names. */
  name: string;
  runtime: Runtime;
  /** How the demo page names what it runs on. */
  label: string;
  /** Folder copied to a temporary app with the npm build installed; none runs in place. */
  app?: string;
  /** Entry file, relative to `app` when staged, else to the repository root. */
  entry: string;
  /** npm packages the staged app imports besides this one. */
  packages?: string[];
}

const TARGETS: Target[] = [
  { name: "deno", runtime: "deno", label: "Deno", entry: "examples/deno/main.ts" },
  { name: "bun", runtime: "bun", label: "Bun", app: "examples", entry: "bun/server.ts" },
  { name: "node", runtime: "node", label: "Node", app: "examples", entry: "node/server.mjs" },
  {
    name: "express",
    runtime: "node",
    label: "Express",
    app: "examples",
    entry: "express/server.mjs",
    packages: ["express"],
  },
  {
    name: "hono-node",
    runtime: "node",
    label: "Hono",
    app: "examples",
    entry: "hono-node/server.mjs",
    packages: ["hono", "@hono/node-server"],
  },
];

/** The server, with stopping extended to delete its staged app too. */
function removingApp(server: RunningServer, app: StagedApp): RunningServer {
  async function stop(): Promise<void> {
    await server.stop();
    await app.remove();
  }
  return { ...server, stop, [Symbol.asyncDispose]: stop };
}

/** Starts the target's server; disposing stops it and deletes the staged app. */
async function launch(target: Target): Promise<RunningServer> {
  // A secret from the developer's shell must not leak into the test servers.
  const env = { AUTH_SECRET: "", SERVICE_AUTH_SECRET: "", SERVICE_SECRET: "", SECRET: "" };
  if (target.app === undefined) return await startServer(target.runtime, target.entry, { env });
  const app = await stageApp(target.app, { packages: target.packages });
  try {
    return removingApp(
      await startServer(target.runtime, target.entry, { cwd: app.dir, env }),
      app,
    );
  } catch (error) {
    await app.remove();
    throw error;
  }
}

const STATIC_IMPORT = /^(?:import|export)\b(?:[^;"']*?\bfrom)?\s*["'](\.{1,2}\/[^"']+)["']/gm;

for (const target of TARGETS) {
  const name = target.name;
  const ignore = target.runtime !== "deno" && missingTool(target.runtime);

  Deno.test({
    name: `${name}: serves the demo page, its script and the whole browser client`,
    ignore,
    async fn() {
      await using server = await launch(target);
      const page = await fetch(`${server.url}/`);
      const html = await page.text();
      assert.equal(page.status, 200);
      assert.match(page.headers.get("content-type") ?? "", /^text\/html/);
      assert.match(page.headers.get("content-security-policy") ?? "", /script-src 'self' 'sha256-/);
      assert.match(html, new RegExp(`Running on <strong id="runtime">${target.label} `));
      assert.match(html, /"@service-stack\/auth\/client": "\/client\/client\.js"/);
      for (const path of ["/app.js", "/app.css"]) {
        const response = await fetch(`${server.url}${path}`);
        await response.body?.cancel();
        assert.equal(response.status, 200, path);
      }
      // Every module the browser would load, from the client's entry on.
      const seen = new Set<string>();
      const pending = [`${server.url}/client/client.js`];
      while (pending.length > 0) {
        const url = pending.pop()!;
        if (seen.has(url)) continue;
        seen.add(url);
        const response = await fetch(url);
        const source = await response.text();
        assert.equal(response.status, 200, url);
        assert.match(response.headers.get("content-type") ?? "", /^text\/javascript/, url);
        for (const match of source.matchAll(STATIC_IMPORT)) {
          pending.push(new URL(match[1], url).href);
        }
      }
      assert.match(
        await (await fetch(`${server.url}/client/client.js`)).text(),
        /createAuthClient/,
      );
    },
  });

  Deno.test({
    name:
      `${name}: mock OAuth sign-in, session, name update, sign-out, credentials sign-in and sign-up`,
    ignore,
    async fn() {
      await using server = await launch(target);
      const origin = server.url;
      const client = new HttpClient({ headers: { origin } });

      // OAuth through the mock provider's consent page, back to the page.
      const back = await signInWithMock(client, origin, { account: "mock-grace" });
      assert.equal(back.response.status, 200);
      assert.equal(back.url, `${origin}/`);
      await back.response.body?.cancel();
      const oauthSession = await currentSession(client, origin);
      assert.ok(typeof oauthSession === "object" && oauthSession !== null);
      assert.deepEqual(oauthSession.user, {
        sub: "mock-grace",
        name: "Grace Hopper",
        email: "grace@example.com",
        emailVerified: true,
      });

      // Update the name; the new session cookie carries it.
      const updated = await mutate(client, `${origin}/auth/session`, {
        method: "PATCH",
        body: { user: { name: "Grace B. Hopper" } },
      });
      assert.equal(updated.status, 200);
      assert.equal((await updated.json()).user.name, "Grace B. Hopper");
      const afterUpdate = await currentSession(client, origin);
      assert.ok(typeof afterUpdate === "object" && afterUpdate !== null);
      assert.equal(afterUpdate.user.name, "Grace B. Hopper");

      // Sign out.
      const signedOut = await mutate(client, `${origin}/auth/signOut`);
      assert.equal(signedOut.status, 200);
      assert.deepEqual(await signedOut.json(), { ok: true });
      assert.equal(await currentSession(client, origin), null);

      // Username and password: the demo user from the console.
      const password = demoPassword(server.output());
      const wrong = await mutate(client, `${origin}/auth/signIn/credentials`, {
        body: { username: "demo", password: `${password}x` },
      });
      assert.equal(wrong.status, 401);
      assert.equal((await wrong.json()).error, "access_denied");
      const signedIn = await mutate(client, `${origin}/auth/signIn/credentials`, {
        body: { username: "demo", password },
      });
      assert.equal(signedIn.status, 200);
      assert.deepEqual((await signedIn.json()).user, {
        sub: "user-demo",
        name: "Demo User",
        email: "demo@example.com",
      });
      // Each cookie arrives as its own Set-Cookie line, Expires dates (with commas) intact.
      const cookies = signedIn.headers.getSetCookie();
      assert.ok(cookies.some((line) => line.startsWith("service-stack.session_token=")));
      assert.ok(cookies.some((line) => line.startsWith("service-stack.csrf_token=")));
      for (const line of cookies) assert.match(line, /^[^=;, ]+=[^;,]*;.*\bExpires=\w{3}, \d\d /);
      const credentialsSession = await currentSession(client, origin);
      assert.ok(typeof credentialsSession === "object" && credentialsSession !== null);
      assert.equal(credentialsSession.user.sub, "user-demo");
      assert.equal((await mutate(client, `${origin}/auth/signOut`)).status, 200);

      // Sign up, then sign in again with the new account's password.
      const signedUp = await mutate(client, `${origin}/auth/signUp`, {
        body: { name: "Katherine Johnson", username: "katherine", password: "orbit-1962!" },
      });
      assert.equal(signedUp.status, 201);
      const created = (await signedUp.json()).user;
      assert.equal(created.name, "Katherine Johnson");
      assert.equal((await mutate(client, `${origin}/auth/signOut`)).status, 200);
      const again = await mutate(client, `${origin}/auth/signIn/credentials`, {
        body: { username: "katherine", password: "orbit-1962!" },
      });
      assert.equal(again.status, 200);
      assert.deepEqual((await again.json()).user, created);
    },
  });

  Deno.test({
    name: `${name}: answers HEAD with headers only and streams a large body to the limit check`,
    ignore,
    async fn() {
      await using server = await launch(target);
      const head = await fetch(`${server.url}/`, { method: "HEAD" });
      assert.equal(head.status, 200);
      assert.match(head.headers.get("content-type") ?? "", /^text\/html/);
      assert.equal(await head.text(), "");
      // 200 KiB of multi-byte text: read through the runtime's request stream, refused at 64 KiB.
      const client = new HttpClient({ headers: { origin: server.url } });
      const response = await mutate(client, `${server.url}/auth/signUp`, {
        body: { name: "é".repeat(100_000), username: "big", password: "long-enough" },
      });
      assert.equal(response.status, 413);
      assert.equal((await response.json()).error, "invalid_request");
    },
  });

  Deno.test({
    name: `${name}: a request target starting with // stays a path on the server's host`,
    ignore,
    async fn() {
      await using server = await launch(target);
      // Read as a URL relative to the host, `//evil.example/app.js` would become that host's /app.js.
      for (const path of ["//evil.example/app.js", "//evil.example/auth/csrfToken"]) {
        const response = await fetch(`${server.url}${path}`);
        await response.body?.cancel();
        assert.equal(response.status, 404, path);
      }
    },
  });

  // Once per runtime that runs the npm build.
  if (target.runtime === "deno" || name !== target.runtime) continue;

  Deno.test({
    name: `${name}: the npm build exposes the same exports as the source, and signs as Deno does`,
    ignore,
    async fn() {
      await using app = await stageApp("tests/runtimes/fixtures");
      const command = runtimeCommand(target.runtime, "print_exports.mjs")!;
      const { success, stdout, stderr } = await new Deno.Command(command.command, {
        args: command.args,
        cwd: app.dir,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.ok(success, new TextDecoder().decode(stderr));
      assert.deepEqual(JSON.parse(new TextDecoder().decode(stdout)), {
        ".": Object.keys(sourceMain).sort(),
        "./client": Object.keys(sourceClient).sort(),
        "./jose": Object.keys(sourceJose).sort(),
        "./testing": Object.keys(sourceTesting).sort(),
        "./node": Object.keys(sourceNode).sort(),
        signed: await sourceJose.createJose("runtime-interop-secret-0123456789abcdef", {
          mode: "signed",
        }).signJWS({ sub: "interop" }),
      });
    },
  });

  Deno.test({
    name:
      `${name}: the npm build's hand-written hashes pass the vectors and equal ${target.label}'s Web Crypto (0-300 bytes, block edges, over 1 MiB)`,
    ignore,
    async fn() {
      await using app = await stageApp("tests/runtimes/fixtures");
      const command = runtimeCommand(target.runtime, "hashes.mjs")!;
      const { success, stdout, stderr } = await new Deno.Command(command.command, {
        args: command.args,
        cwd: app.dir,
        stdin: "null",
        stdout: "piped",
        stderr: "piped",
      }).output();
      assert.ok(success, new TextDecoder().decode(stderr));
      const report = JSON.parse(new TextDecoder().decode(stdout));
      assert.deepEqual(report.failures, []);
      // As many checks as under Deno (tests/crypto/hashes_test.ts): nothing skipped here.
      assert.ok(report.passed > 2000, `${report.passed} checks`);
      assert.ok(report.largest > 1024 * 1024);
    },
  });
}

Deno.test("the runtime targets are the examples docs/develop.md names", async () => {
  for (const target of TARGETS) {
    const path = target.app === undefined ? target.entry : `${target.app}/${target.entry}`;
    assert.ok((await Deno.stat(`${REPO_ROOT}/${path}`)).isFile, path);
  }
  const develop = await Deno.readTextFile(`${REPO_ROOT}/docs/develop.md`);
  for (
    const path of ["examples/deno/main.ts", "examples/bun/server.ts", "examples/node/server.mjs"]
  ) {
    assert.ok(develop.includes(path), `docs/develop.md names ${path}`);
  }
});

Deno.test({
  name: "bun: sqlStore over bun:sqlite passes checkStore under Bun (the npm build)",
  ignore: missingTool("bun"),
  async fn() {
    await using app = await stageApp("tests/runtimes/fixtures/bun_sqlite");
    const output = await new Deno.Command(toolPath("bun")!, {
      args: ["run", "check.ts"],
      cwd: app.dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const decoder = new TextDecoder();
    assert.ok(output.success, decoder.decode(output.stderr));
    const result = JSON.parse(decoder.decode(output.stdout).trim().split("\n").at(-1)!);
    assert.deepEqual(result.failed, []);
    assert.ok(result.passed.length >= 25, result.passed.join(", "));
  },
});
