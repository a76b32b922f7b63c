// A seeded, repeatable fuzz run over every route: random and malformed
// methods, paths, queries, headers and bodies, mixed with valid cookies and
// CSRF tokens. Expected: no 5xx, no thrown error, every error body in the
// RFC 6749 shape with an ErrorType code, no request header echoed back.
import assert from "node:assert/strict";
import { prng } from "../_prng.ts";
import { createMockProvider } from "../../testing.ts";
import { ADA, bioSchema, Browser, ERROR_CODES, makeAuth } from "./_helpers.ts";
import { type AuthConfig, memoryStore, type StandardSchemaV1 } from "../../mod.ts";

const DEFAULT_SEED = 0x5eed_2026;
const ITERATIONS = 10_000;
const ECHO_MARKER = "echo-marker-7f3a";

class Random {
  constructor(readonly next: () => number) {}
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }
  /** A string of `length` characters drawn from `alphabet`. */
  text(length: number, alphabet: string): string {
    let out = "";
    for (let i = 0; i < length; i++) out += alphabet[this.int(alphabet.length)];
    return out;
  }
  bytes(length: number): Uint8Array<ArrayBuffer> {
    const out = new Uint8Array(length);
    for (let i = 0; i < length; i++) out[i] = this.int(256);
    return out;
  }
}

const PRINTABLE =
  " !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~";
// Header values may hold any byte but NUL, CR and LF.
const LATIN1 = PRINTABLE + "\t\x7f\x80\xa0\xe9\xff";
const PATHCHARS =
  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~%/?#[]@!$&'()*+,;=:\\ ";

/** A signUp.schema that wants an optional string `name` of at most 50 characters. */
const SIGN_UP_SCHEMA: StandardSchemaV1<unknown, Record<string, unknown>> = {
  "~standard": {
    version: 1,
    vendor: "hand-written",
    validate(value: unknown) {
      if (typeof value !== "object" || value === null) return { issues: [{ message: "object" }] };
      const name = (value as Record<string, unknown>).name;
      if (name !== undefined && (typeof name !== "string" || name.length > 50)) {
        return { issues: [{ message: "bad name", path: ["name"] }] };
      }
      return { value: { name } };
    },
  },
};

type Handler = (request: Request) => Promise<Response>;

interface Target {
  name: string;
  handler: Handler;
  /** The per-method handlers, fuzzed too. */
  perMethod: Handler[];
  origin: string;
  basePath: string;
  cookieNames: string[];
  /** Valid cookie pairs (`name=value`) and CSRF tokens collected from real responses. */
  cookies: string[];
  csrfTokens: string[];
  /** Real browser states: a Cookie header and the CSRF token that matches it. */
  authentic: { cookie: string; csrf: string }[];
  /** The `state` of a started OAuth flow whose cookies are among `cookies`. */
  oauthState: string;
}

