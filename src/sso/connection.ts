/**
 * Single sign-on input and connections: the checked question for
 * `sso.resolve` (refused before the app sees it when hostile or ambiguous),
 * the app's answer validated, and that answer as a provider the OAuth flow
 * runs with.
 *
 * @module
 */

import { AuthError } from "../errors.ts";
import { isRecord } from "../is_record.ts";
import { checkIssuer } from "../oauth/oidc/discovery.ts";
import { resolveProvidersWith } from "../oauth/resolve.ts";
import type { ProfileInput, ResolvedProvider } from "../oauth/resolved_provider.ts";
import { isPlainEmail } from "../user_fields.ts";
import type { SsoQuery } from "./types.ts";

/** A connection checked: every field present and valid, domains lower-cased. */
export interface CheckedConnection {
  readonly id: string;
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret?: string;
  readonly domains: readonly string[];
  readonly scope?: string;
  readonly responseMode: "query" | "form_post";
}

const MAX_INPUT = 254;
const CONNECTION_ID = /^[a-z0-9-]{1,64}$/;
const DOMAIN =
  /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;
// Letters, digits and marks, with inner spaces, dots, dashes and underscores: a name, nothing else.
const ORGANIZATION = /^[\p{L}\p{N}][\p{L}\p{N}\p{M} ._-]*$/u;
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

function invalidInput(description: string): AuthError {
  return new AuthError("invalid_request", description);
}

function plainText(value: unknown, name: string): string {
  if (typeof value !== "string") {
    throw invalidInput(`"${name}" is not a string; expected one ${name}.`);
  }
  if (value.length > MAX_INPUT || CONTROL.test(value)) {
    throw invalidInput(
      `"${name}" is too long or has control characters; expected at most ${MAX_INPUT} plain characters.`,
    );
  }
  const trimmed = value.trim();
  if (trimmed === "" || trimmed.normalize("NFKC") !== trimmed) {
    throw invalidInput(
      `"${name}" is empty or has look-alike characters; expected plain characters.`,
    );
  }
  return trimmed;
}

/**
 * The question for `sso.resolve` from a sign-in body: `{ email, domain }`
 * or `{ organization }`, exactly one of them, plain (at most 254
 * characters, no control characters, unchanged by NFKC); anything else is
 * 400 `invalid_request`, before the app is asked.
 */
export function ssoQuery(body: Readonly<Record<string, unknown>>): SsoQuery {
  const hasEmail = body.email !== undefined;
  if (hasEmail === (body.organization !== undefined)) {
    throw invalidInput('The body needs "email" or "organization"; expected exactly one of them.');
  }
  if (hasEmail) {
    const email = plainText(body.email, "email");
    if (!isPlainEmail(email)) {
      throw invalidInput('"email" is not a plain address; expected e.g. "ada@example.com".');
    }
    return { email, domain: email.slice(email.lastIndexOf("@") + 1).toLowerCase() };
  }
  const organization = plainText(body.organization, "organization");
  if (!ORGANIZATION.test(organization)) {
    throw invalidInput(
      '"organization" is not a plain name; expected letters, digits, spaces, ".", "-" or "_".',
    );
  }
  return { organization };
}

function badConnection(problem: string): never {
  throw new TypeError(`sso.resolve returned a connection that ${problem}.`);
}

