/**
 * Headless Chromium through the demo's email flows, reading every message
 * from the development outbox page the way a developer would: sign-in by
 * link and by code, verification, change of address, and a password reset
 * through the demo page's own form. On the Deno demo (bundled client) and
 * the Node demo (the npm build's client modules). Ignored, with a `skipped:
 * no chromium` line, when Chromium is missing.
 *
 * @module
 */

import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency; deno.json has no import map.
import { type BrowserContext, chromium, type Page } from "npm:playwright-core@1";
import { stageApp } from "../support/npm_package.ts";
import { type RunningServer, startServer } from "../support/server.ts";
import { missingTool, toolPath } from "../support/tools.ts";
import { demoPassword } from "../runtimes/_demo_flow.ts";
import { CHROMIUM_ARGS, NO_SECRET, screenshot, waitForState, withServer } from "./_chromium.ts";

/** One message as the outbox page shows it. */
interface OutboxMessage {
  kind: string;
  to: string;
  url: string;
  code: string | null;
  expires: string | null;
}

/** The demo page and the outbox page in one browser (the same cookies), and what they logged. */
interface Tabs {
  page: Page;
  outbox: Page;
  problems: string[];
}

async function withTabs(fn: (tabs: Tabs) => Promise<void>): Promise<void> {
  const browser = await chromium.launch({
    executablePath: toolPath("chromium"),
    headless: true,
    args: CHROMIUM_ARGS,
    timeout: 30_000,
  });
  let context: BrowserContext | undefined;
  try {
    context = await browser.newContext({ viewport: { width: 900, height: 1000 } });
    const problems: string[] = [];
    const tab = async () => {
      const page = await context!.newPage();
      page.setDefaultTimeout(30_000);
      page.on("pageerror", (error) => problems.push(`pageerror: ${error.message}`));
      page.on("console", (message) => {
        if (message.type() === "error" && !/status of 40[01] /.test(message.text())) {
          problems.push(`console: ${message.text()}`);
        }
      });
      return page;
    };
    await fn({ page: await tab(), outbox: await tab(), problems });
  } finally {
    await context?.close();
    await browser.close();
  }
}

/** Reloads the outbox page and answers its newest message, which must be of `kind` to `to`. */
async function newestMessage(
  outbox: Page,
  origin: string,
  expected: { kind: string; to: string },
): Promise<OutboxMessage> {
  await outbox.goto(`${origin}/demo/outbox`);
  assert.equal(
    await outbox.textContent("#outbox-banner"),
    "Development outbox: these messages were not sent; a real app delivers them through email.send.",
  );
  const message = await outbox.$eval(".outbox-message", (item) => ({
    kind: item.querySelector(".outbox-kind")?.textContent ?? "",
    to: item.querySelector(".outbox-to")?.textContent ?? "",
    url: item.querySelector<HTMLAnchorElement>("a.outbox-link")?.href ?? "",
    code: item.querySelector(".outbox-code")?.textContent ?? null,
    expires: item.querySelector("time")?.getAttribute("datetime") ?? null,
  }));
  assert.deepEqual({ kind: message.kind, to: message.to }, expected);
  // Links live 10 minutes (a reset link 1 hour): the outbox shows when each one ends.
  const left = Date.parse(message.expires ?? "") - Date.now();
  assert.ok(left > 0 && left <= 3_600_000, `expires ${message.expires}`);
  return message;
}

/** Opens a link from the outbox in the demo's tab and presses the confirmation page's button. */
async function followLink(page: Page, url: string, button: string): Promise<void> {
  await page.goto(url);
  await page.click(`button:text-is("${button}")`);
}

async function signInWithPassword(page: Page, username: string, password: string) {
  await page.fill('#credentials-form input[name="username"]', username);
  await page.fill('#credentials-form input[name="password"]', password);
  await page.click('#credentials-form button[type="submit"]');
}

