import { anyCause } from "./error-causes";

/**
 * SQLSTATE class 40, transaction rollback: PostgreSQL undid a statement for another transaction's
 * sake, as the victim of a deadlock (40P01) or of a serialization failure (40001). Nothing of it
 * was written, nothing about the request was wrong, and the same statement run again can succeed.
 */
const ROLLBACK_SQLSTATES = new Set(["40P01", "40001"]);

export function isConcurrencyRollback(error: unknown): boolean {
  return anyCause(
    error,
    (candidate) => typeof candidate.code === "string" && ROLLBACK_SQLSTATES.has(candidate.code),
  );
}

/** A deadlock's victim runs again once the other transaction has gone on; a third loss is answered. */
const ATTEMPTS = 3;

/**
 * Runs `statement` again when PostgreSQL rolled it back for concurrency. Only for a statement that
 * is all or nothing on its own: inside a transaction, the whole transaction would have to run again.
 */
export async function retryingRollbacks<T>(statement: () => Promise<T>, attempts = ATTEMPTS): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await statement();
    } catch (error) {
      if (attempt >= attempts || !isConcurrencyRollback(error)) throw error;
    }
  }
}