/** Validates what `sso.resolve` returned; a `TypeError` naming the rule it breaks. */
export function checkConnection(value: unknown): CheckedConnection {
  if (!isRecord(value)) {
    badConnection("is not an object; expected { id, issuer, clientId, domains }");
  }
  const { id, issuer, clientId, clientSecret, domains, scope, responseMode } = value;
  if (typeof id !== "string" || !CONNECTION_ID.test(id)) {
    badConnection('has an invalid id; expected 1-64 of a-z, 0-9 and "-"');
  }
  if (typeof issuer !== "string") badConnection("has no issuer; expected an https URL");
  try {
    checkIssuer(issuer);
  } catch {
    badConnection(
      `"${id}" has an invalid issuer; expected an https URL without query or fragment (http only for localhost)`,
    );
  }
  if (typeof clientId !== "string" || clientId === "" || clientId.length > 1024) {
    badConnection(`"${id}" has no clientId; expected the client id registered at the provider`);
  }
  if (clientSecret !== undefined && (typeof clientSecret !== "string" || clientSecret === "")) {
    badConnection(`"${id}" has an invalid clientSecret; expected a string or none`);
  }
  if (!Array.isArray(domains) || domains.length > 1000) {
    badConnection(`"${id}" has no domains list; expected e.g. ["example.com"] (it may be empty)`);
  }
  const checkedDomains = domains.map((domain) => {
    if (typeof domain !== "string" || !DOMAIN.test(domain.toLowerCase())) {
      badConnection(`"${id}" has an invalid domain; expected host names such as "example.com"`);
    }
    return domain.toLowerCase();
  });
  if (scope !== undefined && (typeof scope !== "string" || !scope.split(" ").includes("openid"))) {
    badConnection(`"${id}" has a scope without openid; expected e.g. "openid profile email"`);
  }
  if (responseMode !== undefined && responseMode !== "query" && responseMode !== "form_post") {
    badConnection(`"${id}" has an invalid responseMode; expected "query" or "form_post"`);
  }
  return Object.freeze({
    id,
    issuer,
    clientId,
    ...(clientSecret === undefined ? {} : { clientSecret: clientSecret as string }),
    domains: Object.freeze(checkedDomains),
    ...(scope === undefined ? {} : { scope: scope as string }),
    responseMode: (responseMode ?? "query") as "query" | "form_post",
  });
}

const noEnv = () => undefined;

/**
 * The connection as a provider for the OAuth flow: id `sso:<id>` (what hooks,
 * accounts and sessions see), the issuer's endpoints by discovery, and users
 * named `<id>:<sub>`.
 */
export function connectionProvider(
  connection: CheckedConnection,
  cache?: Map<string, ResolvedProvider>,
): ResolvedProvider {
  if (cache === undefined) return buildProvider(connection);
  // Keyed by every field the provider is made of: a connection changed in any way is made again.
  const key = JSON.stringify([
    connection.id,
    connection.issuer,
    connection.clientId,
    connection.clientSecret ?? null,
    connection.scope ?? null,
    connection.responseMode,
  ]);
  let provider = cache.get(key);
  if (provider === undefined) {
    provider = buildProvider(connection);
    if (cache.size >= MAX_CACHED_PROVIDERS) cache.delete(cache.keys().next().value!);
    cache.set(key, provider);
  }
  return provider;
}

/** Providers a cache keeps; past this many the oldest is dropped. */
const MAX_CACHED_PROVIDERS = 1000;

function buildProvider(connection: CheckedConnection): ResolvedProvider {
  const entry: Record<string, unknown> = {
    id: "sso",
    name: connection.id,
    issuer: connection.issuer,
    clientId: connection.clientId,
    responseMode: connection.responseMode,
  };
  if (connection.scope !== undefined) entry.scope = connection.scope;
  if (connection.clientSecret === undefined) entry.clientAuthMethod = "none";
  else entry.clientSecret = connection.clientSecret;
  const base = resolveProvidersWith([entry], noEnv, {}).get("sso")!;
  const prefix = `${connection.id}:`;
  return Object.freeze({
    ...base,
    id: `sso:${connection.id}`,
    profile: async (raw: Record<string, unknown>, input: ProfileInput) => {
      const user = await base.profile(raw, input);
      return { ...user, sub: prefix + user.sub };
    },
  });
}

/**
 * The claims with the email kept only when the provider says it is verified
 * (`email_verified: true`) and its domain is one of the connection's.
 */
export function ownDomainEmail(
  claims: Record<string, unknown>,
  domains: readonly string[],
): Record<string, unknown> {
  const email = claims.email;
  if (email === undefined && claims.email_verified === undefined) return claims;
  const keep = typeof email === "string" && claims.email_verified === true &&
    domains.includes(email.slice(email.lastIndexOf("@") + 1).toLowerCase());
  if (keep) return claims;
  const { email: _email, email_verified: _verified, ...rest } = claims;
  return rest;
}
