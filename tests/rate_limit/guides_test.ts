// Every runtime guide passes the client's address to the handlers: each guide server of
// examples/guides/ runs as a real process (Deno in place; Node and Bun from a staged copy with
// the npm build) and answers a limited route (GET /auth/signIn/github) with the RateLimit
// headers, which only a request with an address gets.
import assert from "node:assert/strict";
import { stageApp } from "../support/npm_package.ts";
import { freePort, REPO_ROOT } from "../support/server.ts";
import { missingTool, toolPath } from "../support/tools.ts";

const GUIDE_ENV = {
  AUTH_SECRET: "rate-limit-guide-secret-0123456789-abcdefghij",
  GITHUB_CLIENT_ID: "guide-client-id",
  GITHUB_CLIENT_SECRET: "guide-client-secret",
};

const GUIDES: { file: string; runtime: "deno" | "bun" | "node"; packages?: string[] }[] = [
  { file: "examples/guides/deno/server.ts", runtime: "deno" },
  { file: "examples/guides/bun/server.js", runtime: "bun" },
  { file: "examples/guides/node/server.mjs", runtime: "node" },
  { file: "examples/guides/express/server.mjs", runtime: "node", packages: ["express"] },
  {
    file: "examples/guides/hono-node/server.mjs",
    runtime: "node",
    packages: ["hono", "@hono/node-server"],
  },
];

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

/** Runs the server, waits for it, and returns the answer to two GET /auth/signIn/github. */
async function limitedAnswers(command: string, args: string[], cwd: string): Promise<Response[]> {
  const port = freePort();
  const child = new Deno.Command("setsid", {
    args: [command, ...args],
    cwd,
    env: { ...GUIDE_ENV, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1", PORT: String(port) },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stderr = new Response(child.stderr).text();
  try {
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await (await fetch(`http://127.0.0.1:${port}/auth/session`)).body?.cancel();
        break;
      } catch {
        if (Date.now() > deadline) throw new Error(`${args.join(" ")} never answered`);
        await sleep(100);
      }
    }
    const answers: Response[] = [];
    for (let i = 0; i < 2; i++) {
      const response = await fetch(`http://127.0.0.1:${port}/auth/signIn/github`, {
        redirect: "manual",
      });
      await response.body?.cancel();
      answers.push(response);
    }
    return answers;
  } finally {
    try {
      Deno.kill(-child.pid, "SIGTERM");
    } catch {
      // Already gone.
    }
    await child.status;
    const errors = await stderr;
    assert.doesNotMatch(errors, /without a client address/, "no warning about a missing address");
  }
}

for (const guide of GUIDES) {
  Deno.test({
    name: `the ${guide.file} guide passes the client address: a limited route counts it`,
    ignore: guide.runtime !== "deno" && missingTool(guide.runtime),
    async fn() {
      let answers: Response[];
      if (guide.runtime === "deno") {
        answers = await limitedAnswers(
          Deno.execPath(),
          ["run", "--allow-net", "--allow-env", guide.file],
          REPO_ROOT,
        );
      } else {
        const folder = guide.file.slice(0, guide.file.lastIndexOf("/"));
        await using app = await stageApp(folder, { packages: guide.packages });
        answers = await limitedAnswers(
          toolPath(guide.runtime)!,
          [guide.file.slice(folder.length + 1)],
          app.dir,
        );
      }
      assert.equal(answers[0].status, 302);
      assert.equal(answers[0].headers.get("RateLimit-Policy"), '"/signIn/:oauth";q=60;w=60');
      assert.match(answers[0].headers.get("RateLimit")!, /^"\/signIn\/:oauth";r=59;t=\d+$/);
      assert.match(answers[1].headers.get("RateLimit")!, /^"\/signIn\/:oauth";r=58;t=\d+$/);
    },
  });
}
