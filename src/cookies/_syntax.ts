/**
 * Cookie grammar shared by config resolution and serialization: name,
 * value, Domain, Path, SameSite and Priority checks, and HTTP dates.
 *
 * @module
 */

// RFC 9110 token characters, the grammar of a cookie name.
export const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
// RFC 6265 cookie-octet: visible ASCII except DQUOTE, comma, semicolon, backslash.
export const COOKIE_OCTETS = /^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/;
const DOMAIN =
  /^\.?[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;
// Path attribute value: starts with "/", no control characters, no ";".
const PATH = /^\/[\x20-\x3A\x3C-\x7E]*$/;
export const NAME_PREFIX = /^__(?:secure|host)-/i;
export const CHUNK_SUFFIX = /^(?:0|[1-9][0-9]{0,3})$/;
export const EPOCH = "Thu, 01 Jan 1970 00:00:00 GMT";

export function checkNamePart(value: unknown, where: string): void {
  if (typeof value !== "string" || !TOKEN.test(value)) {
    throw new TypeError(
      `Invalid ${where}: expected a non-empty cookie name token (letters, digits, !#$%&'*+-.^_\`|~).`,
    );
  }
  if (NAME_PREFIX.test(value)) {
    throw new TypeError(
      `Invalid ${where}: "__Secure-" and "__Host-" are added by the strategy; remove them.`,
    );
  }
}

export function checkDomain(domain: unknown, where: string): void {
  if (typeof domain !== "string" || domain.length > 253 || !DOMAIN.test(domain)) {
    throw new TypeError(`Invalid Domain for ${where}: expected a host name such as example.com.`);
  }
}

export function checkPath(path: unknown, where: string): void {
  if (typeof path !== "string" || path.length > 1024 || !PATH.test(path)) {
    throw new TypeError(
      `Invalid Path for ${where}: expected "/" followed by visible ASCII without ";".`,
    );
  }
}

export function sameSiteValue(value: unknown, where: string): string {
  switch (value) {
    case true:
    case "strict":
      return "Strict";
    case "lax":
      return "Lax";
    case "none":
      return "None";
  }
  throw new TypeError(
    `Invalid SameSite for ${where}: expected true, false, "lax", "strict" or "none".`,
  );
}

export function priorityValue(value: unknown, where: string): string {
  switch (value) {
    case "low":
      return "Low";
    case "medium":
      return "Medium";
    case "high":
      return "High";
  }
  throw new TypeError(`Invalid Priority for ${where}: expected "low", "medium" or "high".`);
}

export function httpDate(ms: number, name: string): string {
  const date = new Date(ms);
  if (isNaN(date.getTime())) {
    throw new TypeError(`Invalid expiry for cookie "${name}": expected a date within range.`);
  }
  return date.toUTCString();
}
