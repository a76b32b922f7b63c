/**
 * Browser navigation, guarded so that nothing but a path on this site or an
 * http(s) URL is ever handed to `location`.
 *
 * @module
 */

interface BrowserLocation {
  assign?: (url: string) => void;
  reload?: () => void;
}

// C0 controls, DEL, whitespace and backslash never appear in a target we navigate to.
// deno-lint-ignore no-control-regex -- matching control characters is the point
const UNSAFE_CHARS = /[\x00-\x20\x7f\\]/;

/**
 * True for a path starting with a single `/` (not `//`) or an absolute
 * `http(s)://` URL without credentials. Whether an absolute origin is trusted
 * is the server's call: the client sends `redirectTo` along for it to check.
 */
export function isSafeRedirectTarget(target: unknown): target is string {
  if (typeof target !== "string" || target === "" || UNSAFE_CHARS.test(target)) return false;
  if (target.startsWith("/")) return !target.startsWith("//");
  if (!/^https?:\/\//i.test(target)) return false;
  try {
    const url = new URL(target);
    return !url.username && !url.password;
  } catch {
    return false;
  }
}

function browserLocation(): BrowserLocation | undefined {
  const location = (globalThis as { location?: BrowserLocation }).location;
  return typeof location === "object" && location !== null ? location : undefined;
}

/** Sends the browser to `url`; false when there is no browser to navigate. */
export function navigate(url: string): boolean {
  const location = browserLocation();
  if (typeof location?.assign !== "function") return false;
  try {
    location.assign(url);
    return true;
  } catch {
    // Runtimes with a read-only `location` (Deno with --location) are not browsers.
    return false;
  }
}

/** Reloads the current page; false when there is no browser to reload. */
export function reload(): boolean {
  const location = browserLocation();
  if (typeof location?.reload !== "function") return false;
  try {
    location.reload();
    return true;
  } catch {
    return false;
  }
}
