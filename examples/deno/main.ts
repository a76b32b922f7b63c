// Placeholder demo until the client issue lands.
const server = Deno.serve(
  { port: Number(Deno.env.get("PORT") ?? 8000), hostname: "127.0.0.1" },
  () =>
    new Response("<h1>@service-stack/auth demo</h1>", { headers: { "content-type": "text/html" } }),
);
console.log(`Demo on http://127.0.0.1:${server.addr.port}/`);
