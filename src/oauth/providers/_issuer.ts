/**
 * The `issuer` option of the issuer-based built-ins (Okta, Auth0, Keycloak,
 * Cognito, Salesforce): checked and brought to the exact form the
 * provider's discovery document and ID tokens use.
 *
 * @module
 */

function fail(message: string): never {
  throw new TypeError(`createAuth: ${message}`);
}

/**
 * Returns the issuer in its canonical spelling: `https:` (plain `http:` only
 * on a loopback host), no credentials, query or fragment, with the trailing
 * slash the provider uses (`trailingSlash: true` for Auth0) or without one.
 * `pattern`, when given, must match the URL without its trailing slash.
 *
 * @example
 * ```ts
 * import { canonicalIssuer } from "./_issuer.ts";
 *
 * canonicalIssuer("https://example.us.auth0.com", { id: "auth0", trailingSlash: true, example: "https://example.us.auth0.com/" });
 * // "https://example.us.auth0.com/"
 * ```
 */
export function canonicalIssuer(
  value: string,
  options: { id: string; trailingSlash: boolean; example: string; pattern?: RegExp },
): string {
  const { id, example } = options;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return fail(
      `provider "${id}" issuer must be an absolute URL; expected e.g. issuer: "${example}".`,
    );
  }
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname) ||
    url.hostname.endsWith(".localhost");
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    fail(`provider "${id}" issuer must use https; expected e.g. issuer: "${example}".`);
  }
  if (url.username || url.password || url.search || url.hash) {
    fail(
      `provider "${id}" issuer must not have credentials, a query or a fragment; expected e.g. issuer: "${example}".`,
    );
  }
  const bare = url.href.replace(/\/+$/, "");
  if (options.pattern !== undefined && !options.pattern.test(bare)) {
    fail(
      `provider "${id}" issuer "${value}" is not a ${id} issuer; expected e.g. issuer: "${example}".`,
    );
  }
  return options.trailingSlash ? `${bare}/` : bare;
}
