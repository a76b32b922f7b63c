/**
 * `basePath`: where the routes live.
 *
 * @module
 */

import { fail } from "./_check.ts";

/** Normalises `basePath`: starts with `/`, no trailing slash (root becomes `""`). */
export function resolveBasePath(value: unknown): string {
  if (value === undefined) return "/auth";
  if (typeof value !== "string" || !value.startsWith("/")) {
    fail(`basePath does not start with "/"; expected a path like "/auth".`);
  }
  if (value === "/") return "";
  if (
    value.endsWith("/") || value.includes("//") ||
    !/^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)+$/.test(value)
  ) {
    fail(
      `basePath "${value}" is not a clean path; expected a path like "/auth" without trailing or doubled slashes or spaces.`,
    );
  }
  return value;
}
