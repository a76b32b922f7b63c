/**
 * The email guide (docs/email.md) runs as written: its module is
 * examples/email/auth.ts byte for byte (docs_test.ts checks that), imported
 * here with the environment the guide names, its `db` filled, and its mail
 * delivered by its own nodemailer `send` to a real SMTP server on a free
 * loopback port. Sign-in by link, sign-up with verification, and a password
 * reset then work through the handlers.
 *
 * @module
 */

import assert from "node:assert/strict";
// deno-lint-ignore no-import-prefix -- dev-only test dependency.
import { SMTPServer } from "npm:smtp-server@3";
import { Browser } from "../server/_helpers.ts";

const ORIGIN = "http://localhost:8000";

/** A real SMTP server that keeps the text of every message it accepts. */
async function startSmtp(): Promise<{ port: number; inbox: string[]; close(): Promise<void> }> {
  const inbox: string[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, _session, callback) {
      let raw = "";
      stream.on("data", (chunk: Uint8Array) => raw += new TextDecoder().decode(chunk));
      stream.on("end", () => {
        // Quoted-printable soft breaks and escapes undone, so that links read whole.
        inbox.push(
          raw.replace(/=\r\n/g, "").replace(
            /=([0-9A-F]{2})/g,
            (_, hex) => String.fromCharCode(parseInt(hex, 16)),
          ),
        );
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
  return { port, inbox, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The token of the last message's link to `path`. */
function tokenIn(message: string | undefined, path: string): string {
  const match = new RegExp(`${ORIGIN}${path}\\?token=([A-Za-z0-9._~%-]+)`).exec(message ?? "");
  assert.ok(match, `a ${path} link in:\n${message}`);
  return decodeURIComponent(match[1]);
}

async function post(browser: Browser, path: string, json: unknown): Promise<Response> {
  const token = await browser.csrf();
  return await browser.fetch("POST", path, { json, headers: { "X-CSRF-Token": token } });
}

Deno.test("the email guide's module runs as written: link sign-in, sign-up with verification, reset", async () => {
  const smtp = await startSmtp();
  const env = {
    AUTH_SECRET: "email-guide-secret-0123456789-abcdefghij",
    AUTH_URL: ORIGIN,
    SMTP_HOST: "127.0.0.1",
    SMTP_PORT: String(smtp.port),
  };
  for (const [name, value] of Object.entries(env)) Deno.env.set(name, value);
  try {
    const { auth, db } = await import("../../examples/email/auth.ts");
    await db.insert("ada@example.com", "Ada", "first password");

    // Sign-in by link.
    const ada = new Browser(auth.handlers.ALL, ORIGIN);
    const asked = await post(ada, "/auth/signIn/email", { email: "ada@example.com" });
    assert.equal(asked.status, 200, await asked.clone().text());
    const link = tokenIn(smtp.inbox.at(-1), "/auth/callback/email");
    const signedIn = await post(ada, "/auth/callback/email", { token: link });
    assert.equal(signedIn.status, 200, await signedIn.clone().text());
    const session = await signedIn.json();
    assert.equal(session.user.email, "ada@example.com");
    assert.equal(session.user.emailVerified, true);
    assert.equal("passwordHash" in session.user, false);

    // Sign-up sends a verification link; confirming it marks the row.
    const grace = new Browser(auth.handlers.ALL, ORIGIN);
    const created = await post(grace, "/auth/signUp", {
      email: "grace@example.com",
      name: "Grace",
      password: "grace password",
    });
    assert.equal(created.status, 201, await created.clone().text());
    const verify = tokenIn(smtp.inbox.at(-1), "/auth/callback/email");
    const verified = await post(grace, "/auth/callback/email", { token: verify });
    assert.equal(verified.status, 200, await verified.clone().text());
    await verified.body?.cancel();
    assert.equal(db.userByEmail("grace@example.com")?.emailVerified, true);

    // Password reset through the emailed link, then a sign-in with the new password.
    const forgot = await post(new Browser(auth.handlers.ALL, ORIGIN), "/auth/password/forgot", {
      email: "ada@example.com",
    });
    assert.equal(forgot.status, 200);
    await forgot.body?.cancel();
    const reset = tokenIn(smtp.inbox.at(-1), "/auth/password/reset");
    const browser = new Browser(auth.handlers.ALL, ORIGIN);
    const done = await post(browser, "/auth/password/reset", {
      token: reset,
      password: "second password",
    });
    assert.equal(done.status, 200, await done.clone().text());
    await done.body?.cancel();
    const again = await post(browser, "/auth/signIn/credentials", {
      username: "ada@example.com",
      password: "second password",
    });
    assert.equal(again.status, 200, await again.clone().text());
    await again.body?.cancel();
  } finally {
    for (const name of Object.keys(env)) Deno.env.delete(name);
    await smtp.close();
  }
});
