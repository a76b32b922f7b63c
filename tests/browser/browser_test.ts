/**
 * A real browser against the demo as a real server: headless Chromium
 * (Debian's package, driven by playwright-core) clicks through the page the
 * way a person would. The Deno demo serves the bundled client; the Node demo
 * serves the npm build's client modules as they are, so both ways of
 * shipping the client are loaded by a browser. Ignored, with a
 * `skipped: no chromium` line, when Chromium is missing.
 *
 * @module
 */

import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import { type BrowserContext, chromium, type Page } from "npm:playwright-core@1";
import { stageApp } from "../support/npm_package.ts";
import { REPO_ROOT, type RunningServer, startServer } from "../support/server.ts";
import { missingTool, toolPath } from "../support/tools.ts";
import { demoPassword } from "../runtimes/_demo_flow.ts";

const SCREENSHOTS = `${REPO_ROOT}/.out/screenshots`;
// A secret from the developer's shell must not leak into the test servers.
const NO_SECRET = { AUTH_SECRET: "", SERVICE_AUTH_SECRET: "", SERVICE_SECRET: "", SECRET: "" };

// Keeps Chromium from reaching the network or doing work a test does not need.
const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

/** A fresh Chromium profile with one page; collects page errors and console errors. */
async function withBrowser(
  fn: (page: Page, problems: string[]) => Promise<void>,
): Promise<void> {
  const userDataDir = await Deno.makeTempDir({ prefix: "chromium_profile_" });
  let context: BrowserContext | undefined;
  try {
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: toolPath("chromium"),
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: 30_000,
      viewport: { width: 900, height: 1000 },
    });
    const page = context.pages()[0] ?? await context.newPage();
    page.setDefaultTimeout(10_000);
    // CSP violations, failed module loads and uncaught errors all end up here.
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      // GET /auth/session answers 401 while signed out (by design), which Chromium logs.
      if (message.type() === "error" && !/status of 401 \(Unauthorized\)/.test(message.text())) {
        problems.push(`console: ${message.text()}`);
      }
    });
    await fn(page, problems);
  } finally {
    await context?.close();
    await Deno.remove(userDataDir, { recursive: true });
  }
}

async function waitForState(page: Page, state: "signed-in" | "signed-out"): Promise<void> {
  await page.waitForSelector(`body[data-state="${state}"]`);
}

async function screenshot(page: Page, name: string): Promise<void> {
  await Deno.mkdir(SCREENSHOTS, { recursive: true });
  const path = `${SCREENSHOTS}/${name}.png`;
  await page.screenshot({ path, fullPage: true });
  console.log(`screenshot: ${path}`);
}

/** Stops the server, then prints its output when the test failed. */
async function withServer(
  server: RunningServer,
  fn: (server: RunningServer) => Promise<void>,
): Promise<void> {
  try {
    await fn(server);
  } catch (error) {
    console.error(`server output:\n${server.output()}`);
    throw error;
  } finally {
    await server.stop();
  }
}

Deno.test({
  name: "chromium on the Deno demo: OAuth sign-in through the consent page, update name, sign out",
  ignore: missingTool("chromium"),
  // Playwright keeps its own timers and pipes around the browser's lifetime.
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startServer("deno", "examples/deno/main.ts", { env: NO_SECRET });
    await withServer(server, () =>
      withBrowser(async (page, problems) => {
        await page.goto(`${server.url}/`);
        await waitForState(page, "signed-out");
        assert.match(await page.textContent("#runtime") ?? "", /^Deno \d/);

        await page.click("#oauth-sign-in");
        await page.waitForURL((url) => url.pathname === "/mock-oauth/authorize");
        assert.match(await page.textContent("h1") ?? "", /Sign in with Mock/);
        await page.check('input[name="user"][value="mock-grace"]');
        await page.click('button[value="approve"]');

        await page.waitForURL(`${server.url}/`);
        await waitForState(page, "signed-in");
        assert.equal(await page.textContent("#user-name"), "Grace Hopper");
        assert.equal(await page.textContent("#user-email"), "grace@example.com");
        assert.equal(
          await page.textContent("#message"),
          "Signed in through the mock OAuth provider.",
        );
        const shown = JSON.parse(await page.textContent("#session") ?? "null");
        assert.deepEqual(shown.user, {
          sub: "mock-grace",
          name: "Grace Hopper",
          email: "grace@example.com",
        });
        await screenshot(page, "demo_signed_in");

        await page.fill("#name", "Grace B. Hopper");
        await page.click('#update-form button[type="submit"]');
        await page.waitForFunction(() =>
          document.querySelector("#user-name")?.textContent === "Grace B. Hopper"
        );
        // A reload reads the session from the new cookie, not from the page's memory.
        await page.reload();
        await waitForState(page, "signed-in");
        assert.equal(await page.textContent("#user-name"), "Grace B. Hopper");

        await page.click("#sign-out");
        await waitForState(page, "signed-out");
        assert.equal(await page.textContent("#message"), "Signed out.");
        await page.reload();
        await waitForState(page, "signed-out");
        assert.deepEqual(problems, []);
      }));
  },
});

Deno.test({
  name:
    "chromium on the Node demo: password sign-in, sign-up, and a denied OAuth consent shown as an error",
  ignore: missingTool("chromium") || missingTool("node"),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using app = await stageApp("examples");
    const server = await startServer("node", "node/server.mjs", { cwd: app.dir, env: NO_SECRET });
    await withServer(server, () =>
      withBrowser(async (page, problems) => {
        await page.goto(`${server.url}/`);
        await waitForState(page, "signed-out");
        assert.match(await page.textContent("#runtime") ?? "", /^Node \d/);

        // A wrong password is refused with the server's error.
        await page.fill('#credentials-form input[name="username"]', "demo");
        await page.fill('#credentials-form input[name="password"]', "not-the-password");
        await page.click('#credentials-form button[type="submit"]');
        await page.waitForSelector("#message.error");
        assert.match(await page.textContent("#message") ?? "", /^access_denied: .*\(HTTP 401\)$/);

        await page.fill('#credentials-form input[name="password"]', demoPassword(server.output()));
        await page.click('#credentials-form button[type="submit"]');
        await waitForState(page, "signed-in");
        assert.equal(await page.textContent("#user-name"), "Demo User");
        await page.click("#sign-out");
        await waitForState(page, "signed-out");

        await page.fill('#sign-up-form input[name="name"]', "Katherine Johnson");
        await page.fill('#sign-up-form input[name="username"]', "katherine");
        await page.fill('#sign-up-form input[name="password"]', "orbit-1962!");
        await page.click('#sign-up-form button[type="submit"]');
        await waitForState(page, "signed-in");
        assert.equal(await page.textContent("#user-name"), "Katherine Johnson");
        assert.equal(await page.textContent("#message"), "Account created; you are signed in.");
        await page.click("#sign-out");
        await waitForState(page, "signed-out");

        await page.click("#oauth-sign-in");
        await page.waitForURL((url) => url.pathname === "/mock-oauth/authorize");
        await page.click('button[value="deny"]');
        await page.waitForURL(`${server.url}/`);
        await page.waitForSelector("#message.error");
        assert.match(await page.textContent("#message") ?? "", /^access_denied: /);
        await waitForState(page, "signed-out");
        await screenshot(page, "demo_consent_denied");
        assert.deepEqual(problems, []);
      }));
  },
});
