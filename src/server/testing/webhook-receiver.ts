import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export type ReceivedWebhook = { path: string; headers: IncomingHttpHeaders; body: string; json: unknown };

/**
 * A real HTTP server standing in for a company's endpoint: it keeps every request it gets and
 * answers each with `respond` (200 "ok" by default), which a test may change at any time.
 */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  let respond: (request: ReceivedWebhook, response: ServerResponse) => void = (_, response) => {
    response.writeHead(200, { "content-type": "text/plain" }).end("ok");
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let json: unknown = null;
      try {
        json = JSON.parse(body);
      } catch {}
      const hit = { path: request.url ?? "/", headers: request.headers, body, json };
      received.push(hit);
      respond(hit, response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = "/") => `http://127.0.0.1:${port}${path}`,
    port,
    received,
    /** The requests that reached `path`. */
    at: (path: string) => received.filter((hit) => hit.path === path),
    answerWith(handler: typeof respond) {
      respond = handler;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
