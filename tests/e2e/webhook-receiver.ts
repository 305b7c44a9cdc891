import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { expect } from "@playwright/test";

export type ReceivedMessage = { headers: IncomingHttpHeaders; body: string };

/**
 * A customer's webhook endpoint on 127.0.0.1 (the e2e server may send to private addresses:
 * OUTBOUND_ALLOW_PRIVATE in global-setup.ts). It keeps each POST's headers and raw body and
 * answers 200 'ok', as a receiver that accepted the message would, or the status a test sets
 * (`answerWith(500)`: a receiver that is down).
 */
export async function startWebhookReceiver() {
  const received: ReceivedMessage[] = [];
  let status = 200;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") });
      response
        .writeHead(status, { "content-type": "text/plain" })
        .end(status < 300 ? "ok" : "receiver is down");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}/hooks/buddy`,
    received,
    /** The status every request is answered with from now on. */
    answerWith(next: number) {
      status = next;
    },
    /** The first message (from the `after`th on) whose body's `type` is `type`. */
    async waitForMessage(type: string, after = 0): Promise<ReceivedMessage> {
      let found: ReceivedMessage | undefined;
      await expect
        .poll(
          () => {
            found = received.slice(after).find((message) => JSON.parse(message.body).type === type);
            return Boolean(found);
          },
          { timeout: 20_000 },
        )
        .toBe(true);
      return found as ReceivedMessage;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Node's headers as the `standardwebhooks` package reads them: one string per name. */
export function signatureHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  return {
    "webhook-id": String(headers["webhook-id"]),
    "webhook-timestamp": String(headers["webhook-timestamp"]),
    "webhook-signature": String(headers["webhook-signature"]),
  };
}
