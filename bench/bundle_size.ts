/**
 * What an app's bundle of this library weighs: esbuild (bundled, minified,
 * neutral platform, ESM) and gzip, for a one-provider OAuth app written two
 * ways: with `createAuth` of `core.ts` and the provider object (only that
 * provider, and no optional feature, comes along), and with a provider id
 * string (the table of every built-in and every feature come along); the
 * core app with the email feature; the core app with Google, whose
 * definition brings the OpenID Connect code; and the core app with Web
 * Crypto keys as its secret (`webCryptoKeys`). A measurement, not a timing:
 * the same sources give the same bytes.
 *
 * Run with `deno run -A bench/bundle_size.ts`.
 *
 * @module
 */

// deno-lint-ignore no-import-prefix -- dev-only bundler for the measurement.
import * as esbuild from "npm:esbuild@0.28";

const ROOT = decodeURIComponent(new URL("../", import.meta.url).pathname);

/** The one-provider app with the tree-shakable form. */
export const ONE_PROVIDER_APP = `import { createAuth, github } from "./core.ts";
export const auth = createAuth({ oauth: [github], secret: "0123456789abcdef0123456789abcdef" });
`;

/** The one-provider core app with email sign-in (`features: [email]`). */
export const EMAIL_FEATURE_APP = `import { createAuth, email, github } from "./core.ts";
export const auth = createAuth({
  oauth: [github],
  secret: "0123456789abcdef0123456789abcdef",
  features: [email],
  email: { send: (message) => console.log(message.url), findUser: () => null },
});
`;

/** The one-provider core app with an OpenID Connect built-in (brings the OIDC code itself). */
export const OIDC_PROVIDER_APP = `import { createAuth, google } from "./core.ts";
export const auth = createAuth({ oauth: [google], secret: "0123456789abcdef0123456789abcdef" });
`;

/** The one-provider core app whose secret is Web Crypto keys (`features: [webCryptoKeys]`). */
export const WEB_CRYPTO_KEYS_APP = `import { createAuth, github, webCryptoKeys } from "./core.ts";
const sign = await crypto.subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
const encrypt = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["encrypt", "decrypt"]);
export const auth = createAuth({ oauth: [github], secret: { sign, encrypt }, features: [webCryptoKeys] });
`;

/** The same app naming the provider by id. */
export const PROVIDER_ID_APP = `import { createAuth } from "./mod.ts";
export const auth = createAuth({ oauth: ["github"], secret: "0123456789abcdef0123456789abcdef" });
`;

/** A bundle and its sizes in bytes. */
export interface BundleSize {
  /** The minified bundle. */
  text: string;
  /** Bytes of the minified bundle. */
  minified: number;
  /** Bytes of the minified bundle gzipped (default level). */
  gzip: number;
}

/**
 * Bundles `source` (an app module resolved from the repository root) as
 * esbuild does for a library user and measures it.
 *
 * @example
 * ```ts ignore
 * const { gzip } = await bundleSize(ONE_PROVIDER_APP);
 * ```
 */
export async function bundleSize(source: string): Promise<BundleSize> {
  try {
    const result = await esbuild.build({
      stdin: { contents: source, resolveDir: ROOT, loader: "ts", sourcefile: "app.ts" },
      bundle: true,
      minify: true,
      platform: "neutral",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    const bytes = result.outputFiles[0].contents;
    const gzipped = await new Response(
      new Blob([new Uint8Array(bytes)]).stream().pipeThrough(new CompressionStream("gzip")),
    ).arrayBuffer();
    return {
      text: new TextDecoder().decode(bytes),
      minified: bytes.length,
      gzip: gzipped.byteLength,
    };
  } finally {
    // esbuild keeps a service process; stop it so that nothing outlives the call.
    await esbuild.stop();
  }
}

if (import.meta.main) {
  for (
    const [label, source] of [
      ["oauth: [github] (core.ts)", ONE_PROVIDER_APP],
      ["oauth: [github], features: [email] (core.ts)", EMAIL_FEATURE_APP],
      ["oauth: [google] (core.ts)", OIDC_PROVIDER_APP],
      ["oauth: [github], features: [webCryptoKeys] (core.ts)", WEB_CRYPTO_KEYS_APP],
      ['oauth: ["github"] (mod.ts)', PROVIDER_ID_APP],
    ]
  ) {
    const { minified, gzip } = await bundleSize(source);
    console.log(
      `${label}: ${(minified / 1000).toFixed(1)} kB minified, ${(gzip / 1000).toFixed(1)} kB gzip`,
    );
  }
}
