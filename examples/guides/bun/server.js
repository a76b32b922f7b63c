import { createAuth } from "@service-stack/auth";

const auth = createAuth({ oauth: ["github"] });

// Listens on PORT (default 3000).
Bun.serve({
  async fetch(request) {
    if (new URL(request.url).pathname.startsWith("/auth/")) return auth.handlers.ALL(request);
    const session = await auth.api.getSession(request);
    return new Response(session ? `Hello ${session.user.name}` : "Not signed in");
  },
});
