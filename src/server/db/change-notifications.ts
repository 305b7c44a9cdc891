import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import pg from "pg";
import { type Backoff, backoffDelay } from "../lib/backoff";
import { withTimeout } from "../lib/bounded-wait";
import type { Database, DbOrTx } from "./client";

/**
 * Every change that instances broadcast to each other, in one place. Each name is a PostgreSQL
 * identifier (lower case, no quoting needed); the listener LISTENs to all of them.
 */
export const CHANNELS = {
  /** Payload: the revoked key's hash. */
  apiKeyRevoked: "buddy_api_key_revoked",
  /** Collateral, relationships or block lists changed: every cached eligible-ads set is stale. */
  adsChanged: "buddy_ads_changed",
} as const;
export type Channel = (typeof CHANNELS)[keyof typeof CHANNELS];

/** The listener's name in pg_stat_activity (operators, and tests that cut its connection). */
export const LISTENER_APPLICATION_NAME = "buddy-change-listener";

export type ChangeSubscriber = {
  onNotify(payload: string): void;
  /** Notifications may have been missed (the listener lost its connection): drop everything cached. */
  onGap(): void;
};

export type ChangeNotifications = {
  /**
   * NOTIFY on `db`. Inside a transaction PostgreSQL sends it at commit and never on rollback, so
   * a listener cannot drop a cache entry and reload it before the change is visible.
   */
  publish(db: DbOrTx, channel: Channel, payload?: string): Promise<void>;
  subscribe(channel: Channel, subscriber: ChangeSubscriber): () => void;
  /**
   * True while every notification reaches this instance. Only then may a cache that relies on
   * notifications for correctness (revoked API keys) be trusted.
   */
  isLive(): boolean;
  close(): Promise<void>;
};

/** What a service needs to announce its change: a publish inside the transaction that makes it. */
export type ChangePublisher = Pick<ChangeNotifications, "publish">;

export type ListenerLog = {
  info(message: string): void;
  warn(message: string): void;
};

export type ListenerOptions = {
  log?: ListenerLog;
  /** Reconnection backoff after the listener's connection drops: doubles from first to max. */
  retryFirstMs?: number;
  retryMaxMs?: number;
  /** How often the idle listener proves its connection is alive (a silent TCP drop sends no error). */
  heartbeatMs?: number;
};

const consoleLog: ListenerLog = {
  info: (message) => console.info(message),
  warn: (message) => console.error(message),
};

/**
 * One listener per process, opened at start-up: PGlite's own LISTEN in one process, or a
 * dedicated PostgreSQL connection (outside the pool, which would hand it to queries).
 */
export async function createChangeNotifications(
  database: Database,
  options: ListenerOptions = {},
): Promise<ChangeNotifications> {
  if (database.pglite) return listenOnPglite(database.pglite);
  if (database.connectionString) return listenOnPostgres(database.connectionString, options);
  throw new Error("the database offers no way to listen for notifications");
}

/**
 * Without a listener: nothing cached may rely on notifications, so isLive() is always false.
 * This instance's own changes still reach its caches, and other instances' listeners still hear them.
 */
export function createUnlistenedNotifications(): ChangeNotifications {
  const subscribers = createSubscribers(consoleLog);
  return {
    async publish(db, channel, payload = "") {
      await publishOn(db, channel, payload);
      subscribers.notify(channel, payload);
    },
    subscribe: (channel, subscriber) => subscribers.add(channel, subscriber),
    isLive: () => false,
    close: async () => {},
  };
}

function createSubscribers(log: ListenerLog) {
  const byChannel = new Map<string, Set<ChangeSubscriber>>();
  // A failing subscriber must not keep the others (or the database driver) from running.
  const safely = (run: () => void) => {
    try {
      run();
    } catch (error) {
      log.warn(`change notification handler failed: ${(error as Error).message}`);
    }
  };
  return {
    add(channel: string, subscriber: ChangeSubscriber) {
      const set = byChannel.get(channel) ?? new Set<ChangeSubscriber>();
      byChannel.set(channel, set);
      set.add(subscriber);
      return () => set.delete(subscriber);
    },
    notify(channel: string, payload: string) {
      for (const subscriber of byChannel.get(channel) ?? []) safely(() => subscriber.onNotify(payload));
    },
    gap() {
      for (const set of byChannel.values()) for (const subscriber of set) safely(() => subscriber.onGap());
    },
  };
}

