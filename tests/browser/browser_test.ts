/**
 * A real browser against a real server: headless Chromium (Debian's package,
 * driven by playwright-core) opens the page, clicks, and sees the DOM change.
 * Ignored, with a `skipped: no chromium` line, when Chromium is missing.
 *
 * @module
 */

import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import { chromium } from "npm:playwright-core@1";
import { REPO_ROOT, startServer } from "../support/server.ts";
import { missingTool, toolPath } from "../support/tools.ts";

// TEMPORARY stand-in; becomes examples/deno/main.ts once it serves the client.
const APP = "tests/runtimes/fixtures/standin_deno.ts";
const SCREENSHOTS = `${REPO_ROOT}/.out/screenshots`;

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

Deno.test({
  name: "chromium: clicking the button shows the server's answer",
  ignore: missingTool("chromium"),
  // Playwright keeps its own timers and pipes around the browser's lifetime.
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using server = await startServer("deno", APP);
    const userDataDir = await Deno.makeTempDir({ prefix: "chromium_profile_" });
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: toolPath("chromium"),
      headless: true,
      args: CHROMIUM_ARGS,
      timeout: 30_000,
    });
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      await page.goto(`${server.url}/`);
      assert.equal(await page.textContent("#result"), "idle");
      await page.click("#ping");
      await page.waitForFunction(() => document.querySelector("#result")?.textContent !== "idle");
      assert.equal(await page.textContent("#result"), "pong from deno: hello");
      await Deno.mkdir(SCREENSHOTS, { recursive: true });
      const path = `${SCREENSHOTS}/standin_after_click.png`;
      await page.screenshot({ path });
      console.log(`screenshot: ${path}`);
    } finally {
      await context.close();
      await Deno.remove(userDataDir, { recursive: true });
    }
  },
});
