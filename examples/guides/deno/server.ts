import { createAuth } from "@service-stack/auth";

const auth = createAuth({ oauth: ["github"] });

// `info` carries the client's address, which rate limits count by.
Deno.serve({ port: Number(Deno.env.get("PORT") ?? 8000) }, async (request, info) => {
  const url = new URL(request.url);
  if (url.pathname.startsWith("/auth/")) return auth.handlers.ALL(request, info);
  const session = await auth.api.getSession(request);
  return new Response(session ? `Hello ${session.user.name}` : "Not signed in");
});
