/**
 * Email sign-in end to end through real parts: a real SMTP server (npm
 * `smtp-server`, started here on a free loopback port) receives what the
 * example's nodemailer `send` delivers; the link read from the received
 * message is opened in headless Chromium, whose click on the confirmation
 * button signs the browser in. The Chromium part is ignored, with a
 * `skipped:` line, when Chromium is missing.
 *
 * @module
 */

import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency.
import { SMTPServer } from "npm:smtp-server@3";
// deno-lint-ignore no-import-prefix -- dev-only test dependency.
import { chromium } from "npm:playwright-core@1";
import { createAuth, type User } from "../../mod.ts";
import { smtpSend } from "../../examples/email/smtp_send.mjs";
import { missingTool, toolPath } from "../support/tools.ts";

const SECRET = "smtp-test-secret-0123456789abcdef-0123456789";
const ADA: User = { sub: "user-ada", name: "Ada", email: "ada@example.com" };

/** A received message: envelope recipients and the raw RFC 5322 text. */
interface Received {
  to: string[];
  raw: string;
}

/** A real SMTP server on a free loopback port that keeps every message it accepts. */
async function startSmtp(): Promise<{ port: number; inbox: Received[]; close(): Promise<void> }> {
  const inbox: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Uint8Array[] = [];
      stream.on("data", (chunk: Uint8Array) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = new TextDecoder().decode(
          chunks.reduce((all, chunk) => {
            const joined = new Uint8Array(all.length + chunk.length);
            joined.set(all);
            joined.set(chunk, all.length);
            return joined;
          }, new Uint8Array()),
        );
        inbox.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.server.address();
      if (address === null || typeof address === "string") reject(new Error("no port"));
      else resolve(address.port);
    });
  });
  return {
    port,
    inbox,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The body of a plain-text message, with quoted-printable soft breaks and escapes undone. */
function bodyOf(raw: string): string {
  const body = raw.slice(raw.indexOf("\r\n\r\n") + 4);
  const qp = /Content-Transfer-Encoding:\s*quoted-printable/i.test(raw);
  if (!qp) return body;
  return body.replace(/=\r\n/g, "").replace(
    /=([0-9A-F]{2})/g,
    (_, hex) => String.fromCharCode(parseInt(hex, 16)),
  );
}

async function withApp(
  fn: (app: { origin: string; inbox: Received[] }) => Promise<void>,
): Promise<void> {
  const smtp = await startSmtp();
  const auth = createAuth({
    oauth: [],
    secret: SECRET,
    logger: false,
    env: {},
    email: {
      send: smtpSend({ host: "127.0.0.1", port: smtp.port, from: "auth@example.com" }),
      findUser: (email) => (email.toLowerCase() === ADA.email ? ADA : null),
    },
  });
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (request) => {
      const path = new URL(request.url).pathname;
      if (path.startsWith("/auth/")) return auth.handlers.ALL(request);
      return new Response("<!doctype html><title>Home</title><p>Home</p>", {
        headers: { "Content-Type": "text/html" },
      });
    },
  );
  try {
    await fn({ origin: `http://127.0.0.1:${server.addr.port}`, inbox: smtp.inbox });
  } finally {
    await server.shutdown();
    await smtp.close();
  }
}

/** Asks for a sign-in email over HTTP as a page would: CSRF token, then the POST. */
async function askSignIn(origin: string, email: string): Promise<Response> {
  const csrf = await fetch(`${origin}/auth/csrfToken`);
  const cookie = csrf.headers.getSetCookie().map((line) => line.split(";")[0]).join("; ");
  const { csrfToken } = await csrf.json();
  return await fetch(`${origin}/auth/signIn/email`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken, Cookie: cookie },
    body: JSON.stringify({ email }),
  });
}

Deno.test("SMTP: nodemailer delivers the sign-in message with its link and code to a real SMTP server", async () => {
  await withApp(async ({ origin, inbox }) => {
    const response = await askSignIn(origin, "ada@example.com");
    assert.equal(response.status, 200);
    await response.body?.cancel();
    assert.equal(inbox.length, 1);
    assert.deepEqual(inbox[0].to, ["ada@example.com"]);
    assert.match(inbox[0].raw, /^Subject: Your sign-in link/m);
    const body = bodyOf(inbox[0].raw);
    assert.match(body, new RegExp(`${origin}/auth/callback/email\\?token=[A-Za-z0-9._~%-]+`));
    assert.match(body, /code: \d{6}/);
    // An unknown address gets the no-account notice through the same transport.
    await (await askSignIn(origin, "nobody@example.com")).body?.cancel();
    assert.equal(inbox.length, 2);
    assert.match(inbox[1].raw, /^Subject: Sign-in attempt/m);
  });
});

Deno.test({
  name: "SMTP + Chromium: the link from the received message opens a page whose button signs in",
  ignore: missingTool("chromium"),
  fn: async () => {
    await withApp(async ({ origin, inbox }) => {
      await (await askSignIn(origin, "ada@example.com")).body?.cancel();
      const link = bodyOf(inbox[0].raw).match(/https?:\/\/\S+token=[A-Za-z0-9._~%-]+/)?.[0];
      assert.ok(link, "the message carries a link");
      const browser = await chromium.launch({
        executablePath: toolPath("chromium"),
        headless: true,
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--no-first-run",
        ],
        timeout: 30_000,
      });
      try {
        const context = await browser.newContext();
        const page = await context.newPage();
        // The browser's own cookies, read outside the page (its CSP allows no fetch).
        const session = async () =>
          await (await context.request.get(`${origin}/auth/session`)).json();
        page.setDefaultTimeout(10_000);
        await page.goto(link);
        assert.equal(await page.title(), "Sign in");
        // Opening the link signed nothing in.
        assert.equal(await session(), null);
        await Promise.all([page.waitForURL(`${origin}/`), page.click("button[type=submit]")]);
        const signedIn = await session();
        assert.equal(signedIn.user.sub, ADA.sub);
        assert.equal(signedIn.user.emailVerified, true);
        // The same link, opened again, is used up.
        await page.goto(link);
        await page.click("button[type=submit]");
        assert.match(await page.content(), /already used/);
      } finally {
        await browser.close();
      }
    });
  },
});

Deno.test("docs/email.md: the email guide's nodemailer send is the tested example, byte for byte", async () => {
  const guide = await Deno.readTextFile(new URL("../../docs/email.md", import.meta.url));
  const example = await Deno.readTextFile(
    new URL("../../examples/email/smtp_send.mjs", import.meta.url),
  );
  const blocks = [...guide.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
  assert.ok(
    blocks.includes(example),
    "docs/email.md has a js block equal to examples/email/smtp_send.mjs",
  );
});