function makeTargets(): Promise<Target[]> {
  const mock = createMockProvider();
  const common: Partial<AuthConfig> = {
    oauth: [mock.provider],
    fetch: mock.fetch,
    trustedOrigins: ["https://trusted.example", "https://*.wild.example", "http://localhost:*"],
    signUp: {
      onCreateUser: (payload) => ({
        sub: "fuzz-user",
        name: typeof payload.name === "string" && payload.name !== ""
          ? payload.name.slice(0, 50)
          : "Fuzz",
      }),
    },
  };
  const configs: [string, string, string, Partial<AuthConfig>][] = [
    ["default over http", "http://localhost:8000", "/auth", common],
    ["signed, proxy headers, schema, over https", "https://app.example.com", "/api/auth", {
      ...common,
      basePath: "/api/auth",
      jwt: { mode: "signed" },
      trustedProxyHeaders: true,
      cookies: { prefix: "fz" },
      identity: { schema: bioSchema(2000) },
      credentials: {
        authorize: ({ username, password }) =>
          username === "ada" && password === "correct horse" ? { ...ADA, bio: "hi" } : null,
      },
      signUp: { ...common.signUp!, schema: SIGN_UP_SCHEMA },
    }],
    ["root base path, encrypted, session store, form_post provider", "http://127.0.0.1:3000", "", {
      ...common,
      oauth: [mock.provider, { ...mock.provider, id: "posty", responseMode: "form_post" }],
      session: { store: memoryStore() },
      basePath: "/",
      jwt: { mode: "encrypted" },
      trustedOrigins: (request: Request) =>
        request.headers.get("X-Tenant") === "a" ? ["https://tenant-a.example"] : [],
    }],
  ];
  return Promise.all(configs.map(async ([name, origin, basePath, config]) => {
    const auth = makeAuth(config);
    const handler = auth.handlers.ALL;
    const browser = new Browser(handler, origin);
    const cookies = new Set<string>();
    const csrfTokens = new Set<string>();
    const collect = (response: Response) => {
      for (const line of response.headers.getSetCookie()) {
        const pair = line.split(";")[0];
        if (!pair.endsWith("=")) cookies.add(pair);
      }
    };
    const unbound = await browser.fetch("GET", `${basePath}/csrfToken`);
    collect(unbound);
    csrfTokens.add((await unbound.json()).csrfToken);
    const signIn = await browser.fetch("POST", `${basePath}/signIn/credentials`, {
      json: { username: "ada", password: "correct horse" },
      headers: { "X-CSRF-Token": csrfTokens.values().next().value! },
    });
    assert.equal(signIn.status, 200, `${name}: sign-in for the fuzz seed material`);
    collect(signIn);
    for (const pair of cookies) {
      if (pair.includes("csrf_token=")) csrfTokens.add(pair.slice(pair.indexOf("=") + 1));
    }
    const authentic = [{
      cookie: browser.cookieHeader(),
      csrf: browser.cookies.get(csrfName(browser))!,
    }];
    const anonymous = new Browser(handler, origin);
    const csrf = await anonymous.csrf();
    authentic.push({ cookie: anonymous.cookieHeader(), csrf });
    const start = await browser.fetch("GET", `${basePath}/signIn/mock`);
    collect(start);
    const oauthState = new URL(start.headers.get("Location")!).searchParams.get("state")!;
    authentic.push({
      cookie: browser.cookieHeader(),
      csrf: browser.cookies.get(csrfName(browser))!,
    });
    const cookieNames = [...new Set([...cookies].map((pair) => pair.slice(0, pair.indexOf("="))))];
    return {
      name,
      handler,
      perMethod: [auth.handlers.GET, auth.handlers.POST, auth.handlers.PATCH],
      origin,
      basePath,
      cookieNames,
      cookies: [...cookies],
      csrfTokens: [...csrfTokens],
      authentic,
      oauthState,
    };
  }));
}

function csrfName(browser: Browser): string {
  return [...browser.cookies.keys()].find((name) => name.endsWith("csrf_token"))!;
}

const ROUTES = [
  "session",
  "csrfToken",
  "signUp",
  "signOut",
  "signIn/credentials",
  "signIn/mock",
  "signIn/github",
  "signIn/",
  "callback/mock",
  "callback/posty",
  "callback/github",
  "callback/",
  "signIn/%6Dock",
  "signIn/mock%2Fx",
  "signIn/%",
  "signIn/%E0%A4%A",
  "signIn/credentials/",
  "nope",
  "",
];

/** Known routes and their methods: most requests hit a real route with a right method. */
const ROUTE_METHODS: [string, string[]][] = [
  ["session", ["GET", "POST", "PATCH"]],
  ["csrfToken", ["GET"]],
  ["signUp", ["POST"]],
  ["signOut", ["POST"]],
  ["signIn/credentials", ["POST"]],
  ["signIn/mock", ["GET"]],
  ["signIn/github", ["GET"]],
  ["callback/mock", ["GET", "POST"]],
  ["callback/posty", ["GET", "POST"]],
  ["signIn/posty", ["GET"]],
];

