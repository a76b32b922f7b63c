// Shared fixtures for the service token tests: key pairs of every algorithm, an
// instance that issues access tokens, and a real loopback server for its JWKS.
import type { AuthConfig, User } from "../../mod.ts";
import { ADA, Browser, makeAuth } from "../server/_helpers.ts";

export { ADA, Browser };
export const GRACE: User = { sub: "user-2", name: "Grace", email: "grace@example.com" };
export const API = "https://api.example.com";

export type Alg = "ES256" | "ES384" | "RS256" | "PS256" | "EdDSA";
export const ALGS: readonly Alg[] = ["ES256", "ES384", "RS256", "PS256", "EdDSA"];

/** A fresh key pair for `alg` (private key not extractable, as an app should make it). */
export async function keyPair(alg: Alg): Promise<CryptoKeyPair> {
  const rsa = { modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" };
  const params = alg === "ES256"
    ? { name: "ECDSA", namedCurve: "P-256" }
    : alg === "ES384"
    ? { name: "ECDSA", namedCurve: "P-384" }
    : alg === "RS256"
    ? { name: "RSASSA-PKCS1-v1_5", ...rsa }
    : alg === "PS256"
    ? { name: "RSA-PSS", ...rsa }
    : { name: "Ed25519" };
  return await crypto.subtle.generateKey(params, false, ["sign", "verify"]) as CryptoKeyPair;
}

/** An instance with credentials for ada and grace, `serviceTokens` and any overrides. */
export function tokenAuth(keys: CryptoKeyPair[], overrides: Partial<AuthConfig> = {}) {
  return makeAuth({
    credentials: {
      authorize: ({ username, password }) =>
        password === "correct horse" ? (username === "grace" ? GRACE : ADA) : null,
    },
    serviceTokens: { keys },
    ...overrides,
  } as Partial<AuthConfig>);
}

/** Serves `handler` on a free loopback port; `await using` stops it. */
export function serve(handler: (request: Request) => Response | Promise<Response>) {
  const server = Deno.serve({ port: 0, hostname: "127.0.0.1", onListen: () => {} }, handler);
  const origin = `http://127.0.0.1:${server.addr.port}`;
  return {
    origin,
    server,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
    },
  };
}

/** A fetch that counts its calls (each test gets its own, so its own JWKS cache). */
export function countingFetch() {
  const calls: string[] = [];
  const fn: typeof fetch = (input, init) => {
    calls.push(String(input instanceof Request ? input.url : input));
    return fetch(input, init);
  };
  return { fetch: fn, calls };
}

/** Signs `browser` in with a password as `username` (ada by default). */
export async function passwordSignIn(browser: Browser, username = "ada"): Promise<void> {
  const token = await browser.csrf();
  const response = await browser.fetch("POST", "/auth/signIn/credentials", {
    json: { username, password: "correct horse" },
    headers: { "X-CSRF-Token": token },
  });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status}`);
  await response.body?.cancel();
}

/** base64url of bytes or text. */
export function b64url(input: Uint8Array | string): string {
  const bytes = typeof input === "string" ? new TextEncoder().encode(input) : input;
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
