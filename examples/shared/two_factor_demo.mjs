/**
 * The demo's two-factor part: the `twoFactor` option (sealed factors kept in
 * memory, by user, the way an app keeps them in its user records), the
 * page's second script (`/two_factor.js`), and two small endpoints for the
 * page under `/demo/two-factor`: whether the signed-in user has it on, and a
 * QR code (SVG) of the `otpauth://` URI that `twoFactor.enroll` returned.
 *
 * The QR code comes from the npm package `qrcode`, a demo-only dependency
 * (the library itself has none): where it is not installed the page shows
 * the secret as text only.
 *
 * @module
 */

import { readFile } from "node:fs/promises";

const SECURITY_HEADERS = {
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "same-origin",
};
const MAX_URI = 512;

/**
 * @typedef {object} TwoFactorDemo
 * @property {import("@service-stack/auth").TwoFactorConfig} config The `twoFactor` option.
 * @property {(path: string) => boolean} handles Whether a path is this part's.
 * @property {(auth: { api: { getSession(request: Request): Promise<{ user: { sub: string } } | null> } }) =>
 *   (request: Request) => Promise<Response>} handler Answers `/two_factor.js` and `/demo/two-factor/*`.
 */

/**
 * Builds the two-factor part of the demo.
 *
 * @param {{ issuer: string }} options The name authenticator apps show.
 * @returns {Promise<TwoFactorDemo>}
 */
export async function createTwoFactorDemo(options) {
  /** @type {Map<string, string>} What the app's user records would hold: the sealed factor per user. */
  const factors = new Map();
  const script = await readFile(new URL("./two_factor_page.js", import.meta.url), "utf8");
  /** @type {null | { toString(text: string, options: { type: "svg", margin?: number }): Promise<string> }} */
  const qr = await import("qrcode").then((module) => module.default ?? module).catch(() => null);

  /** @type {import("@service-stack/auth").TwoFactorConfig} */
  const config = {
    load: (sub) => factors.get(sub) ?? null,
    save: (sub, value) => {
      if (value === null) factors.delete(sub);
      else factors.set(sub, value);
    },
    issuer: options.issuer,
  };

  /**
   * @param {unknown} body
   * @param {number} status
   */
  function json(body, status) {
    return new Response(JSON.stringify(body), {
      status,
      headers: { "Content-Type": "application/json", ...SECURITY_HEADERS },
    });
  }

  return {
    config,
    handles: (path) => path === "/two_factor.js" || path.startsWith("/demo/two-factor/"),
    handler(auth) {
      return async (request) => {
        const { pathname } = new URL(request.url);
        if (pathname === "/two_factor.js") {
          return new Response(script, {
            headers: { "Content-Type": "text/javascript; charset=utf-8", ...SECURITY_HEADERS },
          });
        }
        const session = await auth.api.getSession(request);
        if (session === null) {
          return json({ error: "invalid_session_token", error_description: "Not signed in." }, 401);
        }
        if (pathname === "/demo/two-factor/status" && request.method === "GET") {
          return json({ enabled: factors.has(session.user.sub), qr: qr !== null }, 200);
        }
        if (pathname === "/demo/two-factor/qr" && request.method === "POST") {
          // Same-origin JSON only (the body holds the secret): no cross-site form can send this.
          if (request.headers.get("origin") !== new URL(request.url).origin) {
            return json({ error: "access_denied", error_description: "Cross-origin." }, 403);
          }
          const body = await request.json().catch(() => null);
          const uri = body?.uri;
          if (
            typeof uri !== "string" || !uri.startsWith("otpauth://totp/") || uri.length > MAX_URI
          ) {
            return json({ error: "invalid_request", error_description: "Expected { uri }." }, 400);
          }
          if (qr === null) return json({ svg: null }, 200);
          return json({ svg: await qr.toString(uri, { type: "svg", margin: 1 }) }, 200);
        }
        return json({ error: "invalid_request", error_description: "Unknown endpoint." }, 404);
      };
    },
  };
}
