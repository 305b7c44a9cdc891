import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import { buildApp } from "./app";
import { ConfigError, loadConfig } from "./config";
import { createChangeNotifications } from "./db/change-notifications";
import { openDatabase } from "./db/client";
import { runMigrations } from "./db/migrate";
import { generateToken } from "./lib/tokens";
import { StartUpAborted } from "./lifecycle/lifecycle";
import { loggerOptions, prettyLogs } from "./logger";
import { listenForMetrics } from "./observability/metrics-server";

// dist/server/main.js → the project root, where migrations and dist/web live.
const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** CONTRACT §1: APP_SECRET, or one generated once and kept in DATA_DIR. */
function loadAppSecret(dataDir: string, configured: string | undefined): string {
  if (configured) return configured;
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, "app-secret");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    const secret = generateToken(48);
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
    return secret;
  }
}

async function main() {
  const started = performance.now();
  const config = loadConfig(process.env);
  // With DATABASE_URL and APP_SECRET, DATA_DIR is neither made nor read: an instance may start
  // on an empty or missing one (CONTRACT §1). PGlite keeps its files there.
  if (!config.databaseUrl) mkdirSync(config.dataDir, { recursive: true });
  const appSecret = loadAppSecret(config.dataDir, config.appSecret);
  // Opening PostgreSQL connects to nothing yet: migrations run in start-up, after listen.
  const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  const migrationsFolder = path.join(projectRoot, "src/server/db/migrations");
  // One listener per process, so caches (API keys, eligible ads) hear changes made by any instance.
  const notifications = await createChangeNotifications(database);

  const app = await buildApp({
    config: { ...config, appSecret },
    db: database.db,
    tryLock: database.tryLock,
    migrationsFolder,
    migrate: () => runMigrations(database, migrationsFolder),
    poolStats: database.poolStats,
    notifications,
    webRoot: path.join(projectRoot, "dist/web"),
    logger: loggerOptions(config.logLevel, prettyLogs(config.logFormat, process.stdout.isTTY)),
  });
  app.addHook("onClose", () => notifications.close());

  let metricsServer: FastifyInstance | undefined;
  let closing = false;
  let endDrain: (() => void) | undefined;
  const shutdown = async (signal: string) => {
    if (closing) {
      // Ctrl-C after SIGTERM: no need to wait out the drain.
      if (signal === "SIGINT") endDrain?.();
      return;
    }
    closing = true;
    // A balancer checking /readyz takes the instance out while it still answers everything else.
    // At a terminal (SIGINT) nobody balances, and an instance still starting was never sent
    // traffic: those close at once.
    const served = app.lifecycle.serving;
    app.lifecycle.drain();
    const drainMs = signal === "SIGTERM" && served ? config.shutdownDrainSeconds * 1000 : 0;
    if (drainMs > 0) {
      app.log.info(
        { signal, drainSeconds: config.shutdownDrainSeconds },
        "shutting down: draining (/readyz answers 503)",
      );
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, drainMs);
        endDrain = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    app.log.info({ signal }, "shutting down: finishing in-flight requests");
    // Once no request is being answered, the connections left are keep-alive ones (some clients
    // leave them in a state Node does not call idle): drop them, or close would wait for their
    // timeout. In-flight requests are never cut.
    const sweep = setInterval(() => {
      if (app.inFlight() === 0) app.server.closeAllConnections();
    }, 100);
    sweep.unref();
    const force = setTimeout(() => {
      app.log.error("shutdown timed out");
      process.exit(1);
    }, 60_000);
    force.unref();
    // The database closes last: closing the app waits for the clicks and leads being committed.
    Promise.all([app.close(), metricsServer?.close()]).then(
      () => database.close().then(() => process.exit(0)),
      (error) => {
        app.log.error({ err: error }, "error during shutdown");
        process.exit(1);
      },
    );
  };
  // `on`, not `once`: under `npm start` a signal to the whole process group arrives twice, once
  // directly and once forwarded by npm. A second SIGTERM without a listener would kill the process
  // in the middle of its drain; shutdown ignores it instead.
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));

  // Listening first: /healthz answers while start-up waits for the database and migrates.
  await app.listen({ port: config.port, host: config.host });
  if (config.metrics.port !== undefined) {
    metricsServer = await listenForMetrics({
      registry: app.metrics.registry,
      host: config.metrics.host,
      port: config.metrics.port,
      log: app.log,
    });
  }
  try {
    await app.lifecycle.started;
  } catch (error) {
    // SIGTERM while waiting for the database: shutdown exits.
    if (error instanceof StartUpAborted) return;
    throw error;
  }
  app.log.info(
    {
      database: database.kind === "pglite" ? `PGlite in ${config.dataDir}` : "PostgreSQL (DATABASE_URL)",
      mail: config.smtpUrl ? "SMTP" : "log (set SMTP_URL to send mail)",
      startupMs: Math.round(performance.now() - started),
    },
    `Buddy is running at ${config.publicUrl}`,
  );
}

main().catch((error) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error("Buddy failed to start:", error);
  }
  process.exit(1);
});
