// GET /callback/:oauth with warm caches: an OpenID Connect sign-in against the
// in-process mock (ES256 ID token; discovery, JWKS and the imported key
// cached by the instance), the same by discovery, and a plain OAuth sign-in
// for reference. Each iteration starts and authorizes a flow untimed, then
// times only the callback: flow cookies opened, code
// exchanged at the mock, ID token verified, user info, session and CSRF
// cookies issued. The crypto.subtle calls of one callback are counted and
// printed, ours apart from the mock's (its PKCE digest and ID-token signature).
import { type AuthConfig, createAuth } from "../mod.ts";
import { createMockProvider, type MockProviderOptions } from "../testing.ts";

const SECRET = "bench-secret-0123456789abcdef-0123456789abcdef";
const ORIGIN = "http://localhost:8000";

const SUBTLE_METHODS = [
  "encrypt",
  "decrypt",
  "sign",
  "verify",
  "digest",
  "importKey",
  "exportKey",
  "deriveBits",
  "deriveKey",
  "generateKey",
] as const;

/** Counts crypto.subtle calls, split by whether the mock provider made them. */
const counts = { ours: 0, mock: 0 };
let inMock = false;
let counting = false;
{
  const subtle = crypto.subtle as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of SUBTLE_METHODS) {
    const original = subtle[name].bind(crypto.subtle);
    subtle[name] = (...args: unknown[]) => {
      if (counting) counts[inMock ? "mock" : "ours"]++;
      return original(...args);
    };
  }
}

interface Bench {
  callback: (b: Deno.BenchContext) => Promise<void>;
  /** crypto.subtle calls of one callback: ours, and the mock's. */
  calls: { ours: number; mock: number };
}

function cookiePairs(response: Response, jar: Map<string, string>): void {
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(";")[0];
    const name = pair.slice(0, pair.indexOf("="));
    if (/Max-Age=0/i.test(line)) jar.delete(name);
    else jar.set(name, pair.slice(name.length + 1));
  }
}

async function prepare(mockOptions: MockProviderOptions): Promise<Bench> {
  const mock = createMockProvider(mockOptions);
  const mockFetch: typeof fetch = async (input, init) => {
    inMock = true;
    try {
      return await mock.fetch(input, init);
    } finally {
      inMock = false;
    }
  };
  const auth = createAuth({
    oauth: [mock.provider],
    secret: SECRET,
    logger: false,
    fetch: mockFetch,
  } as AuthConfig);

  /** A started and authorized flow: its cookies and the callback URL. */
  async function flow(): Promise<Request> {
    const jar = new Map<string, string>();
    const start = await auth.handlers.GET(new Request(`${ORIGIN}/auth/signIn/mock?redirectTo=%2F`));
    cookiePairs(start, jar);
    const answer = await mock.fetch(start.headers.get("Location")!);
    const cookie = [...jar].map(([name, value]) => `${name}=${value}`).join("; ");
    return new Request(answer.headers.get("Location")!.replace(/^http:\/\/[^/]+/, ORIGIN), {
      headers: { Cookie: cookie },
    });
  }

  async function complete(request: Request): Promise<void> {
    const response = await auth.handlers.GET(request);
    const location = response.headers.get("Location");
    if (response.status !== 302 || location !== "/") {
      throw new Error(`callback failed: ${response.status} ${location}`);
    }
  }

  // Warm: discovery, the JWKS and its imported key, the flow and session keys.
  await complete(await flow());
  await complete(await flow());

  const measured = await flow();
  counts.ours = 0;
  counts.mock = 0;
  counting = true;
  await complete(measured);
  counting = false;
  const calls = { ...counts };

  return {
    calls,
    // Only the callback is timed: the flow is started and authorized first.
    callback: async (b: Deno.BenchContext) => {
      const request = await flow();
      b.start();
      await complete(request);
      b.end();
    },
  };
}

const oidc = await prepare({});
const discovery = await prepare({ oidc: { discovery: true } });
const plain = await prepare({ oidc: false });

console.log(
  `crypto.subtle calls per callback (ours + the mock's): OpenID Connect ${oidc.calls.ours} + ${oidc.calls.mock}, ` +
    `by discovery ${discovery.calls.ours} + ${discovery.calls.mock}, plain OAuth ${plain.calls.ours} + ${plain.calls.mock}`,
);

Deno.bench({
  name: "ours: GET /callback, OpenID Connect, warm caches (mock, ES256)",
  group: "callback",
  baseline: true,
  fn: oidc.callback,
});

Deno.bench({
  name: "ours: GET /callback, OpenID Connect by discovery, warm caches",
  group: "callback",
  fn: discovery.callback,
});

Deno.bench({
  name: "ours: GET /callback, plain OAuth (no ID token)",
  group: "callback",
  fn: plain.callback,
});
