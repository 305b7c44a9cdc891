/**
 * Errors meaning the database server cannot be reached, is going away or does not answer in time
 * — not that a query was wrong. They answer 503 (plugins/errors.ts) and make start-up wait
 * (lifecycle/lifecycle.ts): retrying later can succeed, and nothing about the request is at fault.
 */
import { CommitGivenUpError } from "../lib/group-commit";
import { anyCause, type ErrorLike } from "./error-causes";

/** Node's socket errors while connecting to, or talking with, the server. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * SQLSTATEs: class 08 (connection exception), the server shutting down (57P01 admin, 57P02 crash),
 * starting up or in recovery (57P03), no connection slot left (53300), and a statement cancelled
 * (57014), which is the pool's statement_timeout: a server too busy, or a lock held too long.
 */
const UNAVAILABLE_SQLSTATES = new Set(["57P01", "57P02", "57P03", "53300", "57014"]);

/** node-postgres and pg-pool raise these as plain Errors, without a code. */
const DRIVER_MESSAGES = [
  /^Connection terminated\b/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
  // The pool's query_timeout: the server did not answer a statement (a stalled network).
  /^Query read timeout$/,
];

function isUnavailableItself(error: ErrorLike): boolean {
  if (error instanceof CommitGivenUpError) return true;
  const code = typeof error.code === "string" ? error.code : "";
  if (NETWORK_CODES.has(code) || UNAVAILABLE_SQLSTATES.has(code)) return true;
  // SQLSTATEs are five characters; Node's codes are longer, so "08…" cannot be mistaken.
  if (code.length === 5 && code.startsWith("08")) return true;
  const message = typeof error.message === "string" ? error.message : "";
  return DRIVER_MESSAGES.some((pattern) => pattern.test(message));
}

/** The error, or anything it wraps (error-causes.ts). */
export function isDatabaseUnavailable(error: unknown): boolean {
  return anyCause(error, isUnavailableItself);
}

/** The innermost reason, short, for a warning without a stack ("ECONNREFUSED: connect …"). */
export function describeUnavailable(error: unknown): string {
  let current = error as ErrorLike | undefined;
  for (;;) {
    const next = current?.cause ?? (Array.isArray(current?.errors) ? current.errors[0] : undefined);
    if (typeof next !== "object" || next === null) break;
    current = next as ErrorLike;
  }
  const code = typeof current?.code === "string" ? `${current.code}: ` : "";
  const message = typeof current?.message === "string" && current.message ? current.message : String(error);
  return `${code}${message}`;
}
