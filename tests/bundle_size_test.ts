// What a bundled one-provider app carries (esbuild, minified, gzip; see bench/bundle_size.ts).
// Sizes are measured bytes of a deterministic build, not timings.
import assert from "node:assert/strict";
import { bundleSize, ONE_PROVIDER_APP, PROVIDER_ID_APP } from "../bench/bundle_size.ts";
import { builtInProviders } from "../mod.ts";

// The budget for `oauth: [github]` with createAuth of core.ts, in gzip bytes: what it weighed once
// main had email sign-in, two-factor and passkeys (69.3 kB; 58.5 kB before passkeys, 43.6 kB
// before email and two-factor), with room for small changes. Every feature's routes sit in the
// route table whether configured or not; issue 16 aims at 30 kB (see README "Develop").
const ONE_PROVIDER_GZIP_BUDGET = 71_000;

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
    assert.ok(
      bundle.gzip <= ONE_PROVIDER_GZIP_BUDGET,
      `the one-provider bundle is ${bundle.gzip} bytes gzipped; expected at most ${ONE_PROVIDER_GZIP_BUDGET}.`,
    );
  },
});

Deno.test({
  name: "an app naming its provider by id bundles the table of every built-in",

  async fn() {
    const bundle = await bundleSize(PROVIDER_ID_APP);
    assert.deepEqual(IDS.filter((id) => carries(bundle.text, id)), IDS);
    const lean = await bundleSize(ONE_PROVIDER_APP);
    assert.ok(lean.gzip < bundle.gzip, `${lean.gzip} < ${bundle.gzip}`);
  },
});
