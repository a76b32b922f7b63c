// Starting a sign-in, warm caches: POST /signIn/sso (CSRF checked, the body
// read, `sso.resolve` asked, the connection checked, the issuer's discovery
// document and keys from the per-issuer cache, the flow sealed) against GET
// /signIn/:oauth of an OpenID Connect provider configured by issuer with its
// discovery cached (the built-in google-like path), in the same run. Both
// against in-process mocks; each answers 200 { url } (`redirect=false` for
// the GET). The crypto.subtle calls of one request of each are printed.
//
//   npx -y deno@2 bench -A bench/sso_bench.ts
import { type AuthConfig, createAuth } from "../mod.ts";
import { createMockProvider } from "../testing.ts";

const SECRET = "bench-secret-0123456789abcdef-0123456789abcdef";
const ORIGIN = "http://localhost:8000";

let subtleCalls = 0;
{
  const subtle = crypto.subtle as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of ["encrypt", "decrypt", "sign", "verify", "digest", "importKey"]) {
    const original = subtle[name].bind(crypto.subtle);
    subtle[name] = (...args: unknown[]) => {
      subtleCalls++;
      return original(...args);
    };
  }
}

const builtIn = createMockProvider({
  baseURL: "http://builtin.localhost",
  id: "corp",
  oidc: { discovery: true },
});
const org = createMockProvider({
  baseURL: "http://acme.localhost",
  id: "acme",
  oidc: { discovery: true },
});
const routes: Record<string, typeof fetch> = {
  [builtIn.issuer]: builtIn.fetch,
  [org.issuer]: org.fetch,
};
const auth = createAuth({
  oauth: [builtIn.provider],
  secret: SECRET,
  logger: false,
  fetch: ((input: RequestInfo | URL, init?: RequestInit) =>
    routes[new URL(String(input)).origin](input, init)) as typeof fetch,
  sso: {
    resolve: ({ domain, organization }) =>
      domain === "acme.example" || organization === "acme"
        ? {
          id: "acme",
          issuer: org.issuer,
          clientId: org.provider.clientId,
          clientSecret: org.provider.clientSecret as string,
          domains: ["acme.example"],
        }
        : null,
  },
} as AuthConfig);

const csrf = await auth.handlers.GET(new Request(`${ORIGIN}/auth/csrfToken`));
const { csrfToken } = await csrf.json();
const csrfCookie = csrf.headers.getSetCookie()[0].split(";")[0];
const ssoBody = JSON.stringify({ email: "ada@acme.example", redirectTo: "/home" });

async function startBuiltIn(): Promise<void> {
  const response = await auth.handlers.GET(
    new Request(`${ORIGIN}/auth/signIn/corp?redirect=false&redirectTo=%2Fhome`),
  );
  if (response.status !== 200) throw new Error(`GET /signIn/corp answered ${response.status}`);
  await response.body?.cancel();
}

async function startSso(): Promise<void> {
  const response = await auth.handlers.POST(
    new Request(`${ORIGIN}/auth/signIn/sso`, {
      method: "POST",
      headers: {
        "Content-Type": "application/json",
        "X-CSRF-Token": csrfToken,
        Origin: ORIGIN,
        Cookie: csrfCookie,
      },
      body: ssoBody,
    }),
  );
  if (response.status !== 200) throw new Error(`POST /signIn/sso answered ${response.status}`);
  await response.body?.cancel();
}

// Warm both: discovery documents and key sets cached.
for (let i = 0; i < 50; i++) {
  await startBuiltIn();
  await startSso();
}
for (
  const [name, run] of [["GET /signIn/corp", startBuiltIn], ["POST /signIn/sso", startSso]] as const
) {
  subtleCalls = 0;
  await run();
  console.log(`${name}: ${subtleCalls} crypto.subtle calls`);
}

if (!Deno.args.includes("--ratio")) {
  Deno.bench({
    name: "GET /signIn/:oauth, OpenID Connect by discovery (cached)",
    group: "start",
    baseline: true,
    fn: startBuiltIn,
  });
}
if (!Deno.args.includes("--ratio")) {
  Deno.bench({
    name: "POST /signIn/sso, warm discovery cache",
    group: "start",
    fn: startSso,
  });
}

// `deno run -A bench/sso_bench.ts --ratio`: alternating batches, medians and their ratio.
if (Deno.args.includes("--ratio")) {
  const median = (values: number[]) => values.sort((a, b) => a - b)[values.length >> 1];
  const builtInTimes: number[] = [];
  const ssoTimes: number[] = [];
  for (let round = 0; round < 400; round++) {
    for (const [run, times] of [[startBuiltIn, builtInTimes], [startSso, ssoTimes]] as const) {
      const began = performance.now();
      for (let i = 0; i < 10; i++) await run();
      times.push((performance.now() - began) / 10);
    }
  }
  const a = median(builtInTimes);
  const b = median(ssoTimes);
  console.log(
    `median GET /signIn/corp ${(a * 1000).toFixed(0)} us, POST /signIn/sso ${
      (b * 1000).toFixed(0)
    } us, ratio ${(b / a).toFixed(2)}`,
  );
}