async function signOut(page: Page): Promise<void> {
  await page.click("#sign-out");
  await waitForState(page, "signed-out");
}

/** The whole email tour of the demo at `server`. */
async function emailTour(server: RunningServer, tabs: Tabs, label: string): Promise<void> {
  const { page, outbox, problems } = tabs;
  const origin = server.url;
  const password = demoPassword(server.output());
  await page.goto(`${origin}/`);
  await waitForState(page, "signed-out");
  assert.equal(await page.getAttribute("#outbox-link", "href"), "/demo/outbox");

  // Sign-in by link: the link from the outbox opens a page whose one button signs in.
  await page.fill('#email-form input[name="email"]', "demo@example.com");
  await page.click('#email-form button[type="submit"]');
  await page.waitForSelector("#email-message.info");
  assert.ok(await page.isVisible("#email-code-form"));
  const link = await newestMessage(outbox, origin, { kind: "sign-in", to: "demo@example.com" });
  assert.match(link.url, new RegExp(`^${origin}/auth/callback/email\\?token=`));
  assert.match(link.code ?? "", /^\d{6}$/);
  await screenshot(outbox, `email_outbox_${label}`);
  await followLink(page, link.url, "Sign in");
  await waitForState(page, "signed-in");
  // The page renders the state, then drops the query from the address bar.
  await page.waitForFunction(() => location.pathname + location.search === "/");
  assert.equal(await page.textContent("#signed-in-message"), "Signed in with the emailed link.");
  assert.equal(await page.textContent("#user-name"), "Demo User");
  assert.equal(await page.textContent("#email-verified"), "verified");
  assert.ok(!(await page.isVisible("#verify-email")));
  assert.equal(JSON.parse(await page.textContent("#session") ?? "null").user.emailVerified, true);
  await signOut(page);

  // Sign-in by code, typed in the browser that asked.
  await page.fill('#email-form input[name="email"]', "demo@example.com");
  await page.click('#email-form button[type="submit"]');
  await page.waitForSelector("#email-code-form:not([hidden])");
  const coded = await newestMessage(outbox, origin, { kind: "sign-in", to: "demo@example.com" });
  assert.notEqual(coded.code, link.code);
  await page.fill(
    '#email-code-form input[name="code"]',
    "000000" === coded.code ? "111111" : "000000",
  );
  await page.click('#email-code-form button[type="submit"]');
  await page.waitForSelector("#email-code-message.error");
  assert.match(await page.textContent("#email-code-message") ?? "", /^invalid_grant: /);
  await page.fill('#email-code-form input[name="code"]', coded.code ?? "");
  await page.click('#email-code-form button[type="submit"]');
  await waitForState(page, "signed-in");
  assert.equal(await page.textContent("#signed-in-message"), "Signed in with the emailed code.");
  assert.equal(await page.textContent("#user-email"), "demo@example.com");
  await signOut(page);
  assert.ok(!(await page.isVisible("#email-code-form")));

  // Sign-up with an address: not verified yet; "Verify my email" sends a link that verifies it.
  await page.fill('#sign-up-form input[name="name"]', "Katherine Johnson");
  await page.fill('#sign-up-form input[name="email"]', "katherine@example.com");
  await page.fill('#sign-up-form input[name="username"]', "katherine");
  await page.fill('#sign-up-form input[name="password"]', "orbit-1962!");
  await page.click('#sign-up-form button[type="submit"]');
  await waitForState(page, "signed-in");
  assert.equal(await page.textContent("#user-email"), "katherine@example.com");
  assert.equal(await page.textContent("#email-verified"), "not verified");
  await newestMessage(outbox, origin, { kind: "verify-email", to: "katherine@example.com" });
  await page.click("#verify-email");
  await page.waitForSelector("#verify-email-message.info");
  const verify = await newestMessage(outbox, origin, {
    kind: "verify-email",
    to: "katherine@example.com",
  });
  assert.equal(verify.code, null);
  await followLink(page, verify.url, "Confirm");
  await waitForState(page, "signed-in");
  assert.equal(await page.textContent("#email-verified"), "verified");
  assert.ok(!(await page.isVisible("#verify-email")));
  assert.equal(JSON.parse(await page.textContent("#session") ?? "null").user.emailVerified, true);

  // Change of address: confirmed from the new address, the old one told afterwards.
  await page.fill('#change-email-form input[name="email"]', "kj@example.com");
  await page.click('#change-email-form button[type="submit"]');
  await page.waitForSelector("#change-email-message.info");
  assert.equal(await page.textContent("#user-email"), "katherine@example.com");
  const change = await newestMessage(outbox, origin, {
    kind: "change-email",
    to: "kj@example.com",
  });
  await followLink(page, change.url, "Confirm");
  await waitForState(page, "signed-in");
  assert.equal(await page.textContent("#user-email"), "kj@example.com");
  assert.equal(await page.textContent("#email-verified"), "verified");
  await newestMessage(outbox, origin, { kind: "email-changed", to: "katherine@example.com" });
  await screenshot(page, `email_signed_in_${label}`);
  await signOut(page);

  // Password reset: the link opens the demo page's own form; the token leaves the address bar.
  await page.fill('#forgot-form input[name="email"]', "demo@example.com");
  await page.click('#forgot-form button[type="submit"]');
  await page.waitForSelector("#forgot-message.info");
  const reset = await newestMessage(outbox, origin, {
    kind: "reset-password",
    to: "demo@example.com",
  });
  assert.match(reset.url, new RegExp(`^${origin}/reset-password\\?token=`));
  await page.goto(reset.url);
  await waitForState(page, "signed-out");
  await page.waitForSelector("#reset-form:not([hidden])");
  assert.equal(page.url(), `${origin}/`);
  await page.fill('#reset-form input[name="password"]', "a-brand-new-password");
  await page.click('#reset-form button[type="submit"]');
  await page.waitForSelector("#signed-out-message.info");
  assert.equal(
    await page.textContent("#signed-out-message"),
    "Password changed. Sign in with the new password.",
  );
  assert.ok(!(await page.isVisible("#reset-form")));
  // The old password fails, the new one signs in.
  await signInWithPassword(page, "demo", password);
  await page.waitForSelector("#credentials-message.error");
  assert.match(await page.textContent("#credentials-message") ?? "", /^access_denied: /);
  await signInWithPassword(page, "demo", "a-brand-new-password");
  await waitForState(page, "signed-in");
  assert.equal(await page.textContent("#user-name"), "Demo User");
  // The used link is refused when opened again.
  await page.goto(reset.url);
  await page.fill('#reset-form input[name="password"]', "yet-another-password");
  await page.click('#reset-form button[type="submit"]');
  await page.waitForSelector("#reset-message.error");
  assert.match(await page.textContent("#reset-message") ?? "", /^invalid_grant: /);
  assert.deepEqual(problems, []);
}

Deno.test({
  name:
    "chromium on the Deno demo: email sign-in by link and by code, verification, change of address, password reset, all read from the outbox",
  ignore: missingTool("chromium"),
  // Playwright keeps its own timers and pipes around the browser's lifetime.
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    const server = await startServer("deno", "examples/deno/main.ts", { env: NO_SECRET });
    await withServer(server, () => withTabs((tabs) => emailTour(server, tabs, "deno")));
  },
});

Deno.test({
  name: "chromium on the Node demo: the same email tour with the npm build's client",
  ignore: missingTool("chromium") || missingTool("node"),
  sanitizeOps: false,
  sanitizeResources: false,
  async fn() {
    await using app = await stageApp("examples");
    const server = await startServer("node", "node/server.mjs", { cwd: app.dir, env: NO_SECRET });
    await withServer(server, () => withTabs((tabs) => emailTour(server, tabs, "node")));
  },
});
