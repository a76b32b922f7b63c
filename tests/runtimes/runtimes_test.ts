/**
 * The same HTTP behaviour on Deno, Bun and Node: each runtime's server is
 * started as a subprocess and exercised over loopback. Bun and Node run the
 * npm build of the package from a staged app folder, as npm users would.
 *
 * @module
 */

import assert from "node:assert/strict";
import * as sourceMain from "../../mod.ts";
import * as sourceClient from "../../client.ts";
import * as sourceJose from "../../jose.ts";
import * as sourceTesting from "../../testing.ts";
import { HttpClient } from "../support/http_client.ts";
import { stageApp, type StagedApp } from "../support/npm_package.ts";
import { type RunningServer, type Runtime, startServer } from "../support/server.ts";
import { missingTool } from "../support/tools.ts";

/** Where a runtime's server comes from. */
interface Target {
  runtime: Runtime;
  /** Folder copied to a temporary app with the npm build installed; none runs in place. */
  app?: string;
  /** Entry file, relative to `app` when staged, else to the repository root. */
  entry: string;
}

// TEMPORARY stand-ins. Once the examples land, replace with:
//   { runtime: "deno", entry: "examples/deno/main.ts" },
//   { runtime: "bun", app: "examples/bun", entry: "server.ts" },
//   { runtime: "node", app: "examples/node", entry: "server.mjs" },
const TARGETS: Target[] = [
  { runtime: "deno", entry: "tests/runtimes/fixtures/standin_deno.ts" },
  { runtime: "bun", app: "tests/runtimes/fixtures", entry: "standin_bun.ts" },
  { runtime: "node", app: "tests/runtimes/fixtures", entry: "standin_node.mjs" },
];

const SOURCE_EXPORTS: Record<string, string[]> = {
  ".": Object.keys(sourceMain).sort(),
  "./client": Object.keys(sourceClient).sort(),
  "./jose": Object.keys(sourceJose).sort(),
  "./testing": Object.keys(sourceTesting).sort(),
};

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
  if (target.app === undefined) return await startServer(target.runtime, target.entry);
  const app = await stageApp(target.app);
  try {
    return removingApp(await startServer(target.runtime, target.entry, { cwd: app.dir }), app);
  } catch (error) {
    await app.remove();
    throw error;
  }
}

for (const target of TARGETS) {
  const name = target.runtime;
  const ignore = name !== "deno" && missingTool(name);

  Deno.test({
    name: `${name}: serves the HTML page on GET /`,
    ignore,
    async fn() {
      await using server = await launch(target);
      const response = await fetch(`${server.url}/`);
      const body = await response.text();
      assert.equal(response.status, 200);
      assert.match(response.headers.get("content-type") ?? "", /^text\/html/);
      assert.match(body, /<button id="ping"/);
    },
  });

  Deno.test({
    name: `${name}: runs on that runtime and exposes the same exports as the source`,
    ignore,
    async fn() {
      await using server = await launch(target);
      const response = await fetch(`${server.url}/health`);
      const health = await response.json();
      assert.equal(health.runtime, name);
      assert.deepEqual(health.exports, SOURCE_EXPORTS);
    },
  });

  Deno.test({
    name: `${name}: passes a large POST body through unchanged`,
    ignore,
    async fn() {
      await using server = await launch(target);
      // Large enough to arrive in many chunks; non-ASCII to catch decoding at chunk edges.
      const body = "é-".repeat(150_000);
      const response = await fetch(`${server.url}/echo`, {
        method: "POST",
        headers: { "content-type": "text/plain; charset=utf-8" },
        body,
      });
      const echo = await response.json();
      assert.equal(echo.contentType, "text/plain; charset=utf-8");
      assert.equal(echo.length, body.length);
      assert.equal(echo.body, body);
    },
  });

  Deno.test({
    name: `${name}: sends each Set-Cookie header separately`,
    ignore,
    async fn() {
      await using server = await launch(target);
      const client = new HttpClient();
      const { response, hops } = await client.follow(`${server.url}/cookies/set`);
      const shown = await response.json();
      assert.deepEqual(hops.map((hop) => hop.status), [302, 200]);
      assert.deepEqual(hops[0].setCookies, [
        "first=1; Path=/; HttpOnly; SameSite=Lax",
        "second=2; Path=/cookies",
        "gone=; Path=/; Max-Age=0",
      ]);
      assert.equal(shown.cookie, "second=2; first=1");
    },
  });

  Deno.test({
    name: `${name}: answers HEAD with headers and no body`,
    ignore,
    async fn() {
      await using server = await launch(target);
      const response = await fetch(`${server.url}/health`, { method: "HEAD" });
      const body = await response.text();
      assert.equal(response.status, 200);
      assert.equal(response.headers.get("content-type"), "application/json");
      assert.equal(body, "");
    },
  });
}