function randomPath(r: Random, target: Target): string {
  let route = r.pick(ROUTES);
  const roll = r.int(9);
  if (roll === 0) route = route.replace("/", "//");
  else if (roll === 1) route += "/";
  else if (roll === 2) {
    route = `${route}/${r.text(r.int(8), PATHCHARS.replace("?", "").replace("#", ""))}`;
  } else if (roll === 3) route = r.text(r.int(40), PATHCHARS.replace("?", "").replace("#", ""));
  else if (roll === 4) route = `signIn/${"a".repeat(r.pick([300, 5000, 20000]))}`;
  else if (roll === 5) route = `${route}%00`;
  else if (roll === 6) route = encodeURIComponent(route);
  let base = target.basePath;
  if (r.chance(0.05)) base = r.pick(["/other", "/auth/auth", "", "/AUTH", "//auth"]);
  return `${base}/${route}`;
}

const REDIRECT_TARGETS = [
  "/home",
  "//evil.example",
  "/\\evil.example",
  "https://evil.example/",
  "https://trusted.example/x",
  "https://a.wild.example/",
  "https://a.b.wild.example/",
  "https://trusted.example@evil.example/",
  "javascript:alert(1)",
  "data:text/html,x",
  "http://[",
  "%2F%2Fevil.example",
  "/%2F%2Fevil.example",
  "/%09/evil",
  "https:evil.example",
  "",
  "%",
  "/" + "a".repeat(5000),
  "/" + "a".repeat(20000),
  "/" + "\u00e9\u4e2d".repeat(1000),
  "https://trusted.example/" + "b".repeat(3000),
];

function query(r: Random): string {
  if (r.chance(0.35)) return "";
  const parts: string[] = [];
  const count = 1 + r.int(5);
  for (let i = 0; i < count; i++) {
    switch (r.int(9)) {
      case 0:
        parts.push(`redirect=${r.pick(["true", "false", "maybe", "", "TRUE", "%", "1"])}`);
        break;
      case 1:
        parts.push(
          `redirectTo=${
            r.chance(0.5) ? encodeURIComponent(r.pick(REDIRECT_TARGETS)) : r.pick(REDIRECT_TARGETS)
          }`,
        );
        break;
      case 2:
        parts.push(`code=${r.text(r.int(60), PRINTABLE.replace("&", "").replace("#", ""))}`);
        break;
      case 3:
        parts.push(`state=${r.text(r.int(60), "abcdefABCDEF0123456789-_%")}`);
        break;
      case 4:
        parts.push(
          `error=${r.pick(["access_denied", "server_error", "nope", "%", "invalid_request"])}`,
        );
        break;
      case 5:
        parts.push(`iss=${r.pick(["http://mock-oauth.localhost", "https://evil.example", "%zz"])}`);
        break;
      case 6:
        parts.push(r.pick(["%", "%%", "a=%", "=%E0%A4%A", "&&&", "==", "%zz=%zz", "a+b=c+d"]));
        break;
      case 7:
        parts.push("redirect=true", "redirect=true");
        break;
      default:
        parts.push(
          `${r.text(r.int(10), "abcXYZ%=&")}=${r.text(r.int(20), PRINTABLE.replace("#", ""))}`,
        );
    }
  }
  return `?${parts.join("&")}`;
}

const ORIGINS = [
  "https://trusted.example",
  "https://trusted.example/",
  "https://evil.example",
  "null",
  "http://[",
  "https://a.wild.example",
  "https://a.b.wild.example",
  "https://tenant-a.example",
  "http://localhost:8000",
  "https://app.example.com",
  "http://localhost:9999",
  "file://",
  "https://trusted.example.evil.example",
  "https://trusted.example@evil.example",
  "",
];

function cookieHeader(r: Random, target: Target): string {
  const pairs: string[] = [];
  const count = r.int(6);
  for (let i = 0; i < count; i++) {
    switch (r.int(7)) {
      case 0:
      case 1:
        pairs.push(r.pick(target.cookies));
        break;
      case 2: {
        // A valid value under the wrong name, or a chunk name.
        const value = r.pick(target.cookies).split("=")[1];
        const name = r.pick(target.cookieNames);
        pairs.push(
          `${r.chance(0.5) ? name : `${name}.${r.pick(["0", "1", "evil", "00", "16"])}`}=${value}`,
        );
        break;
      }
      case 3: {
        // A valid value, damaged.
        const [name, value] = r.pick(target.cookies).split("=");
        const at = r.int(value.length);
        pairs.push(
          `${name}=${value.slice(0, at)}${r.text(1 + r.int(3), "AZaz09-_.")}${value.slice(at + 1)}`,
        );
        break;
      }
      case 4:
        pairs.push(`${r.pick(target.cookieNames)}=${r.text(r.int(80), LATIN1.replace(";", ""))}`);
        break;
      case 5:
        pairs.push(r.pick(["=", ";;", "a", "=x", '""=""', 'x="', "x=%"]));
        break;
      default:
        pairs.push(
          `${r.text(1 + r.int(10), PRINTABLE.replace(";", "").replace("=", ""))}=${
            r.text(r.int(30), LATIN1.replace(";", ""))
          }`,
        );
    }
  }
  if (r.chance(0.02)) pairs.push(`big=${"x".repeat(100_000)}`);
  return pairs.join(r.pick(["; ", ";", " ; "]));
}

