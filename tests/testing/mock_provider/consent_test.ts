import assert from "node:assert/strict";
import { createMockProvider } from "../../../testing.ts";
import { authorizeURL, pkce } from "./_helpers.ts";

Deno.test("interactive mode shows a consent page with escaped values", async () => {
  const mock = createMockProvider({ interactive: true });
  const { challenge } = await pkce();
  const response = await mock.fetch(
    authorizeURL(mock, challenge, { state: '"><script>alert(1)</script>' }),
  );
  assert.equal(response.status, 200);
  assert.match(response.headers.get("content-type")!, /^text\/html/);
  const html = await response.text();
  assert.match(html, /value="approve"/);
  assert.match(html, /value="deny"/);
  assert.equal(html.includes("<script>"), false);
});

Deno.test("interactive approve and deny post back and redirect with 303", async () => {
  const mock = createMockProvider({ interactive: true });
  const { challenge } = await pkce();
  const params = new URL(authorizeURL(mock, challenge)).searchParams;
  for (const decision of ["approve", "deny"]) {
    const form = new URLSearchParams(params);
    form.set("decision", decision);
    form.set("user", mock.users[0].sub);
    const response = await mock.fetch(mock.provider.authorizeURL, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
    });
    assert.equal(response.status, 303);
    const redirect = new URL(response.headers.get("location")!).searchParams;
    if (decision === "approve") assert.ok(redirect.has("code"));
    else assert.equal(redirect.get("error"), "access_denied");
  }
});

Deno.test("interactive mode shows the 400 page for a consent form over 64 KiB", async () => {
  const mock = createMockProvider({ interactive: true });
  const response = await mock.fetch(mock.provider.authorizeURL, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: `state=${"x".repeat(64 * 1024)}`,
  });
  assert.equal(response.status, 400);
  assert.equal(response.headers.get("location"), null);
  await response.body?.cancel();
});
