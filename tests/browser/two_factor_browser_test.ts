/**
 * Two-factor sign-in in a real browser, on the Deno demo as a real server:
 * headless Chromium (Debian's package, driven by playwright-core) turns it
 * on with the QR code and the secret shown on the page, signs out, signs in
 * with the password (the page's own code form) and with the mock OAuth
 * provider (the library's built-in page at /auth/twoFactor), and uses a
 * backup code once. Codes are computed from the secret read off the page
 * with npm `otpauth`. Ignored, with a `skipped: no chromium` line, when
 * Chromium is missing (CHROMIUM_BIN).
 *
 * @module
 */

import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import { type Browser, chromium, type Page } from "npm:playwright-core@1";
// deno-lint-ignore no-import-prefix -- dev-only test dependency: an independent TOTP.
import * as OTPAuth from "npm:otpauth@9";
import { type RunningServer, startServer } from "../support/server.ts";
import { missingTool, toolPath } from "../support/tools.ts";
import { demoPassword } from "../runtimes/_demo_flow.ts";
import { CHROMIUM_ARGS, NO_SECRET, screenshot, waitForState } from "./_chromium.ts";

/**
 * Codes for one secret, each from a later step than the last one given: the
 * server accepts a step only after every step accepted before it. The current
 * step first, then the next one; after that, it waits for time to move on.
 */
class Authenticator {
  #totp: OTPAuth.TOTP;
  #last = -1;
  constructor(secret: string) {
    this.#totp = new OTPAuth.TOTP({
      secret: OTPAuth.Secret.fromBase32(secret),
      algorithm: "SHA1",
      digits: 6,
      period: 30,
    });
  }
  async code(): Promise<string> {
    for (;;) {
      const now = Math.floor(Date.now() / 30_000);
      const step = [now, now + 1].find((candidate) => candidate > this.#last);
      if (step !== undefined) {
        this.#last = step;
        return this.#totp.generate({ timestamp: step * 30_000 + 1 });
      }
      await new Promise((resolve) => setTimeout(resolve, (now + 1) * 30_000 - Date.now() + 50));
    }
  }
}

async function signInWithPassword(page: Page, password: string): Promise<void> {
  await page.fill('#credentials-form input[name="username"]', "demo");
  await page.fill('#credentials-form input[name="password"]', password);
  await page.click('#credentials-form button[type="submit"]');
}

/** Turns two-factor on from the signed-in page; returns the secret and the backup codes. */
async function enroll(page: Page, name: string): Promise<{ secret: string; backup: string[] }> {
  await page.waitForSelector("#two-factor-enroll:not([hidden])");
  assert.match(await page.textContent("#two-factor-status") ?? "", /^Off/);
  await page.click("#two-factor-enroll");
  await page.waitForSelector("#two-factor-setup:not([hidden])");
  // The QR code is an image of the otpauth URI; the secret is there as text too.
  await page.waitForSelector("#two-factor-qr:not([hidden])");
  const src = await page.getAttribute("#two-factor-qr", "src") ?? "";
  assert.match(src, /^data:image\/svg\+xml;base64,/);
  const loaded = await page.$eval(
    "#two-factor-qr",
    (image) => (image as HTMLImageElement).complete && (image as HTMLImageElement).naturalWidth > 0,
  );
  assert.ok(loaded, "the QR code image loads");
  const secret = (await page.textContent("#two-factor-secret") ?? "").trim();
  assert.match(secret, /^[A-Z2-7]{32}$/);
  await screenshot(page, `two_factor_enroll_${name}`);
  const authenticator = new Authenticator(secret);
  await page.fill('#two-factor-confirm-form input[name="code"]', await authenticator.code());
  await page.click('#two-factor-confirm-form button[type="submit"]');
  await page.waitForSelector("#two-factor-backup:not([hidden])");
  const backup = await page.$$eval(
    "#two-factor-backup-codes li",
    (items) => items.map((item) => item.textContent ?? ""),
  );
  assert.equal(backup.length, 10);
  assert.match(await page.textContent("#two-factor-status") ?? "", /^On/);
  authenticators.set(secret, authenticator);
  return { secret, backup };
}

const authenticators = new Map<string, Authenticator>();

