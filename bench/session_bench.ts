// GET /session with a valid sealed session: ours through handlers.GET (cold:
// every token new to the cache, and warm: the same token again), Auth.js
// answering its own session route with its own valid session, and the bare
// Web Crypto calls a sealed read needs (AES-GCM decrypt + HMAC verify).
import { createAuth } from "../mod.ts";
// deno-lint-ignore no-import-prefix -- dev-only peer for the benchmark.
import { Auth } from "npm:@auth/core@0.41";
// deno-lint-ignore no-import-prefix -- dev-only peer for the benchmark.
import { encode as authjsEncode } from "npm:@auth/core@0.41/jwt";

const SECRET = "bench-secret-0123456789abcdef-0123456789abcdef";
const ORIGIN = "http://localhost:8000";

// --- ours ---------------------------------------------------------------
const ours = createAuth({
  oauth: [],
  secret: SECRET,
  logger: false,
  credentials: { authorize: () => ({ sub: "user-1", name: "Ada", email: "ada@example.com" }) },
});

async function oursSignIn(): Promise<string> {
  const csrfResponse = await ours.handlers.GET(new Request(`${ORIGIN}/auth/csrfToken`));
  const csrfCookie = csrfResponse.headers.getSetCookie()[0].split(";")[0];
  const { csrfToken } = await csrfResponse.json();
  const response = await ours.handlers.POST(
    new Request(`${ORIGIN}/auth/signIn/credentials`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-CSRF-Token": csrfToken,
        Cookie: csrfCookie,
      },
      body: JSON.stringify({ username: "ada", password: "x" }),
    }),
  );
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status}`);
  return response.headers.getSetCookie()[0].split(";")[0];
}

// Distinct sessions so that the cold case never hits the verified-token cache.
const COLD = 2000;
const coldCookies: string[] = [];
for (let i = 0; i < COLD; i++) coldCookies.push(await oursSignIn());
// A fresh instance with the same secret: its cache is empty.
let oursCold = createAuth({ oauth: [], secret: SECRET, logger: false });
let coldIndex = 0;
const warmCookie = coldCookies[0];

// --- Auth.js ------------------------------------------------------------
const authjsConfig = {
  providers: [],
  secret: SECRET,
  trustHost: true,
  basePath: "/auth",
  session: { strategy: "jwt" as const },
};
const authjsCookieName = "authjs.session-token";
const authjsToken = await authjsEncode({
  token: { sub: "user-1", name: "Ada", email: "ada@example.com" },
  secret: SECRET,
  salt: authjsCookieName,
});
const authjsCheck = await Auth(
  new Request(`${ORIGIN}/auth/session`, {
    headers: { Cookie: `${authjsCookieName}=${authjsToken}` },
  }),
  authjsConfig,
);
const authjsBody = await authjsCheck.json();
if (authjsBody?.user?.name !== "Ada") throw new Error("Auth.js did not accept its own session");

// --- bare Web Crypto ----------------------------------------------------
const aesKey = await crypto.subtle.importKey(
  "raw",
  crypto.getRandomValues(new Uint8Array(32)),
  "AES-GCM",
  false,
  [
    "encrypt",
    "decrypt",
  ],
);
const hmacKey = await crypto.subtle.importKey(
  "raw",
  crypto.getRandomValues(new Uint8Array(32)),
  { name: "HMAC", hash: "SHA-256" },
  false,
  ["sign", "verify"],
);
const iv = crypto.getRandomValues(new Uint8Array(12));
const signed = new TextEncoder().encode("x".repeat(300));
const signature = await crypto.subtle.sign("HMAC", hmacKey, signed);
const ciphertext = await crypto.subtle.encrypt({ name: "AES-GCM", iv }, aesKey, signed);

// Sanity: every contestant answers 200 with the user.
for (
  const response of [
    await ours.handlers.GET(
      new Request(`${ORIGIN}/auth/session`, { headers: { Cookie: warmCookie } }),
    ),
    await oursCold.handlers.GET(
      new Request(`${ORIGIN}/auth/session`, { headers: { Cookie: coldCookies[1] } }),
    ),
  ]
) {
  const body = await response.json();
  if (response.status !== 200 || body.user.name !== "Ada") {
    throw new Error("our session read failed");
  }
}

Deno.bench(
  "bare Web Crypto: AES-GCM decrypt + HMAC verify",
  { group: "session", baseline: true },
  async () => {
    await crypto.subtle.decrypt({ name: "AES-GCM", iv }, aesKey, ciphertext);
    await crypto.subtle.verify("HMAC", hmacKey, signature, signed);
  },
);

// Attribution: the same two calls inside a minimal Web handler (Request in,
// JSON Response out, body read), to separate the runtime's cost from ours.
async function bareHandler(request: Request): Promise<Response> {
  request.headers.get("Cookie");
  await crypto.subtle.decrypt({ name: "AES-GCM", iv }, aesKey, ciphertext);
  await crypto.subtle.verify("HMAC", hmacKey, signature, signed);
  return new Response(JSON.stringify({ user: { sub: "user-1" }, expires: "" }), {
    headers: { "Content-Type": "application/json" },
  });
}

Deno.bench(
  "bare Web Crypto in a minimal Request -> Response handler",
  { group: "session" },
  async () => {
    const response = await bareHandler(
      new Request(`${ORIGIN}/auth/session`, { headers: { Cookie: warmCookie } }),
    );
    await response.arrayBuffer();
  },
);

Deno.bench(
  "ours: GET /session, token not cached (full sealed read)",
  { group: "session" },
  async () => {
    // Each token is read once per instance: after a full pass a fresh instance
    // (same secret, empty cache) takes over.
    if (coldIndex % COLD === 0) oursCold = createAuth({ oauth: [], secret: SECRET, logger: false });
    const cookie = coldCookies[coldIndex++ % COLD];
    const response = await oursCold.handlers.GET(
      new Request(`${ORIGIN}/auth/session`, { headers: { Cookie: cookie } }),
    );
    await response.arrayBuffer();
  },
);

// The floor for a cached read: a minimal handler with no crypto, answering
// with only a Content-Type (the runtime's fastest response) and with the three
// headers every session response of ours must carry (JSON, no-store, nosniff).
const SESSION_BODY = JSON.stringify({ user: { sub: "user-1" }, expires: "" });

Deno.bench("no-crypto minimal handler, Content-Type only", { group: "cached" }, async () => {
  const request = new Request(`${ORIGIN}/auth/session`, { headers: { Cookie: warmCookie } });
  request.headers.get("Cookie");
  const response = new Response(SESSION_BODY, { headers: { "Content-Type": "application/json" } });
  await response.arrayBuffer();
});

Deno.bench("no-crypto minimal handler, our three headers", { group: "cached" }, async () => {
  const request = new Request(`${ORIGIN}/auth/session`, { headers: { Cookie: warmCookie } });
  request.headers.get("Cookie");
  const response = new Response(SESSION_BODY, {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
  await response.arrayBuffer();
});

Deno.bench("ours: GET /session, verified token cached", { group: "cached" }, async () => {
  const response = await ours.handlers.GET(
    new Request(`${ORIGIN}/auth/session`, { headers: { Cookie: warmCookie } }),
  );
  await response.arrayBuffer();
});

Deno.bench("Auth.js @auth/core: GET /session", { group: "session" }, async () => {
  const response = await Auth(
    new Request(`${ORIGIN}/auth/session`, {
      headers: { Cookie: `${authjsCookieName}=${authjsToken}` },
    }),
    authjsConfig,
  );
  await response.arrayBuffer();
});
