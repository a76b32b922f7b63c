/**
 * Profile mappers written as data: where a provider's user-info answer
 * keeps the subject, the name, the email (and what says it is verified) and
 * the picture, read by one function. For providers whose mappers differ only
 * in field names, so that each says just that, and every value still goes
 * through the checks of `profile.ts`.
 *
 * @module
 */

import type { User } from "../../types.ts";
import {
  buildUser,
  checkEmail,
  isRecord,
  joinName,
  ProfileError,
  profileObject,
  readImageURL,
  readSubject,
  readText,
  verifiedEmail,
} from "../profile.ts";

/** A field's place in the user object, key by key (`["name", "display_name"]`). */
export type FieldPath = readonly string[];

/** Where a name comes from: one field, or a given and a family name joined. */
export type NameSource = FieldPath | { readonly join: readonly [FieldPath, FieldPath] };

/** Where a provider's user-info answer keeps each field of a `User`. */
export interface ProfileFields {
  /** The provider's display name, for error messages. */
  readonly provider: string;
  /**
   * The member that wraps the user object (`data`, Naver `response`), with
   * the member that must equal a value for a success (Naver `resultcode`)
   * and the error when either is not so; absent when the answer is the user.
   */
  readonly wrapper?: {
    readonly key: string;
    readonly success?: { readonly key: string; readonly equals: string };
    readonly error: string;
  };
  /** The subject identifier. */
  readonly sub: FieldPath;
  /** The name: the first source that gives a non-empty text. */
  readonly name: readonly NameSource[];
  /**
   * The email, used as is unless `verified` names the flag that must be
   * `true` (or, with `equals`, be exactly that value: Zoom's `1`).
   */
  readonly email?: {
    readonly path: FieldPath;
    readonly verified?: { readonly path: FieldPath; readonly equals?: number };
  };
  /** The picture URL. */
  readonly image?: FieldPath;
}

function read(object: Record<string, unknown>, path: FieldPath): unknown {
  let value: unknown = object;
  for (const key of path) {
    if (!isRecord(value)) return undefined;
    value = value[key];
  }
  return value;
}

function userObject(raw: unknown, fields: ProfileFields): Record<string, unknown> {
  const object = profileObject(raw, fields.provider);
  const { wrapper } = fields;
  if (wrapper === undefined) return object;
  const inner = object[wrapper.key];
  const failed = wrapper.success !== undefined &&
    object[wrapper.success.key] !== wrapper.success.equals;
  if (failed || !isRecord(inner)) throw new ProfileError(wrapper.error);
  return inner;
}

function isFieldPath(source: NameSource): source is FieldPath {
  return Array.isArray(source);
}

function readName(
  user: Record<string, unknown>,
  sources: readonly NameSource[],
): string | undefined {
  for (const source of sources) {
    // A path is an array (which has a `join` method of its own, so `"join" in` cannot tell).
    const name = isFieldPath(source)
      ? readText(read(user, source))
      : joinName(read(user, source.join[0]), read(user, source.join[1]));
    if (name !== undefined) return name;
  }
  return undefined;
}

function readEmail(
  user: Record<string, unknown>,
  email: ProfileFields["email"],
): string | undefined {
  if (email === undefined) return undefined;
  const value = read(user, email.path);
  const verified = email.verified;
  if (verified === undefined) return checkEmail(value);
  const flag = read(user, verified.path);
  if (verified.equals !== undefined) {
    return flag === verified.equals ? checkEmail(value) : undefined;
  }
  return verifiedEmail(value, flag, { required: true });
}

/**
 * The profile mapper that `fields` describe: it throws a `ProfileError`
 * when the answer is not an object, its wrapper is missing or not a
 * success, or it has no usable subject.
 *
 * @example
 * ```ts
 * import { fieldProfile } from "./_fields.ts";
 *
 * const profile = fieldProfile({ provider: "Corp", sub: ["id"], name: [["login"]] });
 * profile({ id: 7, login: "ada" }); // { sub: "7", name: "ada" }
 * ```
 */
export function fieldProfile(fields: ProfileFields): (raw: Record<string, unknown>) => User {
  return (raw) => {
    const user = userObject(raw, fields);
    return buildUser({
      sub: readSubject(read(user, fields.sub)),
      name: readName(user, fields.name),
      email: readEmail(user, fields.email),
      image: fields.image === undefined ? undefined : readImageURL(read(user, fields.image)),
    }, fields.provider);
  };
}
