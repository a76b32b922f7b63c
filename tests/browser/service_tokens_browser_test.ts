/**
 * Tokens for other services and API keys in a real browser, on the Deno demo
 * as a real server: headless Chromium signs in, gets an access token that the
 * sample API accepts, creates an API key, runs the page's `curl` line's
 * request with it (from the test, as a script would), and deletes it.
 * Ignored, with a `skipped: no chromium` line, when Chromium is missing
 * (CHROMIUM_BIN).
 *
 * @module
 */

import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import { type Browser, chromium } from "npm:playwright-core@1";
import { startServer } from "../support/server.ts";
import { missingTool, toolPath } from "../support/tools.ts";
import { demoPassword } from "../runtimes/_demo_flow.ts";
import { CHROMIUM_ARGS, NO_SECRET, waitForState } from "./_chromium.ts";

Deno.test({
  name: "chromium on the Deno demo: an access token for the sample API, and an API key for curl",
  ignore: missingTool("chromium"),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startServer("deno", "examples/deno/main.ts", { env: NO_SECRET });
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({
        executablePath: toolPath("chromium"),
        headless: true,
        args: CHROMIUM_ARGS,
        timeout: 30_000,
      });
      const page = await (await browser.newContext()).newPage();
      page.setDefaultTimeout(30_000);
      const problems: string[] = [];
      page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
      await page.goto(`${server.url}/`);
      await waitForState(page, "signed-out");
      await page.fill('#credentials-form input[name="username"]', "demo");
      await page.fill('#credentials-form input[name="password"]', demoPassword(server.output()));
      await page.click('#credentials-form button[type="submit"]');
      await waitForState(page, "signed-in");

      await page.click("#api-call");
      await page.waitForSelector("#api-result:not([hidden])");
      await page.waitForFunction(() =>
        /→ 200/.test(document.getElementById("api-result")!.textContent!)
      );
      assert.match(await page.textContent("#api-result") ?? "", /"via": "access token"/);

      await page.fill("#api-key-name", "my script");
      await page.click("#api-key-create");
      await page.waitForSelector("#api-key-new:not([hidden])");
      const curl = await page.textContent("#api-key-curl") ?? "";
      const match = /^curl -H "Authorization: Bearer (demo_[0-9A-Za-z_]+)" (\S+)$/.exec(curl);
      assert.ok(match, curl);
      const answer = await fetch(match[2], { headers: { Authorization: `Bearer ${match[1]}` } });
      assert.equal(answer.status, 200);
      assert.equal((await answer.json()).via, "API key");
      await page.waitForSelector("#api-keys li");
      assert.match(await page.textContent("#api-keys") ?? "", /my script/);

      await page.click("#api-keys li button");
      await page.waitForSelector("#api-keys li", { state: "detached" });
      const after = await fetch(match[2], { headers: { Authorization: `Bearer ${match[1]}` } });
      assert.equal(after.status, 401);
      await after.body?.cancel();
      assert.deepEqual(problems, []);
    } catch (error) {
      console.error(`server output:\n${server.output()}`);
      throw error;
    } finally {
      await browser?.close();
      await server.stop();
    }
  },
});
