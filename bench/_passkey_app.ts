/**
 * The passkey sign-in both benches measure: an instance with a registered
 * software authenticator, signed-in requests made ahead of time, and the
 * minimal handlers it is compared with.
 *
 * @module
 */

import { decodeBase64Url, encodeBase64Url } from "../jose.ts";
import { createAuth, memoryStore } from "../mod.ts";
import { importCredentialKey } from "../src/webauthn/cose.ts";
import { derToRawEcdsa } from "../src/webauthn/der.ts";
import { createAuthenticator } from "../tests/webauthn/_authenticator.ts";

type Bytes = Uint8Array<ArrayBuffer>;

const SITE = "https://example.com";
const USER = { sub: "user-1", name: "Ada", email: "ada@example.com" };
const VERIFY: Record<-7 | -8, AlgorithmIdentifier | EcdsaParams> = {
  [-8]: { name: "Ed25519" },
  [-7]: { name: "ECDSA", hash: "SHA-256" },
};

/** What a bench needs of one instance with one registered passkey of `alg`. */
export interface PasskeyBenchApp {
  /** `POST` of the instance. */
  handler: (request: Request) => Promise<Response>;
  /** A signed `POST /passkey/signIn` with a fresh challenge and its cookies; `signedOut` drops the session. */
  prepared(options?: { signedOut?: boolean }): Promise<Request>;
  /** A `POST /signIn/credentials` with the browser's cookies. */
  credentialsRequest(): Promise<Request>;
  /**
   * The minimal handler: read the JSON, decode, one digest, one verify; with
   * `session`, also one AES-GCM seal of a claim set and its Set-Cookie.
   */
  bare(request: Request, options?: { session?: boolean }): Promise<Response>;
}

/** An instance on https://example.com with credentials and a registered authenticator of `alg`. */
export async function passkeyBenchApp(alg: -7 | -8): Promise<PasskeyBenchApp> {
  const store = memoryStore();
  const auth = createAuth({
    oauth: [],
    secret: "bench-secret-0123456789abcdef-0123456789abcdef",
    baseURL: SITE,
    logger: false,
    env: {},
    credentials: { authorize: () => USER, throttle: false },
    passkeys: { store, findUser: () => USER },
  });
  const handler = auth.handlers.POST;
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(";")[0];
      const at = pair.indexOf("=");
      if (/max-age=0/i.test(line)) cookies.delete(pair.slice(0, at));
      else cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
  };
  const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrfToken = async () => {
    const response = await auth.handlers.GET(
      new Request(`${SITE}/auth/csrfToken`, { headers: { Cookie: cookie() } }),
    );
    keep(response);
    return (await response.json()).csrfToken as string;
  };
  const request = async (path: string, body: unknown) =>
    new Request(`${SITE}/auth${path}`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-CSRF-Token": await csrfToken(),
        Cookie: cookie(),
      },
      body: JSON.stringify(body),
    });
  const post = async (path: string, body: unknown) => {
    const response = await handler(await request(path, body));
    keep(response);
    return response;
  };
  await post("/signIn/credentials", { username: "ada", password: "x" });
  const options = await (await post("/passkey/register/options", {})).json();
  // A counter-less authenticator: every assertion may carry counter 0.
  const authenticator = await createAuthenticator(alg, { userHandle: options.user.id });
  const registered = await post("/passkey/register", {
    response: await authenticator.register({ challenge: options.challenge, origin: SITE }),
  });
  if (registered.status !== 201) throw new Error(`register: ${registered.status}`);
  // The stored key, as the bare handler holds it: imported once.
  const stored = await store.getPasskey(authenticator.id);
  const publicKey = await importCredentialKey(stored!.publicKey, alg);
  const sessionKey = await crypto.subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
    "encrypt",
  ]);

  return {
    handler,
    async prepared({ signedOut = false } = {}) {
      if (signedOut) {
        for (const name of [...cookies.keys()]) {
          if (name.endsWith("session_token")) cookies.delete(name);
        }
      }
      const signInOptions = await (await post("/passkey/signIn/options", {})).json();
      const response = await authenticator.authenticate({
        challenge: signInOptions.challenge,
        origin: SITE,
      });
      return await request("/passkey/signIn", { response });
    },
    credentialsRequest: () => request("/signIn/credentials", { username: "ada", password: "x" }),
    async bare(req, { session = false } = {}) {
      const { response } = await req.json();
      const fields = response.response;
      const clientData = decodeBase64Url(fields.clientDataJSON) as Bytes;
      const authData = decodeBase64Url(fields.authenticatorData);
      const signed = new Uint8Array(authData.length + 32);
      signed.set(authData);
      signed.set(
        new Uint8Array(await crypto.subtle.digest("SHA-256", clientData)),
        authData.length,
      );
      const der = decodeBase64Url(fields.signature) as Bytes;
      const signature = alg === -7 ? derToRawEcdsa(der, 32) : der;
      const ok = await crypto.subtle.verify(VERIFY[alg], publicKey, signature, signed);
      const status = ok ? 200 : 400;
      if (!session) return new Response(JSON.stringify({ ok }), { status });
      const iv = crypto.getRandomValues(new Uint8Array(12));
      const claims = new TextEncoder().encode(JSON.stringify({ ...USER, iat: 1, exp: 2 }));
      const sealed = new Uint8Array(
        await crypto.subtle.encrypt({ name: "AES-GCM", iv }, sessionKey, claims),
      );
      const token = `${encodeBase64Url(iv)}.${encodeBase64Url(sealed)}`;
      return new Response(JSON.stringify({ user: USER }), {
        status,
        headers: { "Set-Cookie": `session=${token}; Path=/; HttpOnly; Secure; SameSite=Lax` },
      });
    },
  };
}
