import { createAuth } from "@service-stack/auth";

const auth = createAuth({ oauth: ["github"] });

// Listens on PORT (default 3000).
Bun.serve({
  async fetch(request, server) {
    if (new URL(request.url).pathname.startsWith("/auth/")) {
      // The client's address, which rate limits count by.
      const remoteAddr = { hostname: server.requestIP(request)?.address };
      return auth.handlers.ALL(request, { remoteAddr });
    }
    const session = await auth.api.getSession(request);
    return new Response(session ? `Hello ${session.user.name}` : "Not signed in");
  },
});
