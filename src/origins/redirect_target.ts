/**
 * Redirect targets (`redirectTo`, `Referer`): what may go into `Location`.
 *
 * Every comparison parses with `URL` and compares scheme, host and port;
 * nothing is decided by string prefix or suffix. Nothing here throws on
 * request input.
 *
 * @module
 */

import { type OriginMatcher, parseOrigin, UNSAFE_CHARS } from "./trusted.ts";

/**
 * Longest redirect target accepted, in characters: it travels in a sealed
 * flow cookie whose `Set-Cookie` line must stay under 4096 bytes.
 */
export const MAX_REDIRECT_TARGET_LENGTH = 1500;

/**
 * Validates a redirect target (`redirectTo`). Accepted: a relative path
 * starting with exactly one `/`, or an absolute `http(s)://` URL without
 * userinfo whose origin is `own` or trusted. Refused anywhere in the target:
 * control characters, DEL, backslashes, leading or trailing spaces. For a
 * relative path, its path, once percent-decoded (repeatedly), must still not
 * start with `//` or `/\` and must contain no control character or
 * backslash, so that no later decoding step can turn it into a
 * scheme-relative URL. Returns what to put in `Location`: a relative target
 * stays relative (normalized and percent-encoded by `URL`), an absolute one
 * is normalized by `URL`; `null` when refused, also when longer than
 * {@link MAX_REDIRECT_TARGET_LENGTH} before or after normalization. Never throws.
 *
 * @example
 * ```ts
 * import { compileOriginPatterns, safeRedirectTarget } from "./redirect_target.ts";
 * const none = compileOriginPatterns([]);
 * safeRedirectTarget("/dashboard?tab=1", "https://app.example.com", none); // "/dashboard?tab=1"
 * safeRedirectTarget("//evil.com", "https://app.example.com", none); // null
 * ```
 */
export function safeRedirectTarget(
  target: string,
  own: string,
  matcher: OriginMatcher,
): string | null {
  try {
    if (typeof target !== "string" || target === "" || UNSAFE_CHARS.test(target)) return null;
    if (target !== target.trim() || target.length > MAX_REDIRECT_TARGET_LENGTH) return null;
    const self = parseOrigin(own);
    if (target.charCodeAt(0) === 47 /* / */) {
      if (self === null || target.charCodeAt(1) === 47) return null;
      const resolved = new URL(target, self.origin);
      if (resolved.origin !== self.origin) return null;
      if (!safeDecodedPath(resolved.pathname)) return null;
      const relative = resolved.pathname + resolved.search + resolved.hash;
      // Dot segments can collapse "/.//x" into "//x"; checked after normalization too.
      if (relative.length > MAX_REDIRECT_TARGET_LENGTH) return null;
      return relative.startsWith("//") ? null : relative;
    }
    // Demand "scheme://" literally: URL would also accept "https:evil.com" and "https:///evil.com".
    const match = /^(https?):\/\/([^/])/i.exec(target);
    if (match === null) return null;
    const url = new URL(target);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    if (url.username !== "" || url.password !== "" || url.host === "") return null;
    // url is already checked: compare its origin without parsing it again.
    if (url.origin !== self?.origin && matcher(url.origin) !== true) return null;
    return url.href.length > MAX_REDIRECT_TARGET_LENGTH ? null : url.href;
  } catch {
    return null;
  }
}

/**
 * Applies {@link safeRedirectTarget} to a `Referer` header, which is always
 * absolute: returns the normalized URL when it is on the own or a trusted
 * origin, else `null`.
 *
 * @example
 * ```ts
 * import { compileOriginPatterns, refererTarget } from "./redirect_target.ts";
 * const none = compileOriginPatterns([]);
 * refererTarget("https://app.example.com/settings", "https://app.example.com", none);
 * // "https://app.example.com/settings"
 * ```
 */
export function refererTarget(
  referer: string | null,
  own: string,
  matcher: OriginMatcher,
): string | null {
  if (typeof referer !== "string" || !/^https?:\/\//i.test(referer)) return null;
  return safeRedirectTarget(referer, own, matcher);
}

/**
 * Decodes ASCII percent-escapes of the path until stable and refuses any
 * form that starts with "//" (also after dot-segment removal) or holds a
 * control character or backslash, whatever decoder runs later.
 */
function safeDecodedPath(path: string): boolean {
  let current = path;
  for (let i = 0; i < 4; i++) {
    // Overlong UTF-8 lead bytes: old decoders turned %C0%AF into "/".
    if (/%c[01]/i.test(current)) return false;
    const next = current.replace(
      /%([0-7][0-9A-Fa-f])/g,
      (_, hex: string) => String.fromCharCode(parseInt(hex, 16)),
    );
    if (UNSAFE_CHARS.test(next) || next.startsWith("//")) return false;
    if (new URL(next, "http://h").pathname.startsWith("//")) return false;
    if (next === current) return true;
    current = next;
  }
  return false;
}
