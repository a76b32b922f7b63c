/**
 * The one plain-object guard the server side shares.
 *
 * @module
 */

/** Whether a value is a non-null object that is not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
