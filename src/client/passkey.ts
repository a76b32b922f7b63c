/**
 * The browser side of the passkey ceremonies: options JSON in, credential
 * JSON out. Uses `PublicKeyCredential.parseCreationOptionsFromJSON`,
 * `parseRequestOptionsFromJSON` and `toJSON` where the browser has them,
 * base64url by hand where it does not. Kept small: it ships in the client.
 *
 * @module
 */

type Json = Record<string, unknown>;
// deno-lint-ignore no-explicit-any
type Loose = any;

const PKC = (): Loose => (globalThis as Loose).PublicKeyCredential;
const store = (): Loose => (globalThis as Loose).navigator?.credentials;

/** base64url (padded or not) to bytes; the browser's `atob` takes base64 without padding. */
const decode = (text: unknown): Uint8Array =>
  Uint8Array.from(atob(String(text).replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));

/** Bytes to unpadded base64url. */
const encode = (buffer: ArrayBuffer): string =>
  btoa(String.fromCharCode(...new Uint8Array(buffer)))
    .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");

/** Whether this browser can run WebAuthn ceremonies at all. */
export function passkeysSupported(): boolean {
  return typeof PKC() === "function" && typeof store()?.get === "function";
}

/** Whether the browser offers passkeys in autofill (conditional mediation). */
export async function autofillSupported(): Promise<boolean> {
  try {
    return await PKC().isConditionalMediationAvailable() === true;
  } catch {
    return false;
  }
}

/** The options object a ceremony takes, from the server's JSON. */
function fromJSON(options: Json, create: boolean): unknown {
  const parse = PKC()[create ? "parseCreationOptionsFromJSON" : "parseRequestOptionsFromJSON"];
  if (typeof parse === "function") return parse.call(PKC(), options);
  const list = create ? "excludeCredentials" : "allowCredentials";
  const out: Loose = { ...options, challenge: decode(options.challenge) };
  out[list] = ((options[list] ?? []) as Json[]).map((item) => ({ ...item, id: decode(item.id) }));
  if (create) out.user = { ...out.user, id: decode(out.user.id) };
  return out;
}

/** The JSON form of a credential (`toJSON()`, or the same by hand). */
function toJSON(credential: Loose): Json {
  if (typeof credential.toJSON === "function") return credential.toJSON();
  const r = credential.response;
  const response: Json = { clientDataJSON: encode(r.clientDataJSON) };
  for (const name of ["attestationObject", "authenticatorData", "signature", "userHandle"]) {
    if (r[name]) response[name] = encode(r[name]);
  }
  if (r.getTransports) response.transports = r.getTransports();
  return {
    id: credential.id,
    rawId: encode(credential.rawId),
    type: credential.type,
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
    clientExtensionResults: credential.getClientExtensionResults?.() ?? {},
    response,
  };
}

/**
 * Runs `navigator.credentials.create` (`create`) or `get` with the server's
 * options; `mediation: "conditional"` when `autofill`.
 */
export async function ceremony(
  options: Json,
  create: boolean,
  extra: { autofill?: boolean; signal?: AbortSignal } = {},
): Promise<Json> {
  const request: Json = { publicKey: fromJSON(options, create), signal: extra.signal };
  if (extra.autofill) request.mediation = "conditional";
  const credential = await store()[create ? "create" : "get"](request);
  if (!credential) throw new DOMException("", "NotAllowedError");
  return toJSON(credential);
}

/** A dotted IPv4 address or a bracketed IPv6 one, as `location.hostname` gives them. */
const IP_HOST = /^(\d+\.){3}\d+$|^\[/;

/**
 * Why a ceremony the browser refused failed, when the page's host name is
 * an IP address (WebAuthn takes only a domain name as RP ID, so browsers
 * refuse every ceremony there); `null` on a domain name.
 */
export function ipAddressRefusal(): string | null {
  let host: unknown;
  try {
    host = (globalThis as Loose).location?.hostname;
  } catch {
    return null; // Deno without --location: no page.
  }
  return typeof host === "string" && IP_HOST.test(host)
    ? `WebAuthn needs a domain name such as localhost, not an IP address (${host}); expected this page on a domain name.`
    : null;
}
