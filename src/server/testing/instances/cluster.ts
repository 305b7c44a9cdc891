// A deployment in miniature: two instances of dist/server/main.js sharing one PostgreSQL, one
// Redis and one APP_SECRET, each on its own fresh empty DATA_DIR, behind HAProxy. Every server
// is the test's own, so a test may kill or stop any of them.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type BuddyProcess, freePort, startBuddy } from "../buddy-process";
import {
  type Haproxy,
  type LocalPostgres,
  type LocalRedis,
  startHaproxy,
  startLocalPostgres,
  startLocalRedis,
} from "../local-servers";
import { type MailReceiver, startMailReceiver } from "../mail-receiver";

export type InstanceName = "a" | "b";

export type Cluster = {
  postgres: LocalPostgres;
  redis: LocalRedis;
  mail: MailReceiver;
  balancer: Haproxy;
  instances: Record<InstanceName, BuddyProcess>;
  /** Starts the named instance again on its port, on a new empty DATA_DIR. */
  restart(name: InstanceName): Promise<BuddyProcess>;
  /** The instances' last lines of output, for a failed test. */
  output(): string;
  stop(): Promise<void>;
};

/**
 * `env`: settings every instance gets on top of startBuddy's. `forwardFor`: HAProxy appends the
 * client's address to X-Forwarded-For (`option forwardfor`), for instances with TRUST_PROXY.
 */
export async function startCluster(
  options: { env?: Record<string, string>; forwardFor?: boolean } = {},
): Promise<Cluster> {
  const stack: Array<() => Promise<unknown>> = [];
  const dataDirs: string[] = [];
  const stopAll = async () => {
    for (const stop of stack.reverse()) await stop().catch(() => {});
    for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    const [postgres, redis, mail] = await Promise.all([
      startLocalPostgres(),
      startLocalRedis(),
      startMailReceiver(),
    ]);
    stack.push(
      () => postgres.destroy(),
      () => redis.destroy(),
      () => mail.close(),
    );
    const balancerPort = await freePort();
    const ports: Record<InstanceName, number> = { a: await freePort(), b: await freePort() };
    const appSecret = crypto.randomUUID() + crypto.randomUUID();
    const instances = {} as Record<InstanceName, BuddyProcess>;

    const start = async (name: InstanceName) => {
      const dataDir = mkdtempSync(path.join(tmpdir(), `buddy-instance-${name}-`));
      dataDirs.push(dataDir);
      const instance = await startBuddy({
        port: ports[name],
        dataDir,
        mail,
        databaseUrl: postgres.url,
        redisUrl: redis.url,
        appSecret,
        publicUrl: `http://127.0.0.1:${balancerPort}`,
        stdio: "capture",
        env: options.env,
      });
      instances[name] = instance;
      stack.push(() => instance.kill());
      return instance;
    };
    await Promise.all([start("a"), start("b")]);
    const balancer = await startHaproxy(
      (["a", "b"] as const).map((name) => ({ name, port: ports[name] })),
      { port: balancerPort, forwardFor: options.forwardFor },
    );
    stack.push(() => balancer.stop());

    return {
      postgres,
      redis,
      mail,
      balancer,
      instances,
      restart: start,
      output: () =>
        Object.entries(instances)
          .map(
            ([name, instance]) =>
              `--- instance ${name} ---\n${instance.output().split("\n").slice(-40).join("\n")}`,
          )
          .join("\n"),
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
