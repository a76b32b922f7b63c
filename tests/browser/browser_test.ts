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
import { type Browser, type BrowserContext, chromium, type Page } from "npm:playwright-core@1";
import { stageApp } from "../support/npm_package.ts";
import { startServer } from "../support/server.ts";
import { missingTool, toolPath } from "../support/tools.ts";
import { demoPassword } from "../runtimes/_demo_flow.ts";
import { createAuth } from "../../mod.ts";
import { createMockProvider, type MockProvider } from "../../testing.ts";
import { CHROMIUM_ARGS, NO_SECRET, screenshot, waitForState, withServer } from "./_chromium.ts";

/** A Chromium page with its own cookies, and the errors it logged. */
interface BrowserPage {
  page: Page;
  problems: string[];
}

/** Options of a new page: a phone-sized one takes the phone's width and User-Agent. */
interface PageOptions {
  width?: number;
  height?: number;
  userAgent?: string;
}

/** An iPhone-sized viewport (390 CSS pixels wide), for the screenshots a phone user sees. */
const PHONE: PageOptions = {
  width: 390,
  height: 844,
  userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 " +
    "(KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1",
};

/**
 * Headless Chromium; `open` gives a page in a fresh context (its own cookies,
 * like another device) that collects page errors and console errors.
 */
async function withBrowser(
  fn: (open: (options?: PageOptions) => Promise<BrowserPage>) => Promise<void>,
): Promise<void> {
  const browser: Browser = await chromium.launch({
    executablePath: toolPath("chromium"),
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 30_000,
  });
  const contexts: BrowserContext[] = [];
  async function open(options: PageOptions = {}): Promise<BrowserPage> {
    const context = await browser.newContext({
      viewport: { width: options.width ?? 900, height: options.height ?? 1000 },
      userAgent: options.userAgent,
    });
    contexts.push(context);
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    // CSP violations, failed module loads and uncaught errors all end up here.
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
    page.on("console", (message) => {
      // A call with an ended session answers 401 (by design), which Chromium logs.
      if (message.type() === "error" && !/status of 401 \(Unauthorized\)/.test(message.text())) {
        problems.push(`console: ${message.text()}`);
      }
    });
    return { page, problems };
  }
  try {
    await fn(open);
  } finally {
    for (const context of contexts) await context.close();
    await browser.close();
  }
}

/** Signs in through the mock provider's consent page as Grace Hopper, back on the demo page. */
async function signInAsGrace(page: Page, origin: string, screenshotName?: string): Promise<void> {
  await page.click("#oauth-sign-in");
  await page.waitForURL((url) => url.pathname === "/mock-oauth/authorize");
  assert.match(await page.textContent("h1") ?? "", /Sign in with Mock/);
  await page.check('input[name="user"][value="mock-grace"]');
  if (screenshotName !== undefined) await screenshot(page, screenshotName);
  await page.click('button[value="approve"]');
  await page.waitForURL(`${origin}/`);
  await waitForState(page, "signed-in");
}

/** The rows of the devices list, once it shows `count` of them. */
async function deviceRows(page: Page, count: number): Promise<string[]> {
  await page.waitForFunction(
    (n) => document.querySelectorAll("#devices li").length === n,
    count,
  );
  return await page.$$eval("#devices li", (items) => items.map((item) => item.textContent ?? ""));
}

