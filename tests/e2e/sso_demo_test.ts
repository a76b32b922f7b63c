// The Deno demo's "Example Corp" single sign-on: /sso posts the address to
// POST /auth/signIn/sso, the second mock provider's consent page approves,
// and the callback signs in as example-corp:<sub>.
import assert from "node:assert/strict";
import { startServer } from "../support/server.ts";
import { CookieJar } from "../support/cookie_jar.ts";

function unescape(text: string): string {
  return text.replaceAll("&quot;", '"').replaceAll("&#39;", "'").replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">").replaceAll("&amp;", "&");
}

Deno.test({
  name: "the Deno demo: Example Corp signs in through its own provider by single sign-on",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const server = await startServer("deno", "examples/deno/main.ts");
    try {
      const jar = new CookieJar();
      const get = async (url: string) => {
        const response = await fetch(url, {
          headers: { Cookie: jar.header(url) },
          redirect: "manual",
        });
        jar.store(response, url);
        return response;
      };
      const page = await get(`${server.url}/sso`);
      assert.match(await page.text(), /action="\/auth\/signIn\/sso"/);
      const { csrfToken } = await (await get(`${server.url}/auth/csrfToken`)).json();
      const start = await fetch(`${server.url}/auth/signIn/sso`, {
        method: "POST",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Origin: server.url,
          Cookie: jar.header(`${server.url}/auth/signIn/sso`),
        },
        body: new URLSearchParams({ csrfToken, redirectTo: "/", email: "alan@example.com" }),
        redirect: "manual",
      });
      jar.store(start, `${server.url}/auth/signIn/sso`);
      assert.equal(start.status, 302);
      const authorize = start.headers.get("Location")!;
      assert.ok(authorize.startsWith(`${server.url}/example-corp-idp/`), authorize);
      const consent = await (await fetch(authorize)).text();
      const form = /<form method="post" action="([^"]+)">/.exec(consent)!;
      const fields = new URLSearchParams();
      for (
        const [, name, value] of consent.matchAll(
          /<input type="hidden" name="([^"]+)" value="([^"]*)">/g,
        )
      ) {
        fields.append(unescape(name), unescape(value));
      }
      fields.set("user", "corp-alan");
      fields.set("decision", "approve");
      const decided = await fetch(new URL(unescape(form[1]), authorize), {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: server.url },
        body: fields,
        redirect: "manual",
      });
      assert.equal(decided.status, 303);
      const callback = decided.headers.get("Location")!;
      const landed = await get(callback);
      assert.equal(landed.status, 302);
      assert.equal(landed.headers.get("Location"), "/");
      const session = await (await get(`${server.url}/auth/session`)).json();
      // The demo links accounts: the session names the linked user (a random sub, DECISIONS
      // "Enterprise sign-in"), whose one account is the organization's.
      assert.match(session.user.sub, /^[A-Za-z0-9_-]{22,}$/);
      const { accounts } = await (await get(`${server.url}/auth/accounts`)).json();
      assert.deepEqual(
        accounts.map((account: { provider: string }) => account.provider),
        ["sso:example-corp"],
      );
      assert.equal(session.user.name, "Alan Turing (Example Corp)");
    } finally {
      await server.stop();
    }
  },
});
