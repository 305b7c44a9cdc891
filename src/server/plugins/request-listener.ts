import type { RequestListener, Server } from "node:http";

/**
 * Replaces the server's one request listener (Fastify's, or an earlier wrapper of it) by
 * `wrap(listener)`. It stays one listener: Node's `emit` then calls it directly, where two
 * listeners would have it copy the list of them on every request.
 */
export function wrapRequestListener(server: Server, wrap: (listener: RequestListener) => RequestListener) {
  const [listener, ...others] = server.listeners("request") as RequestListener[];
  if (!listener || others.length > 0) throw new Error("wrapRequestListener expects one request listener");
  server.removeListener("request", listener);
  server.on("request", wrap(listener));
}
