import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the fixture received, for assertions on counts, paths and Host routing. */
export type FixtureRequest = { path: string; host: string; headers: IncomingMessage["headers"] };

export type FixtureSite = {
  /** http://127.0.0.1:<port> */
  origin: string;
  port: number;
  requests: FixtureRequest[];
  close(): Promise<void>;
};

/**
 * A throwaway HTTP site on 127.0.0.1 and a free port, for tests of outbound fetches (safe-fetch,
 * site metadata, logos). Reaching it needs `allowPrivate` (OUTBOUND_ALLOW_PRIVATE) or an
 * injected address policy, which is the point: the real guard refuses loopback.
 */
export async function startFixtureSite(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): Promise<FixtureSite> {
  const requests: FixtureRequest[] = [];
  const server = createServer((request, response) => {
    requests.push({ path: request.url ?? "/", host: request.headers.host ?? "", headers: request.headers });
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        // Stalled responses (timeout tests) would otherwise keep close() waiting.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