function headers(r: Random, target: Target): Headers {
  const h = new Headers();
  const set = (name: string, value: string) => {
    try {
      h.set(name, value);
    } catch {
      // A value the Headers class refuses cannot reach a handler either.
    }
  };
  if (r.chance(0.5)) {
    // A real browser state, sometimes with garbage cookies around it.
    const state = r.pick(target.authentic);
    const extra = r.chance(0.3) ? `; ${cookieHeader(r, target)}` : "";
    set("Cookie", `${state.cookie}${extra}`);
    if (r.chance(0.85)) set("X-CSRF-Token", state.csrf);
  } else {
    if (r.chance(0.75)) set("Cookie", cookieHeader(r, target));
    if (r.chance(0.4)) {
      set("X-CSRF-Token", r.chance(0.7) ? r.pick(target.csrfTokens) : r.text(r.int(60), LATIN1));
    }
  }
  if (r.chance(0.2)) set("Origin", r.chance(0.3) ? target.origin : r.pick(ORIGINS));
  if (r.chance(0.8)) {
    set(
      "Content-Type",
      r.pick([
        "application/json",
        "application/json",
        "application/json",
        "application/x-www-form-urlencoded",
        "application/x-www-form-urlencoded",
        "APPLICATION/JSON; charset=utf-16",
        "text/plain",
        "multipart/form-data; boundary=x",
        "application/x-www-form-urlencodedx",
        ";;;",
        r.text(r.int(30), LATIN1),
      ]),
    );
  }
  if (r.chance(0.15)) {
    set(
      "Content-Length",
      r.pick(["0", "-1", "abc", "65537", "99999999999999999999", "1e9", " 12"]),
    );
  }
  if (r.chance(0.2)) {
    set("X-Forwarded-Proto", r.pick(["https", "http", "ftp", "HTTPS", "", "https, http"]));
  }
  if (r.chance(0.2)) {
    set("X-Forwarded-Host", r.pick(["evil.example", "[::1]:99999", "a b", "app.example.com", "%"]));
  }
  if (r.chance(0.1)) set("X-Forwarded-For", r.text(r.int(40), LATIN1));
  if (r.chance(0.15)) {
    set(
      "Forwarded",
      r.pick([
        "proto=https;host=x",
        'for="[::1]";proto=http',
        "garbage",
        'a="unterminated',
        r.text(50, LATIN1),
      ]),
    );
  }
  if (r.chance(0.2)) {
    set("Authorization", r.pick(["Bearer %", "Bearer ", "Basic ###", r.text(40, LATIN1)]));
  }
  if (r.chance(0.15)) {
    set("Referer", r.pick([...REDIRECT_TARGETS, ...ORIGINS, `${target.origin}/page`]));
  }
  if (r.chance(0.1)) set("Access-Control-Request-Method", r.pick(["POST", "DELETE", "%"]));
  if (r.chance(0.1)) {
    set("Access-Control-Request-Headers", r.pick(["x-csrf-token", "*", ECHO_MARKER]));
  }
  if (r.chance(0.1)) set("X-Tenant", r.pick(["a", "b"]));
  set("X-Echo", ECHO_MARKER);
  return h;
}

function deep(depth: number, open: string, close: string, inner = "1"): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

