// emailVerified on a provider sign-in: true only for the address the provider vouched for.
import assert from "node:assert/strict";
import { ORIGIN, setupMock, signInThrough } from "./_flow_helpers.ts";

async function sessionUser(
  options: Parameters<typeof setupMock>[0],
): Promise<Record<string, unknown>> {
  const { mock, browser } = setupMock(options);
  const callback = await signInThrough(browser, mock);
  assert.equal(callback.status, 302);
  const session = await (await browser.get("/auth/session")).json();
  assert.ok(session, `no session at ${ORIGIN}`);
  return session.user;
}

Deno.test("OIDC: email_verified true marks the session's address verified", async () => {
  const user = await sessionUser({
    mock: { users: [{ sub: "u1", name: "Ada", email: "ada@example.com", email_verified: true }] },
  });
  assert.equal(user.email, "ada@example.com");
  assert.equal(user.emailVerified, true);
});

Deno.test("OAuth without a verification flag: the email is kept but not marked verified", async () => {
  const user = await sessionUser({
    mock: { oidc: false, users: [{ sub: "u2", name: "Bob", email: "bob@example.com" }] },
  });
  assert.equal(user.email, "bob@example.com");
  assert.equal(user.emailVerified, undefined);
});

Deno.test("a profile mapper that returns another address than the verified one gets no mark", async () => {
  const { mock } = setupMock();
  const user = await sessionUser({
    mock: { users: [{ sub: "u3", email: "carol@example.com", email_verified: true }] },
    auth: {
      oauth: [{
        ...mock.provider,
        profile: (p) => ({ sub: String(p.sub), email: "other@example.com" }),
      }],
    },
  });
  assert.equal(user.email, "other@example.com");
  assert.equal(user.emailVerified, undefined);
});

Deno.test("a profile or a sign-in hook cannot set emailVerified itself", async () => {
  const user = await sessionUser({
    mock: { oidc: false, users: [{ sub: "u4", email: "dan@example.com" }] },
    auth: { callbacks: { signIn: ({ user }) => ({ ...user, emailVerified: true }) } },
  });
  assert.equal(user.emailVerified, undefined);
});
