// The pages a person sees look like one product: the email link's confirmation page, the
// built-in reset form and the second-step page share the error page's card and name the app.
import assert from "node:assert/strict";
import { askReset, askSignIn, Browser, emailAuth } from "./_helpers.ts";

function styleOf(html: string): string {
  const match = /<style>([^<]*)<\/style>/.exec(html);
  assert.ok(match, "the page has no style");
  return match[1];
}

/** The error page of the same instance, for its look. */
async function errorPage(browser: Browser): Promise<string> {
  const response = await browser.fetch("GET", "/auth/callback/email?token=forged", {
    headers: { Accept: "text/html" },
  });
  assert.equal(response.status, 400);
  return await response.text();
}

function assertCard(html: string, title: RegExp): void {
  assert.match(html, /<main>\n<p class="app">Acme Books<\/p>\n<h1>/);
  assert.match(html, title);
  assert.match(html, /<title>[^<]+ - Acme Books<\/title>/);
  assert.doesNotMatch(html, /<script/i);
}

Deno.test("pages: the email link's confirmation page is the error page's card with the app's name", async () => {
  const { auth, outbox } = emailAuth({
    config: { logger: { appName: "Acme Books", level: "error" } },
  });
  const browser = new Browser(auth.handlers.ALL);
  await askSignIn(browser, "ada@example.com");
  const url = new URL(outbox.last().url);
  const page = await browser.fetch("GET", url.pathname + url.search);
  assert.equal(page.status, 200);
  const html = await page.text();
  assertCard(html, /<h1>Sign in<\/h1>/);
  const error = await errorPage(browser);
  assertCard(error, /<h1>Sign-in failed<\/h1>/);
  assert.equal(styleOf(html), styleOf(error));
});

Deno.test("pages: the built-in reset form is the same card with the app's name", async () => {
  const { auth, outbox } = emailAuth({
    config: { logger: { appName: "Acme Books", level: "error" } },
  });
  const browser = new Browser(auth.handlers.ALL);
  await askReset(browser, "ada@example.com");
  const url = new URL(outbox.last().url);
  const form = await browser.fetch("GET", url.pathname + url.search);
  assert.equal(form.status, 200);
  const html = await form.text();
  assertCard(html, /<h1>Choose a new password<\/h1>/);
  assert.match(html, /<input type="password" id="password" name="password"/);
  assert.equal(styleOf(html), styleOf(await errorPage(browser)));
  const done = await browser.fetch("POST", "/auth/password/reset", {
    form: { token: url.searchParams.get("token")!, password: "a new password" },
  });
  assert.equal(done.status, 200);
  assertCard(await done.text(), /<h1>Your password was changed<\/h1>/);
});

Deno.test("pages: without an app name the card has no name line", async () => {
  const { auth, outbox } = emailAuth();
  const browser = new Browser(auth.handlers.ALL);
  await askSignIn(browser, "ada@example.com");
  const url = new URL(outbox.last().url);
  const html = await (await browser.fetch("GET", url.pathname + url.search)).text();
  assert.match(html, /<main>\n<h1>Sign in<\/h1>/);
  assert.doesNotMatch(html, /class="app"/);
});
