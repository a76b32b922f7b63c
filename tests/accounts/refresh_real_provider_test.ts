// Provider tokens against a real OpenID provider (panva's oidc-provider under
// Node) that rotates refresh tokens, issues short-lived access tokens and
// has a revocation endpoint: single-flight refresh in one process and across
// two instances sharing a real Redis, rotation kept, invalid_grant drops the
// tokens, a provider that is down gives 503 and keeps them.
import assert from "node:assert/strict";
import { AuthError } from "../../mod.ts";
import {
  type AccountBrowser,
  Clock,
  providerUnavailable,
  realProviderAuth,
  signInReal,
  startRefreshProvider,
  subOf,
} from "./_helpers.ts";

const ignore = (await providerUnavailable()) !== undefined;

Deno.test({
  name:
    "accounts, real provider: a sign-in links the account and getAccessToken answers without a refresh",
  ignore,
  fn: async () => {
    await using op = await startRefreshProvider();
    const { auth } = realProviderAuth(op);
    const browser = await signInReal(auth, "alice");
    const sub = await subOf(browser);
    assert.notEqual(sub, "alice", "a new random sub, not the provider's");
    assert.match(sub, /^[A-Za-z0-9_-]{22,}$/);
    const token = await auth.api.getAccessToken({ sub }, "oidc");
    assert.ok(token);
    assert.equal(token.tokenType.toLowerCase(), "bearer");
    assert.ok(token.expiresAt !== null && Date.parse(token.expiresAt) > Date.now());
    const again = await auth.api.getAccessToken({ request: sessionRequest(browser) }, "oidc");
    assert.equal(again?.accessToken, token.accessToken);
    assert.equal((await op.control.counts()).refresh, 0);
  },
});

function sessionRequest(browser: AccountBrowser): Request {
  return new Request("http://localhost:8000/", { headers: { Cookie: browser.cookieHeader() } });
}

Deno.test({
  name:
    "accounts, real provider: 20 concurrent calls after expiry make one refresh; the rotated refresh token is kept",
  ignore,
  fn: async () => {
    await using op = await startRefreshProvider();
    const { auth, clock } = realProviderAuth(op);
    const sub = await subOf(await signInReal(auth, "alice"));
    const first = await auth.api.getAccessToken({ sub }, "oidc");
    clock.advance(90); // 120 s tokens: within 60 s of expiry
    const results = await Promise.all(
      Array.from({ length: 20 }, () => auth.api.getAccessToken({ sub }, "oidc")),
    );
    assert.equal((await op.control.counts()).refresh, 1);
    const fresh = results[0]!.accessToken;
    assert.notEqual(fresh, first!.accessToken);
    for (const result of results) assert.equal(result?.accessToken, fresh);
    // The rotated refresh token was saved: the next refresh works with it.
    clock.advance(90);
    const next = await auth.api.getAccessToken({ sub }, "oidc");
    assert.ok(next);
    assert.notEqual(next.accessToken, fresh);
    assert.equal((await op.control.counts()).refresh, 2);
  },
});

Deno.test({
  name:
    "accounts, real provider: a revoked grant gives 401 invalid_grant, drops the tokens, then null without a call",
  ignore,
  fn: async () => {
    await using op = await startRefreshProvider();
    const { auth, clock } = realProviderAuth(op);
    const sub = await subOf(await signInReal(auth, "alice"));
    await op.control.revokeAll();
    clock.advance(90);
    const calls = await Promise.allSettled(
      Array.from({ length: 5 }, () => auth.api.getAccessToken({ sub }, "oidc")),
    );
    for (const call of calls) {
      assert.equal(call.status, "rejected");
      const error = (call as PromiseRejectedResult).reason;
      assert.ok(error instanceof AuthError);
      assert.equal(error.code, "invalid_grant");
      assert.equal(error.status, 401);
    }
    assert.equal((await op.control.counts()).refresh, 1);
    assert.equal(await auth.api.getAccessToken({ sub }, "oidc"), null);
    assert.equal((await op.control.counts()).refresh, 1, "no call once the tokens are dropped");
    const accounts = await auth.api.listAccounts(sub);
    assert.equal(accounts.length, 1, "the account stays linked");
  },
});

Deno.test({
  name: "accounts, real provider: the provider down gives 503 and keeps the tokens",
  ignore,
  fn: async () => {
    await using op = await startRefreshProvider();
    const { auth, clock } = realProviderAuth(op);
    const sub = await subOf(await signInReal(auth, "alice"));
    clock.advance(90);
    await op.control.down(true);
    await assert.rejects(
      () => auth.api.getAccessToken({ sub }, "oidc"),
      (error: unknown) =>
        error instanceof AuthError && error.status === 503 &&
        error.code === "temporarily_unavailable",
    );
    await op.control.down(false);
    const token = await auth.api.getAccessToken({ sub }, "oidc");
    assert.ok(token, "the kept refresh token still works");
    assert.equal((await op.control.counts()).refresh, 1);
  },
});

Deno.test({
  name:
    "accounts, real provider: unlinking revokes the refresh token at the provider and deletes the account",
  ignore,
  fn: async () => {
    await using op = await startRefreshProvider();
    const { auth } = realProviderAuth(op);
    const browser = await signInReal(auth, "alice");
    const sub = await subOf(browser);
    const listed = await (await browser.get("/auth/accounts")).json();
    assert.equal(listed.accounts.length, 1);
    const { provider, providerAccountId } = listed.accounts[0];
    assert.deepEqual([provider, providerAccountId], ["oidc", "alice"]);
    const response = await browser.send(
      "DELETE",
      `/auth/accounts/${provider}/${providerAccountId}`,
    );
    assert.equal(response.status, 204);
    assert.equal((await op.control.counts()).revocation, 1);
    assert.deepEqual(await auth.api.listAccounts(sub), []);
    assert.equal(await auth.api.getAccessToken({ sub }, "oidc"), null);
  },
});

export { Clock };