function body(r: Random, target: Target, path: string): BodyInit | undefined {
  // Half the time, a body shaped for the route, so that validation runs deep.
  let choice = r.int(16);
  if (r.chance(0.5)) {
    if (path.endsWith("/session")) choice = r.pick([9, 9, 10, 14]);
    else if (path.endsWith("/credentials")) choice = r.pick([6, 7, 8, 11]);
    else if (path.endsWith("/signUp")) choice = r.pick([8, 12, 14, 5]);
  }
  switch (choice) {
    case 0:
      return undefined;
    case 1:
      return r.bytes(r.int(200));
    case 2:
      return new Uint8Array([0x7b, 0x22, 0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0x22, 0x7d]);
    case 3:
      return deep(r.pick([100, 5000, 30000]), "[", "]");
    case 4:
      return `{"user":${deep(r.pick([100, 10000]), '{"a":', "}")}}`;
    case 5:
      return r.pick(["1", '"str"', "null", "true", "[]", "[1,2]", "{}", "", " ", "{", "}{"]);
    case 6:
      return JSON.stringify({
        username: "ada",
        password: "x".repeat(r.pick([1000, 1025, 60000, 70000])),
      });
    case 7:
      return JSON.stringify({ username: "ada", password: "correct horse" });
    case 8:
      return JSON.stringify({
        username: r.pick([{}, [], 1, null, "", "ada", true]),
        password: r.pick([{}, [], 1, null, "", "correct horse"]),
        [r.pick(["extra", "__proto__", "constructor"])]: { sub: "admin" },
      });
    case 9:
      return JSON.stringify({
        user: r.pick([
          { name: "x".repeat(r.pick([10, 2048, 2049, 30000, 60000])) },
          { sub: "admin" },
          { exp: 1 },
          { bio: "b".repeat(r.pick([10, 2001, 50000])) },
          { name: "n".repeat(r.pick([5000, 20000, 40000])), bio: "ok" },
          { name: null },
          { __proto__: { sub: "admin" } },
          "x",
          [],
        ]),
        ...(r.chance(0.3)
          ? { expires: r.pick(["2099-01-01T00:00:00Z", "yesterday", 5, "", "1970-01-01"]) }
          : {}),
      });
    case 10:
      return `{"__proto__":{"sub":"admin"},"user":{"constructor":{"prototype":{"x":1}}}}`;
    case 11:
      return new URLSearchParams({
        username: "ada",
        password: "correct horse",
        csrfToken: r.pick(target.csrfTokens),
      }).toString();
    case 12:
      return r.pick([
        "a=%",
        "csrfToken=",
        "a=1&a=2",
        "%%%",
        "name=x&name=y",
        "=&=&",
        "__proto__=x",
      ]) +
        (r.chance(0.5) ? `&csrfToken=${r.pick(target.csrfTokens)}` : "");
    case 13: {
      // A streamed body of random size, no Content-Length.
      const chunks = r.int(90);
      const chunk = new Uint8Array(1024).fill(0x61);
      return new ReadableStream<Uint8Array>({
        start(controller) {
          for (let i = 0; i < chunks; i++) controller.enqueue(chunk);
          controller.close();
        },
      });
    }
    case 14:
      return `{"name":"${"\\u0000".repeat(100)}\\ud800","email":"${"\u{1F600}".repeat(50)}"}`;
    default:
      return r.text(r.int(300), PRINTABLE);
  }
}

const METHODS = [
  "GET",
  "GET",
  "POST",
  "POST",
  "POST",
  "PATCH",
  "PATCH",
  "PUT",
  "DELETE",
  "OPTIONS",
  "HEAD",
  "get",
  "post",
  "patch",
  "PROPFIND",
  "X-CUSTOM",
  "M-SEARCH",
];

function makeRequest(r: Random, target: Target): Request | null {
  let method: string;
  let path: string;
  if (r.chance(0.7)) {
    const [route, methods] = r.pick(ROUTE_METHODS);
    method = r.pick(methods);
    if (r.chance(0.1)) method = method.toLowerCase();
    path = `${target.basePath}/${route}`;
  } else {
    method = r.pick(METHODS);
    path = randomPath(r, target);
  }
  let search = query(r);
  if (path.endsWith("/callback/mock") && r.chance(0.5)) {
    search = `?code=${r.text(20, "abcdef0123456789")}&state=${target.oauthState}`;
  }
  const url = `${target.origin}${path}${search}`;
  const init: RequestInit & { duplex?: string } = { method, headers: headers(r, target) };
  const upper = method.toUpperCase();
  if (upper !== "GET" && upper !== "HEAD") {
    const b = body(r, target, path);
    if (b !== undefined) {
      init.body = b;
      if (b instanceof ReadableStream) init.duplex = "half";
    }
  }
  try {
    return new Request(url, init);
  } catch {
    return null;
  }
}

