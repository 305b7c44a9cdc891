// A fast path (fast-path.ts) on a server of its own, so a test sees what it does by itself: an
// answer it gives, or that it declined the request (598) or handed it back to the route (599).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { FastPath } from "./fast-path";

export const DECLINED = 598;
export const HANDED_BACK = 599;

export async function serveFastPath(fastPath: FastPath): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    const handBack = () => {
      response.statusCode = HANDED_BACK;
      response.end();
    };
    if (fastPath(request, response, handBack)) return;
    response.statusCode = DECLINED;
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The headers of an answer that must be the same whichever way it was answered. */
export function comparableHeaders(headers: Headers | Record<string, unknown>): Record<string, string> {
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  const skip = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);
  return Object.fromEntries(
    entries
      .filter(([name]) => !skip.has(name.toLowerCase()))
      .map(([name, value]) => [name.toLowerCase(), String(value)]),
  );
}
