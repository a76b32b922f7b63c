// The server API checks redirect targets with the same rules as the routes.
import assert from "node:assert/strict";
import { makeAuth, ORIGIN } from "./_helpers.ts";

const TRUSTED = "https://trusted.example.com";

Deno.test("api.signOut redirects to a trusted absolute target and refuses a foreign one", async () => {
  const auth = makeAuth({ trustedOrigins: [TRUSTED] });
  const request = new Request(`${ORIGIN}/logout`);
  const ok = await auth.api.signOut({ request, redirect: true, redirectTo: `${TRUSTED}/bye` });
  assert.equal(ok.status, 302);
  assert.equal(ok.headers.get("Location"), `${TRUSTED}/bye`);
  const foreign = await auth.api.signOut({
    request,
    redirect: true,
    redirectTo: "https://evil.example/",
  });
  assert.equal(foreign.status, 400);
  assert.equal((await foreign.json()).error, "invalid_redirect_to");
  assert.ok(foreign.headers.getSetCookie().length > 0, "the cookies are cleared even so");
});

Deno.test("api.signIn with credentials and redirect: true lands on redirectTo", async () => {
  const auth = makeAuth();
  const response = await auth.api.signIn("credentials", {
    request: new Request(`${ORIGIN}/login`),
    credentials: { username: "ada", password: "correct horse" },
    redirect: true,
    redirectTo: "/home",
  });
  assert.equal(response.status, 302);
  assert.equal(response.headers.get("Location"), "/home");
  assert.ok(
    response.headers.getSetCookie().some((line) => line.startsWith("service-stack.session_token=")),
  );
});
