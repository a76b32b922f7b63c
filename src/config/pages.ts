/**
 * `pages`: where browser-facing failures land.
 *
 * @module
 */

import { isRecord } from "../is_record.ts";
import { fail, knownKeys } from "./_check.ts";

/** The resolved `pages` option. */
export interface PageSettings {
  /** `pages.error`: a path on this site or an absolute http(s) URL. */
  readonly errorPage?: string;
  /** `pages.resetPassword`: the app's own reset form; reset links point at it (token in the query). */
  readonly resetPasswordPage?: string;
  /** `pages.twoFactor`: the app's own second-step form; browser sign-ins land there when a code is due. */
  readonly twoFactorPage?: string;
}

/** Resolves `pages`: `error` is a path starting with one `/`, or an absolute http(s) URL. */
export function resolvePages(value: unknown): PageSettings {
  if (value !== undefined && !isRecord(value)) {
    fail('pages is not an object; expected { error: "/auth-error" }.');
  }
  knownKeys(value, "pages", ["error", "resetPassword", "twoFactor"]);
  const settings: { errorPage?: string; resetPasswordPage?: string; twoFactorPage?: string } = {};
  const error = isRecord(value) ? value.error : undefined;
  if (error !== undefined) {
    if (typeof error !== "string" || !isPageURL(error)) {
      fail('pages.error is invalid; expected a path like "/auth-error" or an absolute https: URL.');
    }
    settings.errorPage = error;
  }
  const reset = isRecord(value) ? value.resetPassword : undefined;
  if (reset !== undefined) {
    if (typeof reset !== "string" || !isPageURL(reset) || reset.includes("#")) {
      fail(
        'pages.resetPassword is invalid; expected a path like "/reset-password" or an absolute https: URL.',
      );
    }
    settings.resetPasswordPage = reset;
  }
  const twoFactor = isRecord(value) ? value.twoFactor : undefined;
  if (twoFactor !== undefined) {
    if (typeof twoFactor !== "string" || !isPageURL(twoFactor)) {
      fail(
        'pages.twoFactor is invalid; expected a path like "/two-factor" or an absolute https: URL.',
      );
    }
    settings.twoFactorPage = twoFactor;
  }
  return Object.freeze(settings);
}

function isPageURL(value: string): boolean {
  // deno-lint-ignore no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return false;
  if (value.startsWith("/")) return !value.startsWith("//");
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.username === "" &&
      url.password === "";
  } catch {
    return false;
  }
}
