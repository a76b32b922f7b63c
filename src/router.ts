/**
 * Method + path to route. Paths are matched segment by segment on the raw
 * pathname: extra or doubled slashes, trailing slashes and dot segments never
 * match, so no check bound to a canonical path can be skipped.
 *
 * @module
 */

/** The routes of the HTTP interface. */
export type RouteName =
  | "signIn"
  | "credentials"
  | "callback"
  | "session"
  | "csrfToken"
  | "signUp"
  | "signOut";

/** A matched route. */
export interface RouteMatch {
  /** Which route. */
  name: RouteName;
  /** The `:oauth` path parameter, decoded, for `signIn` and `callback`. */
  provider?: string;
}

/** The outcome of routing: a match, an unknown path, or a known path with the wrong method. */
export type RouteResult =
  | { kind: "match"; route: RouteMatch; methods: readonly string[] }
  | { kind: "not_found" }
  | { kind: "method_not_allowed"; methods: readonly string[]; routes: readonly RouteMatch[] };

const GET = ["GET"] as const;
const POST = ["POST"] as const;

interface PathMatch {
  methods: readonly string[];
  byMethod: Readonly<Record<string, RouteMatch>>;
}

function match(segments: string[]): PathMatch | null {
  if (segments.length === 1) {
    switch (segments[0]) {
      case "session":
        return {
          methods: ["GET", "POST", "PATCH"],
          byMethod: {
            GET: { name: "session" },
            POST: { name: "session" },
            PATCH: { name: "session" },
          },
        };
      case "csrfToken":
        return { methods: GET, byMethod: { GET: { name: "csrfToken" } } };
      case "signUp":
        return { methods: POST, byMethod: { POST: { name: "signUp" } } };
      case "signOut":
        return { methods: POST, byMethod: { POST: { name: "signOut" } } };
    }
    return null;
  }
  if (segments.length !== 2) return null;
  const [head, raw] = segments;
  if (head !== "signIn" && head !== "callback") return null;
  const provider = decodeSegment(raw);
  if (provider === null) return null;
  if (head === "callback") {
    return { methods: GET, byMethod: { GET: { name: "callback", provider } } };
  }
  if (provider === "credentials") {
    return { methods: POST, byMethod: { POST: { name: "credentials" } } };
  }
  return { methods: GET, byMethod: { GET: { name: "signIn", provider } } };
}

function decodeSegment(raw: string): string | null {
  if (raw === "") return null;
  try {
    const value = decodeURIComponent(raw);
    return value === "" || value.includes("/") ? null : value;
  } catch {
    return null;
  }
}

/** Routes a pathname (already known to be under `basePath`) and method. */
export function route(basePath: string, pathname: string, method: string): RouteResult {
  if (!pathname.startsWith(basePath) || pathname.charCodeAt(basePath.length) !== 47) {
    return { kind: "not_found" };
  }
  const rest = pathname.slice(basePath.length + 1);
  const found = match(rest.split("/"));
  if (!found) return { kind: "not_found" };
  const matched = found.byMethod[method];
  if (!matched) {
    return {
      kind: "method_not_allowed",
      methods: found.methods,
      routes: Object.values(found.byMethod),
    };
  }
  return { kind: "match", route: matched, methods: found.methods };
}
