// A TCP relay in front of a real server, which a test switches between relaying and refusing
// (nothing listening on its port), to make a database unreachable without stopping it, or freezes:
// a database that stops answering, as in a partition or a half-open socket after a failover.
import { connect, createServer, type Server, type Socket } from "node:net";
import { freePort } from "./buddy-process";

export type TcpForwarder = {
  port: number;
  /** Listens on the port and relays each connection to the target. */
  relay(): Promise<void>;
  /** Stops listening (new connections are refused) and cuts the connections open now. */
  refuse(): Promise<void>;
  /**
   * Stops carrying bytes either way, closing nothing: what is sent waits in the sockets, new
   * connections are accepted and hear nothing, and a side that hangs up is not told to the other.
   */
  freeze(): void;
  /** Carries everything that waited, hang-ups included, and relays as before. */
  thaw(): void;
  close(): Promise<void>;
};

/** Starts refusing: call relay() to let connections through. */
export async function createTcpForwarder(target: { host: string; port: number }): Promise<TcpForwarder> {
  const port = await freePort();
  const open = new Set<Socket>();
  /** Each relayed direction: what reads from one socket and writes to the other. */
  const directions = new Set<{ from: Socket; to: Socket }>();
  let server: Server | null = null;
  let frozen = false;

  // A paused socket reads nothing more, so its peer's bytes and hang-up wait in the kernel.
  function carry(from: Socket, to: Socket) {
    const direction = { from, to };
    directions.add(direction);
    from.on("close", () => directions.delete(direction));
    if (!frozen) from.pipe(to);
  }

  function track(socket: Socket) {
    open.add(socket);
    socket.on("close", () => open.delete(socket));
  }

  async function refuse() {
    const closing = server;
    server = null;
    for (const socket of open) socket.destroy();
    if (closing) await new Promise<void>((resolve) => closing.close(() => resolve()));
  }

  return {
    port,
    async relay() {
      if (server) return;
      const listening = createServer((client) => {
        const upstream = connect(target.port, target.host);
        track(client);
        track(upstream);
        carry(client, upstream);
        carry(upstream, client);
        client.on("error", () => upstream.destroy());
        upstream.on("error", () => client.destroy());
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      });
      server = listening;
      await new Promise<void>((resolve, reject) => {
        listening.once("error", reject);
        listening.listen(port, "127.0.0.1", () => resolve());
      });
    },
    refuse,
    freeze() {
      frozen = true;
      for (const { from, to } of directions) {
        from.unpipe(to);
        from.pause();
      }
    },
    thaw() {
      frozen = false;
      for (const { from, to } of directions) from.pipe(to);
    },
    async close() {
      frozen = false;
      await refuse();
    },
  };
}

/** Host and port of a postgres:// URL, and the same URL through another port on 127.0.0.1. */
export function postgresTarget(url: string) {
  const parsed = new URL(url);
  return {
    host: parsed.hostname,
    port: Number(parsed.port || 5432),
    through(port: number) {
      const routed = new URL(url);
      routed.hostname = "127.0.0.1";
      routed.port = String(port);
      return routed.toString();
    },
  };
}