async function publishOn(db: DbOrTx, channel: Channel, payload = "") {
  await db.execute(sql`select pg_notify(${channel}, ${payload})`);
}

/** PGlite delivers a NOTIFY to its listeners synchronously at commit, in this process. */
async function listenOnPglite(client: PGlite): Promise<ChangeNotifications> {
  const subscribers = createSubscribers(consoleLog);
  const unlisten = await Promise.all(
    Object.values(CHANNELS).map((channel) =>
      client.listen(channel, (payload) => subscribers.notify(channel, payload)),
    ),
  );
  let closed = false;
  return {
    publish: publishOn,
    subscribe: (channel, subscriber) => subscribers.add(channel, subscriber),
    isLive: () => !closed,
    async close() {
      if (closed) return;
      closed = true;
      // The database may already be closed by its owner; nothing is left to unlisten then.
      if (!client.closed) await Promise.all(unlisten.map((stop) => stop()));
    },
  };
}

async function listenOnPostgres(
  connectionString: string,
  options: ListenerOptions,
): Promise<ChangeNotifications> {
  const log = options.log ?? consoleLog;
  const backoff: Backoff = { firstMs: options.retryFirstMs ?? 100, maxMs: options.retryMaxMs ?? 10_000 };
  const heartbeatMs = options.heartbeatMs ?? 5_000;
  const subscribers = createSubscribers(log);
  let client: pg.Client | null = null;
  let live = false;
  let closed = false;
  /** Reconnections tried since the listener was last connected. */
  let retries = 0;
  let retryTimer: NodeJS.Timeout | undefined;
  let heartbeatTimer: NodeJS.Timeout | undefined;

  function lost(from: pg.Client, reason: string) {
    if (client !== from) return;
    client = null;
    live = false;
    clearInterval(heartbeatTimer);
    from.removeAllListeners("end");
    from.end().catch(() => {});
    subscribers.gap();
    if (closed) return;
    const delayMs = backoffDelay(retries++, backoff);
    log.warn(`change listener disconnected (${reason}); caches bypassed, reconnecting in ${delayMs} ms`);
    retryTimer = setTimeout(connect, delayMs);
  }

  async function connect() {
    if (closed) return;
    const next = new pg.Client({
      connectionString,
      application_name: LISTENER_APPLICATION_NAME,
      keepAlive: true,
      // A server that accepts and never answers would otherwise stall the listener (and start-up).
      connectionTimeoutMillis: heartbeatMs,
    });
    client = next;
    next.on("notification", (message) => subscribers.notify(message.channel, message.payload ?? ""));
    next.on("error", (error) => lost(next, error.message));
    next.on("end", () => lost(next, "connection ended"));
    try {
      await next.connect();
      for (const channel of Object.values(CHANNELS)) await next.query(`listen ${channel}`);
    } catch (error) {
      lost(next, (error as Error).message);
      return;
    }
    if (client !== next) return;
    // Anything cached before this moment may have missed a notification while nobody listened.
    subscribers.gap();
    live = true;
    if (retries > 0) log.info("change listener connected again");
    retries = 0;
    heartbeatTimer = setInterval(() => heartbeat(next), heartbeatMs);
    heartbeatTimer.unref();
  }

  async function heartbeat(of: pg.Client) {
    try {
      await withTimeout(of.query("select 1"), heartbeatMs, () => {
        throw new Error("heartbeat timed out");
      });
    } catch (error) {
      lost(of, (error as Error).message);
    }
  }

  await connect();
  return {
    async publish(db, channel, payload = "") {
      await publishOn(db, channel, payload);
      // Our own NOTIFY comes back over the listener only after the answer may have gone out, so
      // this instance hears it now as well; the NOTIFY at commit then drops anything a concurrent
      // request loaded before the change was visible.
      subscribers.notify(channel, payload);
    },
    subscribe: (channel, subscriber) => subscribers.add(channel, subscriber),
    isLive: () => live,
    async close() {
      closed = true;
      live = false;
      clearTimeout(retryTimer);
      clearInterval(heartbeatTimer);
      const current = client;
      client = null;
      if (current) {
        current.removeAllListeners("end");
        await current.end().catch(() => {});
      }
    },
  };
}
