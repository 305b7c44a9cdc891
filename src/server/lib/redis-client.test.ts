import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTcpForwarder, type TcpForwarder } from "../testing/tcp-forwarder";
import { createRedisClient, type RedisClient } from "./redis-client";

const shared = new URL(process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379");

type LogEntry = { level: number; msg: string };

/** The machine's Redis through a relay the test freezes and cuts, asked every 50 ms. */
describe("the Redis client's health", () => {
  let forwarder: TcpForwarder;
  let client: RedisClient;
  const log: LogEntry[] = [];
  const redisLines = () => log.filter((entry) => entry.msg.startsWith("Redis:"));
  beforeAll(async () => {
    forwarder = await createTcpForwarder({ host: shared.hostname, port: Number(shared.port || 6379) });
    await forwarder.relay();
    const logger = pino({ level: "info" }, { write: (line: string) => log.push(JSON.parse(line)) });
    client = createRedisClient(`redis://127.0.0.1:${forwarder.port}`, logger, { everyMs: 50, withinMs: 200 });
  });
  afterAll(async () => {
    client.close();
    await forwarder.close();
  });

  it("is up once connected, and logs nothing then", async () => {
    await expect.poll(() => client.up()).toBe(true);
    expect(redisLines()).toEqual([]);
  });

  it("is down while a connected Redis stops answering, warns once, and says when it answers again", async () => {
    forwarder.freeze();
    await expect.poll(() => client.up()).toBe(false);
    // Many more checks fail meanwhile: the log says it once.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(redisLines()).toEqual([
      expect.objectContaining({ level: 40, msg: expect.stringMatching(/^Redis: no answer within 200 ms; /) }),
    ]);
    forwarder.thaw();
    await expect.poll(() => client.up()).toBe(true);
    expect(redisLines().slice(1)).toEqual([
      expect.objectContaining({ level: 30, msg: "Redis: answering again" }),
    ]);
  });

  it("is down at once when its connection is cut, and up again once it reconnects", async () => {
    const logged = redisLines().length;
    await forwarder.refuse();
    await expect.poll(() => client.up(), { timeout: 1_000 }).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(redisLines().slice(logged)).toEqual([expect.objectContaining({ level: 40 })]);
    await forwarder.relay();
    await expect.poll(() => client.up(), { timeout: 5_000 }).toBe(true);
    expect(redisLines().slice(logged + 1)).toEqual([
      expect.objectContaining({ msg: "Redis: answering again" }),
    ]);
  });

  it("logs nothing when the app closes it", async () => {
    const logged = log.length;
    client.close();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(log.slice(logged)).toEqual([]);
  });
});
