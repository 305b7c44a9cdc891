import pg from "pg";
import pino from "pino";
import { describe, expect, it } from "vitest";
import { freePort } from "../testing/buddy-process";
import { Lifecycle, StartUpAborted } from "./lifecycle";

const quiet = pino({ level: "silent" });
const fast = { firstMs: 10, maxMs: 40 };

/** A real refused connection: what start-up meets while PostgreSQL is not up yet. */
async function connectToNothing(port: number) {
  const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/none` });
  await client.connect();
}

describe("Lifecycle", () => {
  it("runs the steps in order, retrying one while the database cannot be reached, then serves", async () => {
    const port = await freePort();
    const lifecycle = new Lifecycle(quiet, fast);
    const ran: string[] = [];
    let attempts = 0;
    lifecycle.start([
      {
        name: "migrations",
        run: async () => {
          attempts++;
          if (attempts < 3) await connectToNothing(port);
          ran.push("migrations");
        },
      },
      { name: "seed", run: async () => ran.push("seed") },
    ]);
    expect(lifecycle.serving).toBe(false);
    await lifecycle.started;
    expect(attempts).toBe(3);
    expect(ran).toEqual(["migrations", "seed"]);
    expect(lifecycle.state).toBe("ready");
    expect(lifecycle.serving).toBe(true);
    lifecycle.drain();
    expect(lifecycle.state).toBe("draining");
    expect(lifecycle.serving).toBe(true);
  });

  it("fails start-up, naming the step, on any other error", async () => {
    const lifecycle = new Lifecycle(quiet, fast);
    lifecycle.start([
      {
        name: "migrations",
        run: async () => {
          throw new Error("a migration file is missing");
        },
      },
    ]);
    await expect(lifecycle.started).rejects.toThrow(
      "start-up failed (migrations): a migration file is missing",
    );
    expect(lifecycle.serving).toBe(false);
  });

  it("stops waiting for the database when the app closes", async () => {
    const port = await freePort();
    const lifecycle = new Lifecycle(quiet, { firstMs: 60_000, maxMs: 60_000 });
    lifecycle.start([{ name: "migrations", run: () => connectToNothing(port) }]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    lifecycle.stop();
    await expect(lifecycle.started).rejects.toBeInstanceOf(StartUpAborted);
  });
});
