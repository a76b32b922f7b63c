// nOAuth: a provider that says an address is unverified gives no email, in the
// default mapping and in every built-in mapper that has such a flag; the ones
// that document a flag need it to say verified.
import assert from "node:assert/strict";
import type { BuiltInProviderId } from "../../../src/oauth/types.ts";
import { builtInProviders } from "../../../src/oauth/providers/mod.ts";
import { defaultProfile, oidcUser, verifiedEmail } from "../../../src/oauth/profile.ts";
import { context } from "./_helpers.ts";

const EMAIL = "victim@corp.example";

interface FlagCase {
  id: BuiltInProviderId;
  /** The user-info object with the given flag value (`undefined`: flag absent). */
  raw: (flag: unknown) => Record<string, unknown>;
  /** The value that means verified. */
  verified: unknown;
}

function oidc(flagName = "email_verified") {
  return (flag: unknown) => {
    const raw: Record<string, unknown> = { sub: "s-1", email: EMAIL };
    if (flag !== undefined) raw[flagName] = flag;
    return raw;
  };
}

const FLAGGED: FlagCase[] = [
  ...(["google", "apple", "linkedin", "slack", "twitch", "kakao", "salesforce", "yahoo"] as const)
    .map((id) => ({ id, raw: oidc(), verified: true })),
  ...(["okta", "auth0", "keycloak", "cognito"] as const).map((id) => ({
    id,
    raw: oidc(),
    verified: true,
  })),
  { id: "microsoft", raw: oidc("xms_edov"), verified: true },
  {
    id: "discord",
    raw: (flag) => ({ id: "80351110224678912", username: "nelly", email: EMAIL, verified: flag }),
    verified: true,
  },
  {
    id: "dropbox",
    raw: (flag) => ({ account_id: "dbid:1", email: EMAIL, email_verified: flag }),
    verified: true,
  },
  {
    id: "zoom",
    raw: (flag) => ({ id: "z-1", email: EMAIL, verified: flag }),
    verified: 1,
  },
  {
    id: "patreon",
    raw: (flag) => ({
      data: { id: "1", attributes: { email: EMAIL, is_email_verified: flag } },
    }),
    verified: true,
  },
];

for (const { id, raw, verified } of FLAGGED) {
  Deno.test(`${id} gives the email when its flag says verified`, async () => {
    const user = await builtInProviders[id].profile(raw(verified), context());
    assert.equal(user.email, EMAIL);
  });

  for (const flag of [false, "false", "FALSE", undefined, null, 0, "0", "yes"]) {
    Deno.test(`${id} gives no email when its flag is ${JSON.stringify(flag) ?? "absent"}`, async () => {
      const user = await builtInProviders[id].profile(raw(flag), context());
      assert.equal("email" in user, false);
    });
  }
}

Deno.test('apple and cognito accept the string "true" as verified', async () => {
  for (const id of ["apple", "cognito"] as const) {
    const user = await builtInProviders[id].profile(
      { sub: "s", email: EMAIL, email_verified: "true" },
      context(),
    );
    assert.equal(user.email, EMAIL, id);
  }
});

Deno.test('zoom takes only the number 1 as verified, not true or "1"', async () => {
  for (const verified of [true, "1", 2]) {
    const user = await builtInProviders.zoom.profile(
      { id: "z", email: EMAIL, verified },
      context(),
    );
    assert.equal("email" in user, false, String(verified));
  }
});

Deno.test("microsoft ignores email_verified: only xms_edov vouches for the address", async () => {
  const user = await builtInProviders.microsoft.profile(
    { sub: "s", email: EMAIL, email_verified: true },
    context(),
  );
  assert.equal("email" in user, false);
});

Deno.test("microsoft never takes preferred_username as the email", async () => {
  const user = await builtInProviders.microsoft.profile(
    { sub: "s", preferred_username: EMAIL, xms_edov: true },
    context(),
  );
  assert.equal("email" in user, false);
  assert.equal(user.name, EMAIL);
});

Deno.test("atlassian drops the email only when email_verified says false", async () => {
  for (const [flag, kept] of [[false, false], ["false", false], [true, true], [undefined, true]]) {
    const user = await builtInProviders.atlassian.profile(
      { account_id: "a", email: EMAIL, email_verified: flag },
      context(),
    );
    assert.equal("email" in user, kept, String(flag));
  }
});

Deno.test("gitlab gives the email of an account confirmed at a timestamp", async () => {
  const user = await builtInProviders.gitlab.profile(
    { id: 1, email: EMAIL, confirmed_at: "2015-07-20T20:19:42.000Z" },
    context(),
  );
  assert.equal(user.email, EMAIL);
});

for (const confirmedAt of [null, undefined, "", "yes", true, 1437423582, "2015-13-45T99:00:00Z"]) {
  Deno.test(`gitlab gives no email when confirmed_at is ${JSON.stringify(confirmedAt) ?? "absent"}`, async () => {
    const raw: Record<string, unknown> = { id: 1, email: EMAIL };
    if (confirmedAt !== undefined) raw.confirmed_at = confirmedAt;
    const user = await builtInProviders.gitlab.profile(raw, context());
    assert.equal("email" in user, false);
  });
}

Deno.test("spotify never gives its documented-unverified email", async () => {
  const user = await builtInProviders.spotify.profile({ id: "w", email: EMAIL }, context());
  assert.equal("email" in user, false);
});

Deno.test("providers without an email keep none even when the response has one", async () => {
  const cases: [BuiltInProviderId, Record<string, unknown>][] = [
    ["reddit", { id: "1", name: "spez", email: EMAIL }],
    ["strava", { id: 1, email: EMAIL }],
    ["roblox", { sub: "1", email: EMAIL, email_verified: true }],
    ["tiktok", { data: { user: { open_id: "o", email: EMAIL } } }],
  ];
  for (const [id, raw] of cases) {
    const user = await builtInProviders[id].profile(raw, context());
    assert.equal("email" in user, false, id);
  }
});

Deno.test('the default mapping drops the email when email_verified is false or "false"', () => {
  for (const flag of [false, "false", "False", " false "]) {
    const user = defaultProfile({ sub: "1", email: EMAIL, email_verified: flag });
    assert.equal("email" in user, false, JSON.stringify(flag));
  }
});

Deno.test("the default mapping keeps the email when email_verified is true or absent", () => {
  assert.equal(defaultProfile({ sub: "1", email: EMAIL, email_verified: true }).email, EMAIL);
  assert.equal(defaultProfile({ sub: "1", email: EMAIL, email_verified: "true" }).email, EMAIL);
  assert.equal(defaultProfile({ sub: "1", email: EMAIL }).email, EMAIL);
});

Deno.test("verifiedEmail with required needs the flag to say true", () => {
  assert.equal(verifiedEmail(EMAIL, true, { required: true }), EMAIL);
  assert.equal(verifiedEmail(EMAIL, undefined, { required: true }), undefined);
  assert.equal(verifiedEmail(EMAIL, "false", { required: false }), undefined);
});

Deno.test("oidcUser never takes an unchecked address even when verified", () => {
  const user = oidcUser(
    { sub: "1", email: "victim@corp.example,attacker@evil.test", email_verified: true },
    "Test",
    { requireVerified: true },
  );
  assert.equal("email" in user, false);
});
