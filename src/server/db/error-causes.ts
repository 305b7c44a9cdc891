/** What the driver and Drizzle put on an error: a SQLSTATE or Node code, a cause, attempts. */
export type ErrorLike = { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };

/**
 * Whether `test` holds for the error or anything it wraps: its causes (Drizzle wraps the driver's
 * error in `cause`) and the attempts of an AggregateError (Node tries each address of `localhost`).
 */
export function anyCause(error: unknown, test: (candidate: ErrorLike) => boolean): boolean {
  const seen = new Set<unknown>();
  const pending: unknown[] = [error];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== "object" || current === null || seen.has(current)) continue;
    seen.add(current);
    const candidate = current as ErrorLike;
    if (test(candidate)) return true;
    pending.push(candidate.cause);
    if (Array.isArray(candidate.errors)) pending.push(...candidate.errors);
  }
  return false;
}
