/**
 * `POST /passkey/signIn` in-process against two minimal handlers, alternated
 * call by call so that a busy machine slows all of them alike, reported as
 * medians of per-call times and their ratios:
 *
 * - bare: read the JSON, one SHA-256 of clientDataJSON and one signature
 *   verify (the Web Crypto work a passkey sign-in cannot avoid);
 * - bare with a session: the same plus one AES-GCM seal of a session claim
 *   set and its Set-Cookie (what any sign-in must add).
 *
 * Run with `deno run -A bench/passkey_sign_in_ratio.ts [rounds]`.
 *
 * @module
 */

import { decodeBase64Url, encodeBase64Url } from "../jose.ts";
import { createAuth, memoryStore } from "../mod.ts";
import { importCredentialKey } from "../src/webauthn/cose.ts";
import { derToRawEcdsa } from "../src/webauthn/der.ts";
import { ALG_NAMES, createAuthenticator } from "../tests/webauthn/_authenticator.ts";

type Bytes = Uint8Array<ArrayBuffer>;
const subtle = crypto.subtle;
const SITE = "https://example.com";
const USER = { sub: "user-1", name: "Ada", email: "ada@example.com" };
const ROUNDS = Number(Deno.args[0] ?? 2000);
const VERIFY: Record<number, AlgorithmIdentifier | EcdsaParams> = {
  [-8]: { name: "Ed25519" },
  [-7]: { name: "ECDSA", hash: "SHA-256" },
};
const sessionKey = await subtle.generateKey({ name: "AES-GCM", length: 256 }, false, [
  "encrypt",
  "decrypt",
]);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

for (const alg of [-7, -8] as const) {
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
    const response = await auth.handlers.POST(await request(path, body));
    keep(response);
    return response;
  };
  await post("/signIn/credentials", { username: "ada", password: "x" });
  const options = await (await post("/passkey/register/options", {})).json();
  const authenticator = await createAuthenticator(alg, { userHandle: options.user.id });
  await post("/passkey/register", {
    response: await authenticator.register({ challenge: options.challenge, origin: SITE }),
  });
  // A sign-in starts signed out: only the CSRF cookie stays.
  for (const name of [...cookies.keys()]) if (!name.endsWith("csrf_token")) cookies.delete(name);
  const stored = await store.getPasskey(authenticator.id);
  const publicKey = await importCredentialKey(stored!.publicKey, alg);

  const bare = async (req: Request, withSession: boolean): Promise<Response> => {
    const { response } = await req.json();
    const fields = response.response;
    const clientData = decodeBase64Url(fields.clientDataJSON) as Bytes;
    const authData = decodeBase64Url(fields.authenticatorData);
    const signed = new Uint8Array(authData.length + 32);
    signed.set(authData);
    signed.set(new Uint8Array(await subtle.digest("SHA-256", clientData)), authData.length);
    const der = decodeBase64Url(fields.signature) as Bytes;
    const signature = alg === -7 ? derToRawEcdsa(der, 32) : der;
    const ok = await subtle.verify(VERIFY[alg], publicKey, signature, signed);
    if (!withSession) return new Response(JSON.stringify({ ok }), { status: ok ? 200 : 400 });
    const iv = crypto.getRandomValues(new Uint8Array(12));
    const claims = new TextEncoder().encode(JSON.stringify({ ...USER, iat: 1, exp: 2 }));
    const sealed = new Uint8Array(
      await subtle.encrypt({ name: "AES-GCM", iv }, sessionKey, claims),
    );
    return new Response(JSON.stringify({ user: USER }), {
      status: ok ? 200 : 400,
      headers: {
        "Set-Cookie": `session=${encodeBase64Url(iv)}.${
          encodeBase64Url(sealed)
        }; Path=/; HttpOnly; Secure; SameSite=Lax`,
      },
    });
  };

  /** A signed sign-in request with a fresh challenge (made outside the timed part). */
  const prepared = async (): Promise<Request> => {
    const signInOptions = await (await post("/passkey/signIn/options", {})).json();
    const response = await authenticator.authenticate({
      challenge: signInOptions.challenge,
      origin: SITE,
    });
    const req = await request("/passkey/signIn", { response });
    for (const name of [...cookies.keys()]) {
      if (name.endsWith("session_token")) cookies.delete(name);
    }
    return req;
  };

  const times = { bare: [] as number[], session: [] as number[], ours: [] as number[] };
  const time = async (list: number[], run: () => Promise<Response>) => {
    const start = performance.now();
    const response = await run();
    list.push(performance.now() - start);
    if (response.status !== 200) throw new Error(`status ${response.status}`);
  };
  for (let i = 0; i < ROUNDS + 200; i++) {
    const [a, b, c] = [await prepared(), await prepared(), await prepared()];
    const warm = i < 200;
    const sink = { bare: [] as number[], session: [] as number[], ours: [] as number[] };
    const into = warm ? sink : times;
    await time(into.bare, () => bare(a, false));
    await time(into.session, () => bare(b, true));
    await time(into.ours, () => auth.handlers.POST(c));
  }
  const [bareMs, sessionMs, oursMs] = [
    median(times.bare),
    median(times.session),
    median(times.ours),
  ];
  console.log(
    `${ALG_NAMES[alg]}: bare ${(bareMs * 1000).toFixed(0)} µs, bare + session ${
      (sessionMs * 1000).toFixed(0)
    } µs, ours ${(oursMs * 1000).toFixed(0)} µs: ${(oursMs / bareMs).toFixed(2)}x bare, ${
      (oursMs / sessionMs).toFixed(2)
    }x bare + session (medians of ${ROUNDS} alternated calls)`,
  );
}