interface Failure {
  i: number;
  target: string;
  request: string;
  problem: string;
}

function describe(request: Request): string {
  return `${request.method} ${request.url.slice(0, 200)} [${
    [...request.headers.keys()].join(",")
  }]`;
}

async function check(
  handler: Handler,
  request: Request,
  statuses: Map<number, number>,
): Promise<string | null> {
  let response: Response;
  try {
    response = await handler(request);
  } catch (error) {
    return `threw ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`;
  }
  if (!(response instanceof Response)) return "did not answer with a Response";
  statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
  if (response.status >= 500) return `status ${response.status}: ${await response.text()}`;
  for (const [name, value] of response.headers) {
    if (value.includes(ECHO_MARKER)) return `header ${name} echoes a request header`;
  }
  const text = await response.text();
  if (text.includes(ECHO_MARKER)) return "body echoes a request header";
  if (response.status >= 400) {
    if (response.headers.get("Content-Type")?.split(";")[0] !== "application/json") {
      return `error without JSON content type: ${response.headers.get("Content-Type")}`;
    }
    if (response.headers.get("Cache-Control") !== "no-store") return "error without no-store";
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return `error body is not JSON: ${text.slice(0, 100)}`;
    }
    const keys = typeof parsed === "object" && parsed !== null ? Object.keys(parsed).sort() : [];
    if (keys.join() !== "error,error_description") return `error body keys ${keys}`;
    const { error, error_description } = parsed as Record<string, unknown>;
    if (typeof error !== "string" || !ERROR_CODES.has(error)) return `unknown code ${error}`;
    if (typeof error_description !== "string") return "error_description not a string";
  }
  return null;
}

Deno.test(`fuzz: ${ITERATIONS} random and malformed requests give no 5xx, no throw, only RFC 6749 errors`, async () => {
  const seed = Number(Deno.env.get("FUZZ_SEED") ?? DEFAULT_SEED);
  console.log(`fuzz seed: ${seed} (set FUZZ_SEED to replay another)`);
  const r = new Random(prng(seed));
  const targets = await makeTargets();
  const failures: Failure[] = [];
  const statuses = new Map<number, number>();
  let sent = 0;
  for (let i = 0; i < ITERATIONS; i++) {
    const target = r.pick(targets);
    const request = makeRequest(r, target);
    if (request === null) continue;
    const summary = describe(request);
    sent++;
    const handler = r.chance(0.15) ? r.pick(target.perMethod) : target.handler;
    const problem = await check(handler, request, statuses);
    if (problem !== null) failures.push({ i, target: target.name, request: summary, problem });
  }
  console.log(`fuzz statuses: ${JSON.stringify(Object.fromEntries([...statuses].sort()))}`);
  assert.ok(sent > ITERATIONS * 0.9, `only ${sent} requests could be built`);
  assert.deepEqual(failures.slice(0, 10), [], `${failures.length} failures with seed ${seed}`);
});

Deno.test("fuzz: the same seed builds the same requests", () => {
  const a = new Random(prng(DEFAULT_SEED));
  const b = new Random(prng(DEFAULT_SEED));
  const target: Target = {
    name: "t",
    handler: () => Promise.resolve(new Response()),
    perMethod: [],
    origin: "http://localhost:8000",
    basePath: "/auth",
    cookieNames: ["c"],
    cookies: ["c=v"],
    csrfTokens: ["t"],
    authentic: [{ cookie: "c=v", csrf: "t" }],
    oauthState: "s",
  };
  for (let i = 0; i < 50; i++) {
    const x = makeRequest(a, target);
    const y = makeRequest(b, target);
    assert.equal(x && describe(x), y && describe(y));
  }
});
