/**
 * The Standard Schema v1 interface (the `~standard` property that Zod,
 * Valibot and ArkType implement), declared here so that no schema library is
 * a dependency.
 *
 * @module
 */

/** One validation issue. */
export interface StandardSchemaIssue {
  /** What is wrong. */
  readonly message: string;
  /** Where, as a path of keys. */
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }>;
}

/** The result of a Standard Schema validation. */
export type StandardSchemaResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardSchemaIssue> };

/** Any schema implementing Standard Schema v1. */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The standard interface. */
  readonly "~standard": {
    /** Always 1. */
    readonly version: 1;
    /** The library that made the schema. */
    readonly vendor: string;
    /** Validates an unknown value. */
    readonly validate: (
      value: unknown,
    ) => StandardSchemaResult<Output> | Promise<StandardSchemaResult<Output>>;
    /** Type-level input and output, when the library declares them. */
    readonly types?: { readonly input: Input; readonly output: Output } | undefined;
  };
}

/** Whether a value looks like a Standard Schema v1 object. */
export function isStandardSchema(value: unknown): value is StandardSchemaV1 {
  if ((typeof value !== "object" && typeof value !== "function") || value === null) return false;
  const standard = (value as { "~standard"?: unknown })["~standard"];
  return typeof standard === "object" && standard !== null &&
    (standard as { version?: unknown }).version === 1 &&
    typeof (standard as { validate?: unknown }).validate === "function";
}

/** Validates with a schema, returning the output or the issues' messages. */
export async function validateWith<O>(
  schema: StandardSchemaV1<unknown, O>,
  value: unknown,
): Promise<{ ok: true; value: O } | { ok: false; issues: string[] }> {
  const result = await schema["~standard"].validate(value);
  if (result.issues) {
    return { ok: false, issues: result.issues.map((issue) => describeIssue(issue)) };
  }
  return { ok: true, value: result.value };
}

function describeIssue(issue: StandardSchemaIssue): string {
  const path = (issue.path ?? [])
    .map((part) => (typeof part === "object" && part !== null ? part.key : part))
    .map((key) => String(key))
    .join(".");
  const message = typeof issue.message === "string" ? issue.message.slice(0, 200) : "invalid";
  return path ? `${path}: ${message}` : message;
}
