import { createServer, type Socket } from "node:net";
import { sql } from "drizzle-orm";
import { drizzle } from "drizzle-orm/node-postgres";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { badRequest } from "../errors";
import { CommitGivenUpError } from "../lib/group-commit";
import { freePort } from "../testing/buddy-process";
import { createScratchDatabase, POSTGRES_SERVER_URL } from "../testing/database";
import { createTcpForwarder, postgresTarget, type TcpForwarder } from "../testing/tcp-forwarder";
import { describeUnavailable, isDatabaseUnavailable } from "./database-unavailable";

/** The error a promise rejects with (fails the test if it resolves). */
async function failureOf(work: Promise<unknown>): Promise<unknown> {
  try {
    await work;
  } catch (error) {
    return error;
  }
  throw new Error("expected a failure");
}

describe("isDatabaseUnavailable, on errors node-postgres really raises", () => {
  let scratch: Awaited<ReturnType<typeof createScratchDatabase>>;
  let forwarder: TcpForwarder;
  beforeAll(async () => {
    scratch = await createScratchDatabase(POSTGRES_SERVER_URL, "buddy_unavailable");
    forwarder = await createTcpForwarder(postgresTarget(scratch.url));
  });
  afterAll(async () => {
    await forwarder.close();
    await scratch.drop();
  });

  it("recognizes a refused connection, bare and wrapped by Drizzle", async () => {
    const url = postgresTarget(scratch.url).through(await freePort());
    const client = new pg.Client({ connectionString: url });
    const refused = await failureOf(client.connect());
    expect((refused as { code?: string }).code).toBe("ECONNREFUSED");
    expect(isDatabaseUnavailable(refused)).toBe(true);

    const pool = new pg.Pool({ connectionString: url });
    const wrapped = await failureOf(drizzle({ client: pool }).execute(sql`select 1`));
    expect(wrapped).not.toBe((wrapped as Error).cause);
    expect(isDatabaseUnavailable(wrapped)).toBe(true);
    expect(describeUnavailable(wrapped)).toMatch(/^ECONNREFUSED: connect ECONNREFUSED/);
    await pool.end();
  });

  it("recognizes a server that accepts and never answers (the pool's connection timeout)", async () => {
    const silent = new Set<Socket>();
    const server = createServer((socket) => silent.add(socket));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as { port: number };
    const pool = new pg.Pool({
      connectionString: postgresTarget(scratch.url).through(port),
      connectionTimeoutMillis: 200,
    });
    const timedOut = await failureOf(pool.query("select 1"));
    expect(isDatabaseUnavailable(timedOut)).toBe(true);
    await pool.end();
    for (const socket of silent) socket.destroy();
    server.close();
  });

  it("recognizes a connection cut while in use, and a server ending the session (57P01)", async () => {
    await forwarder.relay();
    const cut = new pg.Client({ connectionString: postgresTarget(scratch.url).through(forwarder.port) });
    cut.on("error", () => {});
    await cut.connect();
    const pending = failureOf(cut.query("select pg_sleep(5)"));
    await forwarder.refuse();
    const terminated = await pending;
    expect((terminated as Error).message).toMatch(/ECONNRESET|^Connection terminated/);
    expect(isDatabaseUnavailable(terminated)).toBe(true);

    const victim = new pg.Client({ connectionString: scratch.url });
    victim.on("error", () => {});
    await victim.connect();
    const { rows } = await victim.query<{ pid: number }>("select pg_backend_pid() as pid");
    const admin = new pg.Client({ connectionString: scratch.url });
    await admin.connect();
    const victimQuery = failureOf(victim.query("select pg_sleep(5)"));
    await admin.query("select pg_terminate_backend($1)", [rows[0]?.pid]);
    const shutDown = await victimQuery;
    expect((shutDown as { code?: string }).code).toBe("57P01");
    expect(isDatabaseUnavailable(shutDown)).toBe(true);
    await admin.end();
    await victim.end().catch(() => {});
  });

  it("recognizes a server that stops answering: the pool's statement and read timeouts", async () => {
    const slow = new pg.Client({ connectionString: scratch.url, statement_timeout: 100 });
    await slow.connect();
    const cancelled = await failureOf(slow.query("select pg_sleep(5)"));
    expect((cancelled as { code?: string }).code).toBe("57014");
    expect(isDatabaseUnavailable(cancelled)).toBe(true);
    await slow.end();

    await forwarder.relay();
    const pool = new pg.Pool({
      connectionString: postgresTarget(scratch.url).through(forwarder.port),
      query_timeout: 200,
    });
    await pool.query("select 1");
    forwarder.freeze();
    const stalled = await failureOf(drizzle({ client: pool }).execute(sql`select 1`));
    expect(isDatabaseUnavailable(stalled)).toBe(true);
    expect(describeUnavailable(stalled)).toBe("Query read timeout");
    // The pool dropped the stalled connection rather than hand it to the next query.
    expect(pool.totalCount).toBe(0);
    forwarder.thaw();
    await expect(pool.query("select 1 as one")).resolves.toMatchObject({ rows: [{ one: 1 }] });
    await pool.end();

    expect(isDatabaseUnavailable(new CommitGivenUpError("gave up"))).toBe(true);
  });

  it("leaves errors of the query or the request alone", async () => {
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    const syntax = await failureOf(client.query("selec 1"));
    expect((syntax as { code?: string }).code).toBe("42601");
    expect(isDatabaseUnavailable(syntax)).toBe(false);
    await client.query("create temporary table once (id int primary key)");
    await client.query("insert into once values (1)");
    const duplicate = await failureOf(client.query("insert into once values (1)"));
    expect((duplicate as { code?: string }).code).toBe("23505");
    expect(isDatabaseUnavailable(duplicate)).toBe(false);
    await client.end();
    expect(isDatabaseUnavailable(badRequest("nope"))).toBe(false);
    expect(isDatabaseUnavailable(new Error("Internal"))).toBe(false);
    expect(isDatabaseUnavailable(undefined)).toBe(false);
  });
});
