// What the email routes cost in Web Crypto calls (warm keys), and what they never write to logs.
import assert from "node:assert/strict";
import type { LogEntry } from "../../mod.ts";
import { countSubtle } from "../jose/_subtle.ts";
import { askSignIn, Browser, emailAuth, Outbox } from "./_helpers.ts";

function total(counts: Record<string, number>): number {
  return Object.values(counts).reduce((sum, n) => sum + n, 0);
}

Deno.test("cost: POST /signIn/email and POST /callback/email in Web Crypto calls, known and unknown alike", async () => {
  const { auth, outbox } = emailAuth();
  // Warm every derived key first: the counts are for a running server.
  const warm = new Browser(auth.handlers.ALL);
  await askSignIn(warm, "ada@example.com");
  await warm.fetch("POST", "/auth/callback/email", { json: { code: outbox.last().code } });
  const browser = new Browser(auth.handlers.ALL);
  const csrf = await browser.csrf();
  const ask = (email: string) =>
    browser.fetch("POST", "/auth/signIn/email", {
      json: { email },
      headers: { "X-CSRF-Token": csrf },
    });
  const known = await countSubtle(() => ask("ada@example.com"));
  const unknown = await countSubtle(() => ask("nobody@example.com"));
  // Link token seal 1 and code cookie seal 1 (AES-GCM); the CSRF check, the address hash and
  // the inner HS256 signatures run in JavaScript.
  assert.deepEqual(known, unknown);
  assert.equal(total(known), 2, JSON.stringify(known));
  const signedIn = await countSubtle(() =>
    new Browser(auth.handlers.ALL).fetch("POST", "/auth/callback/email", {
      json: { token: outbox.messages.at(-2)!.url.split("token=")[1] },
    })
  );
  // Token open 1 (AES-GCM; the inner signature needs no check under a self-sealing secret),
  // session seal 1 (AES-GCM); the CSRF token for the new session is made in JavaScript.
  assert.equal(total(signedIn), 2, JSON.stringify(signedIn));
  console.log(
    `Web Crypto calls: POST /signIn/email ${total(known)}, POST /callback/email ${total(signedIn)}`,
  );
});

Deno.test("logs: no token, code or address from the email flows reaches a log line", async () => {
  const lines: string[] = [];
  const outbox = new Outbox();
  const { auth } = emailAuth({
    outbox,
    config: {
      logger: { level: "debug", log: (entry: LogEntry) => lines.push(JSON.stringify(entry)) },
    },
  });
  const asker = new Browser(auth.handlers.ALL);
  await askSignIn(asker, "ada@example.com");
  const { code } = outbox.last();
  const token = outbox.lastToken();
  await asker.fetch("POST", "/auth/callback/email", { json: { code: "999999" } });
  await asker.fetch("POST", "/auth/callback/email", { json: { token: token + "x" } });
  await asker.fetch("POST", "/auth/callback/email", { json: { token } });
  await asker.fetch("POST", "/auth/callback/email", { json: { token } });
  for (let i = 0; i < 4; i++) await askSignIn(asker, "ada@example.com");
  assert.ok(lines.length > 0);
  for (const line of lines) {
    assert.ok(!line.includes(token.slice(0, 24)), line);
    assert.ok(!line.includes(code!), line);
    assert.ok(!line.includes("ada@example.com"), line);
  }
});
