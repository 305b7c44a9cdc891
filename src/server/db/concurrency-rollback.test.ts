import { describe, expect, it } from "vitest";
import { isConcurrencyRollback, retryingRollbacks } from "./concurrency-rollback";

/** As Drizzle raises the driver's error: wrapped, with the SQLSTATE on the cause. */
const wrapped = (code: string) =>
  new Error("Failed query", { cause: Object.assign(new Error("x"), { code }) });

describe("retryingRollbacks", () => {
  it("runs a statement again after a deadlock or a serialization failure, three times at most", async () => {
    for (const code of ["40P01", "40001"]) {
      let runs = 0;
      const answer = await retryingRollbacks(async () => {
        runs++;
        if (runs < 3) throw wrapped(code);
        return "stored";
      });
      expect([answer, runs]).toEqual(["stored", 3]);
    }
    let runs = 0;
    const lost = retryingRollbacks(async () => {
      runs++;
      throw wrapped("40P01");
    });
    await expect(lost).rejects.toSatisfy(isConcurrencyRollback);
    expect(runs).toBe(3);
  });

  it("lets any other error through at once", async () => {
    let runs = 0;
    const failing = retryingRollbacks(async () => {
      runs++;
      throw wrapped("23505");
    });
    await expect(failing).rejects.toThrow("Failed query");
    expect(runs).toBe(1);
    expect(isConcurrencyRollback(wrapped("57014"))).toBe(false);
  });
});
