// What a bundled one-provider app carries (esbuild, minified, gzip; see bench/bundle_size.ts).
// Sizes are measured bytes of a deterministic build, not timings.
import assert from "node:assert/strict";
import {
  bundleSize,
  EMAIL_FEATURE_APP,
  OIDC_PROVIDER_APP,
  ONE_PROVIDER_APP,
  PROVIDER_ID_APP,
} from "../bench/bundle_size.ts";
import { builtInProviders } from "../mod.ts";

// The budget for `oauth: [github]` with createAuth of core.ts, in gzip bytes: what it weighed once
// OpenID Connect came only with a provider that uses it and the store-less default kept only
// counters and one-time marks (50.2 kB with both in every bundle, 69.4 kB while every feature was;
// 1 kB of it the JavaScript SHA-256 that spares a Web Crypto trip per CSRF check and token
// signature), plus 1.5% for small changes. Issue 16 aims at 30 kB (see README "Develop").
const ONE_PROVIDER_GZIP_BUDGET = 46_500;

// Text that only memoryStore and the stores' validation hold: without session.store, the core's
// per-process counters and one-time marks need neither (sessions, passkeys, key checks).
const STORE_MARKERS: readonly string[] = [
  "maxSessionsPerUser", // memoryStore's options
  "a short hash of a longer value", // checkKey
  "built by the passkey routes", // checkPasskey
];

/** A core app that configures memoryStore, imported from the main entry. */
const MEMORY_STORE_APP = `import { createAuth, github } from "./core.ts";
import { memoryStore } from "./mod.ts";
export const auth = createAuth({
  oauth: [github],
  secret: "0123456789abcdef0123456789abcdef",
  session: { store: memoryStore() },
});
`;

// Text that only each optional feature's code holds (routes, messages, WebAuthn and TOTP
// internals); the cookie names and token purposes stay in the core and are no marker.
const FEATURE_MARKERS: Readonly<Record<string, readonly string[]>> = {
  email: ["signIn/email", "password/forgot", "email.send"],
  twoFactor: ["twoFactor/verify", "twoFactor.load", "otpauth"],
  passkeys: ["passkey/register", "passkeys.store", "webauthn.get", "user-handle"],
};

// Text that only the OpenID Connect code holds (discovery, JWKS and ID-token validation).
const OIDC_MARKERS: readonly string[] = [
  "/.well-known/openid-configuration",
  "JWKS has no keys array",
  "The ID token ",
  "user-info sub does not match",
];

/** The OpenID Connect markers a bundle holds. */
function oidcIn(bundle: string): string[] {
  return OIDC_MARKERS.filter((marker) => bundle.includes(marker));
}

/** The features whose markers a bundle holds (any one of them). */
function featuresIn(bundle: string): string[] {
  return Object.keys(FEATURE_MARKERS).filter((feature) =>
    FEATURE_MARKERS[feature].some((marker) => bundle.includes(marker))
  );
}

/** The markers a bundle lacks, for the features it must hold all of. */
function missingMarkers(bundle: string, features: readonly string[]): string[] {
  return features.flatMap((feature) =>
    FEATURE_MARKERS[feature].filter((marker) => !bundle.includes(marker))
  );
}

const IDS = Object.keys(builtInProviders);

/** Whether a minified bundle holds the definition of built-in `id` (its `id:"..."` property). */
function carries(bundle: string, id: string): boolean {
  return bundle.includes(`id:"${id}"`);
}

Deno.test({
  name: "a one-provider app with createAuth of core.ts bundles that provider alone",

  async fn() {
    const bundle = await bundleSize(ONE_PROVIDER_APP);
    assert.deepEqual(IDS.filter((id) => carries(bundle.text, id)), ["github"]);
    assert.deepEqual(featuresIn(bundle.text), [], "no optional feature's code");
    assert.deepEqual(
      STORE_MARKERS.filter((marker) => bundle.text.includes(marker)),
      [],
      "no memoryStore or store validation code",
    );
    assert.deepEqual(
      oidcIn(bundle.text),
      [],
      "no OpenID Connect code for a plain OAuth 2.0 provider",
    );
    assert.ok(
      bundle.gzip <= ONE_PROVIDER_GZIP_BUDGET,
      `the one-provider bundle is ${bundle.gzip} bytes gzipped; expected at most ${ONE_PROVIDER_GZIP_BUDGET}.`,
    );
  },
});

Deno.test({
  name: "a core app listing features: [email] bundles email and no other feature",

  async fn() {
    const bundle = await bundleSize(EMAIL_FEATURE_APP);
    assert.deepEqual(featuresIn(bundle.text), ["email"]);
    assert.deepEqual(missingMarkers(bundle.text, ["email"]), []);
    const lean = await bundleSize(ONE_PROVIDER_APP);
    assert.ok(lean.gzip < bundle.gzip, `${lean.gzip} < ${bundle.gzip}`);
  },
});

Deno.test({
  name: "a core app with an OpenID Connect built-in bundles the OpenID Connect code and no feature",

  async fn() {
    const bundle = await bundleSize(OIDC_PROVIDER_APP);
    assert.deepEqual(IDS.filter((id) => carries(bundle.text, id)), ["google"]);
    assert.deepEqual(oidcIn(bundle.text), OIDC_MARKERS);
    assert.deepEqual(featuresIn(bundle.text), []);
  },
});

Deno.test({
  name: "an app naming its provider by id bundles the table of every built-in and every feature",

  async fn() {
    const bundle = await bundleSize(PROVIDER_ID_APP);
    assert.deepEqual(IDS.filter((id) => carries(bundle.text, id)), IDS);
    // The markers are real: the full entry holds every one of them.
    assert.deepEqual(missingMarkers(bundle.text, Object.keys(FEATURE_MARKERS)), []);
    assert.deepEqual(oidcIn(bundle.text), OIDC_MARKERS);
    const lean = await bundleSize(ONE_PROVIDER_APP);
    assert.ok(lean.gzip < bundle.gzip, `${lean.gzip} < ${bundle.gzip}`);
  },
});

Deno.test({
  name: "a core app that configures memoryStore bundles it with the stores' validation",

  async fn() {
    const bundle = await bundleSize(MEMORY_STORE_APP);
    // The markers are real: configuring a store brings its code and its checks along.
    assert.deepEqual(STORE_MARKERS.filter((marker) => !bundle.text.includes(marker)), []);
    const lean = await bundleSize(ONE_PROVIDER_APP);
    assert.ok(lean.gzip < bundle.gzip, `${lean.gzip} < ${bundle.gzip}`);
  },
});