async function withServer(fn: (server: RunningServer) => Promise<void>): Promise<void> {
  const server = await startServer("deno", "examples/deno/main.ts", { env: NO_SECRET });
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
  name:
    "chromium on the Deno demo: two-factor on with a QR code, then password, OAuth and backup-code sign-ins",
  ignore: missingTool("chromium"),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await withServer(async (server) => {
      const browser: Browser = await chromium.launch({
        executablePath: toolPath("chromium"),
        headless: true,
        args: CHROMIUM_ARGS,
        timeout: 30_000,
      });
      try {
        const context = await browser.newContext({ viewport: { width: 900, height: 1000 } });
        const page = await context.newPage();
        page.setDefaultTimeout(30_000);
        const problems: string[] = [];
        page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
        page.on("console", (message) => {
          // A wrong code answers 400 (by design), which Chromium logs for the fetch.
          if (message.type() === "error" && !/status of 40[01]/.test(message.text())) {
            problems.push(`console: ${message.text()}`);
          }
        });
        const password = demoPassword(server.output());
        await page.goto(`${server.url}/`);
        await waitForState(page, "signed-out");

        // Password sign-in, then two-factor on.
        await signInWithPassword(page, password);
        await waitForState(page, "signed-in");
        const demo = await enroll(page, "password");
        const authenticator = authenticators.get(demo.secret)!;
        await page.click("#sign-out");
        await waitForState(page, "signed-out");

        // The password alone no longer signs in: the page asks for the code.
        await signInWithPassword(page, password);
        await page.waitForSelector("#two-factor-step:not([hidden])");
        assert.equal(await page.getAttribute("body", "data-state"), "signed-out");
        // Only the code step shows, with a way back; the other sign-in forms wait.
        for (const other of ["#credentials-form", "#email-form", "#oauth-sign-in"]) {
          assert.equal(await page.isVisible(other), false, `${other} shows during the second step`);
        }
        assert.equal(await page.isVisible("#two-factor-back"), true);
        await page.click("#two-factor-back");
        await page.waitForSelector("#two-factor-step", { state: "hidden" });
        assert.equal(await page.isVisible("#credentials-form"), true);
        await signInWithPassword(page, password);
        await page.waitForSelector("#two-factor-step:not([hidden])");
        const noSession = await page.evaluate(async () => (await fetch("/auth/session")).json());
        assert.equal(noSession, null);
        await page.fill('#two-factor-verify-form input[name="code"]', "000000");
        await page.click('#two-factor-verify-form button[type="submit"]');
        await page.waitForSelector("#two-factor-step-message.error");
        assert.match(await page.textContent("#two-factor-step-message") ?? "", /^invalid_grant/);
        await screenshot(page, "two_factor_step");
        await page.fill('#two-factor-verify-form input[name="code"]', await authenticator.code());
        await page.click('#two-factor-verify-form button[type="submit"]');
        await waitForState(page, "signed-in");
        assert.equal(await page.textContent("#user-name"), "Demo User");
        assert.equal(
          await page.textContent("#signed-in-message"),
          "Signed in with your second factor.",
        );
        await page.click("#sign-out");
        await waitForState(page, "signed-out");

        // A backup code signs in once; the same code again is refused.
        for (const attempt of ["first", "again"]) {
          await signInWithPassword(page, password);
          await page.waitForSelector("#two-factor-step:not([hidden])");
          await page.click("#two-factor-backup-form input");
          await page.fill('#two-factor-backup-form input[name="backupCode"]', demo.backup[0]);
          await page.click('#two-factor-backup-form button[type="submit"]');
          if (attempt === "first") {
            await waitForState(page, "signed-in");
            await page.click("#sign-out");
            await waitForState(page, "signed-out");
          } else {
            await page.waitForSelector("#two-factor-step-message.error");
            assert.equal(await page.getAttribute("body", "data-state"), "signed-out");
          }
        }
        await page.goto(`${server.url}/`);
        await waitForState(page, "signed-out");

        // OAuth: Grace turns two-factor on, signs out, and signs in through the mock provider;
        // the library's own page asks for her code (a form, no script).
        const signInAsGrace = async () => {
          await page.click("#oauth-sign-in");
          await page.waitForURL((url) => url.pathname === "/mock-oauth/authorize");
          await page.check('input[name="user"][value="mock-grace"]');
          await page.click('button[value="approve"]');
        };
        await signInAsGrace();
        await page.waitForURL((url) => url.pathname === "/");
        await waitForState(page, "signed-in");
        const grace = await enroll(page, "oauth");
        await page.click("#sign-out");
        await waitForState(page, "signed-out");
        await signInAsGrace();
        await page.waitForURL((url) => url.pathname === "/auth/twoFactor");
        assert.equal(await page.textContent("h1"), "Enter your code");
        await screenshot(page, "two_factor_builtin_page");
        await page.fill("#code", await authenticators.get(grace.secret)!.code());
        await page.click('form:has(#code) button[type="submit"]');
        await page.waitForURL((url) => url.pathname === "/");
        await waitForState(page, "signed-in");
        assert.equal(await page.textContent("#user-name"), "Grace Hopper");
        assert.equal(
          await page.textContent("#signed-in-message"),
          "Signed in through the mock OAuth provider.",
        );
        // And off again with a current code.
        await page.waitForSelector("#two-factor-disable-form:not([hidden])");
        await page.fill(
          '#two-factor-disable-form input[name="code"]',
          await authenticators.get(grace.secret)!.code(),
        );
        await page.click('#two-factor-disable-form button[type="submit"]');
        await page.waitForSelector("#two-factor-enroll:not([hidden])");
        assert.match(await page.textContent("#two-factor-status") ?? "", /^Off/);
        assert.deepEqual(problems, []);
        await context.close();
      } finally {
        await browser.close();
      }
    });
  },
});