Deno.test({
  name:
    "chromium on the Deno demo: OAuth sign-in, devices on two browsers, end one, a stale tab, sign out everywhere",
  ignore: missingTool("chromium"),
  // Playwright keeps its own timers and pipes around the browser's lifetime.
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startServer("deno", "examples/deno/main.ts", { env: NO_SECRET });
    await withServer(server, () =>
      withBrowser(async (open) => {
        const desk = await open();
        const phone = await open(PHONE);
        const { page } = desk;
        await page.goto(`${server.url}/`);
        await waitForState(page, "signed-out");
        assert.match(await page.textContent("#runtime") ?? "", /^Deno \d/);

        await signInAsGrace(page, server.url);
        assert.equal(await page.textContent("#user-name"), "Grace Hopper");
        assert.equal(await page.textContent("#user-email"), "grace@example.com");
        assert.equal(
          await page.textContent("#signed-in-message"),
          "Signed in through the mock OAuth provider.",
        );
        const shown = JSON.parse(await page.textContent("#session") ?? "null");
        assert.deepEqual(shown.user, {
          sub: "mock-grace",
          name: "Grace Hopper",
          email: "grace@example.com",
          emailVerified: true,
        });
        assert.match((await deviceRows(page, 1))[0], /This device/);

        // The same account on a phone: the consent page and the signed-in page, 390 px wide.
        await phone.page.goto(`${server.url}/`);
        await waitForState(phone.page, "signed-out");
        await signInAsGrace(phone.page, server.url, "consent_390px");
        const onPhone = await deviceRows(phone.page, 2);
        assert.match(onPhone[0], /Safari on iOS.*This device/);
        assert.doesNotMatch(onPhone[1], /This device/);
        await screenshot(phone.page, "demo_signed_in_390px");

        // The desk sees both devices, updates the name, and ends the phone's session.
        await page.reload();
        await waitForState(page, "signed-in");
        assert.equal((await deviceRows(page, 2)).length, 2);
        await page.fill("#name", "Grace B. Hopper");
        await page.click('#update-form button[type="submit"]');
        await page.waitForSelector("#update-message.info");
        assert.equal(
          await page.textContent("#update-message"),
          "Name updated: the server issued a new session cookie.",
        );
        assert.equal(await page.textContent("#user-name"), "Grace B. Hopper");
        // A reload reads the session from the new cookie, not from the page's memory.
        await page.reload();
        await waitForState(page, "signed-in");
        assert.equal(await page.textContent("#user-name"), "Grace B. Hopper");
        await deviceRows(page, 2);
        await page.click("#devices li:not([data-current]) button.end-session");
        await deviceRows(page, 1);
        assert.equal(
          await page.textContent("#devices-message"),
          "Ended the session of Safari on iOS.",
        );

        // The phone's tab is stale: its save gets 401 and the page shows it signed out.
        await phone.page.fill("#name", "Someone else");
        await phone.page.click('#update-form button[type="submit"]');
        await waitForState(phone.page, "signed-out");
        assert.match(
          await phone.page.textContent("#signed-out-message") ?? "",
          /^Your session has ended/,
        );

        // Signed in again on the phone, then "sign out everywhere" from the desk.
        await signInAsGrace(phone.page, server.url);
        await page.reload();
        await waitForState(page, "signed-in");
        await deviceRows(page, 2);
        await page.click("#sign-out-everywhere");
        await waitForState(page, "signed-out");
        assert.equal(
          await page.textContent("#signed-out-message"),
          "Signed out everywhere: 2 sessions ended.",
        );
        await phone.page.reload();
        await waitForState(phone.page, "signed-out");

        // Plain sign-out, with its message next to the sign-in forms.
        await signInAsGrace(page, server.url);
        await page.click("#sign-out");
        await waitForState(page, "signed-out");
        assert.equal(await page.textContent("#signed-out-message"), "Signed out.");
        await page.reload();
        await waitForState(page, "signed-out");
        assert.deepEqual([...desk.problems, ...phone.problems], []);
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
      withBrowser(async (open) => {
        const { page, problems } = await open();
        await page.goto(`${server.url}/`);
        await waitForState(page, "signed-out");
        assert.match(await page.textContent("#runtime") ?? "", /^Node \d/);

        // A wrong password is refused with the server's error.
        await page.fill('#credentials-form input[name="username"]', "demo");
        await page.fill('#credentials-form input[name="password"]', "not-the-password");
        await page.click('#credentials-form button[type="submit"]');
        await page.waitForSelector("#credentials-message.error");
        assert.match(
          await page.textContent("#credentials-message") ?? "",
          /^access_denied: .*\(HTTP 401\)$/,
        );

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
        assert.equal(
          await page.textContent("#signed-in-message"),
          "Account created; you are signed in.",
        );
        await page.click("#sign-out");
        await waitForState(page, "signed-out");

        await page.click("#oauth-sign-in");
        await page.waitForURL((url) => url.pathname === "/mock-oauth/authorize");
        await page.click('button[value="deny"]');
        await page.waitForURL(`${server.url}/`);
        await page.waitForSelector("#oauth-message.error");
        assert.match(await page.textContent("#oauth-message") ?? "", /^access_denied: /);
        await waitForState(page, "signed-out");
        await screenshot(page, "demo_consent_denied");
        assert.deepEqual(problems, []);
      }));
  },
});

Deno.test({
  name:
    "chromium, form_post: the mock's page posts the response to the callback by itself and signs in",
  ignore: missingTool("chromium"),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    // The app and the mock on two loopback ports: two origins of one site, as a provider
    // on another origin posts to the app (its CSP allows only the page's own script).
    const holder: { mock?: MockProvider } = {};
    const provider = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      (request) => holder.mock!.handler(request),
    );
    const mock = holder.mock = createMockProvider({
      baseURL: `http://127.0.0.1:${provider.addr.port}`,
      responseMode: "form_post",
      users: [{ sub: "mock-grace", name: "Grace Hopper", email: "grace@example.com" }],
    });
    const auth = createAuth({
      oauth: [mock.provider],
      secret: "browser-form-post-secret-0123456789abcdef",
      logger: false,
    });
    const app = Deno.serve(
      { hostname: "127.0.0.1", port: 0, onListen() {} },
      (request) =>
        new URL(request.url).pathname.startsWith("/auth/")
          ? auth.handlers.ALL(request)
          : new Response("<!doctype html><title>done</title><p id=done>done</p>", {
            headers: { "Content-Type": "text/html; charset=utf-8" },
          }),
    );
    const origin = `http://127.0.0.1:${app.addr.port}`;
    try {
      await withBrowser(async (open) => {
        const { page, problems } = await open();
        const posts: string[] = [];
        page.on("request", (request) => {
          if (request.method() === "POST") posts.push(new URL(request.url()).pathname);
        });
        await page.goto(`${origin}/auth/signIn/mock?redirectTo=%2Fdone`);
        await page.waitForSelector("#done");
        assert.equal(new URL(page.url()).pathname, "/done");
        assert.deepEqual(posts, ["/auth/callback/mock"]);
        const session = await page.evaluate(async () => (await fetch("/auth/session")).json());
        assert.equal(session?.user?.sub, "mock-grace");
        assert.deepEqual(problems, []);
      });
    } finally {
      await app.shutdown();
      await provider.shutdown();
    }
  },
});
