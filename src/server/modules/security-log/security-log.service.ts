import type { SecurityLogAction, SecurityLogEntry, SecurityLogResponse } from "@shared/security-log";
import { SECURITY_LOG_PAGE_SIZE, SECURITY_LOG_RETENTION_DAYS } from "@shared/security-log";
import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/client";
import { memberships, securityLog, users } from "../../db/schema";
import { badRequest } from "../../errors";

/** Who acted, and from where: the signed-in user and the request's client address. */
export type SecurityActor = { userId: string | null; ipAddress: string | null };

export type SecurityEvent = {
  action: SecurityLogAction;
  /**
   * The organization whose admins see the entry; omitted, the actor's active organization at the
   * moment (a sign-in, a password reset).
   */
  organizationId?: string | null;
  /** What it was about, in words: a key's name, an endpoint's URL, an invitee's address. */
  target?: string | null;
};

/**
 * Writes one entry, in the caller's transaction when it has one, so an entry exists exactly when
 * what it describes happened. The actor's e-mail and organization are read in the same statement.
 */
export async function recordSecurityEvent(db: DbOrTx, actor: SecurityActor, event: SecurityEvent) {
  const actorEmail = actor.userId
    ? sql`(select ${users.email} from ${users} where ${users.id} = ${actor.userId})`
    : null;
  const organizationId =
    event.organizationId !== undefined
      ? event.organizationId
      : actor.userId
        ? sql`(select ${memberships.organizationId} from ${memberships}
              where ${memberships.userId} = ${actor.userId} and ${memberships.status} = 'active')`
        : null;
  await db.insert(securityLog).values({
    organizationId,
    actorUserId: actor.userId,
    actorEmail,
    action: event.action,
    target: event.target?.slice(0, 500) ?? null,
    ipAddress: actor.ipAddress,
  });
}

/**
 * An entry's time to the microsecond, as the database keeps it. A JavaScript Date keeps
 * milliseconds: a cursor made from one would skip the older entries of the same millisecond.
 */
const exactTime = sql<string>`to_char(${securityLog.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
// Years PostgreSQL and JavaScript both read alike (year 0 is valid to one and not the other).
const EXACT_TIME = /^(20\d{2}|2100)-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
/** Entries' ids are UUIDs: anything else in a cursor (a NUL byte…) never reaches the database. */
const ENTRY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Cursor = { at: string; id: string };

/** Cursor of a page: the last entry's time and id, so entries written meanwhile shift nothing. */
function encodeCursor(entry: Cursor) {
  return Buffer.from(JSON.stringify([entry.at, entry.id])).toString("base64url");
}

/** Refuses anything but a time this service could have written (a real date) and an id. */
function decodeCursor(cursor: string): Cursor {
  try {
    const [at, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    if (typeof at !== "string" || typeof id !== "string" || !EXACT_TIME.test(at) || !ENTRY_ID.test(id))
      throw new Error("bad cursor");
    const date = new Date(at);
    if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 23) !== at.slice(0, 23)) {
      throw new Error("bad cursor");
    }
    return { at, id };
  } catch {
    throw badRequest("Invalid cursor");
  }
}

/** CONTRACT §3: an organization's entries, newest first, a page at a time, within 180 days. */
export async function listSecurityLog(
  db: Db,
  organizationId: string,
  options: { before?: string | undefined; limit?: number | undefined } = {},
): Promise<SecurityLogResponse> {
  const limit = options.limit ?? SECURITY_LOG_PAGE_SIZE;
  const cursor = options.before ? decodeCursor(options.before) : null;
  const rows = await db
    .select({
      id: securityLog.id,
      action: securityLog.action,
      actorEmail: securityLog.actorEmail,
      target: securityLog.target,
      ipAddress: securityLog.ipAddress,
      createdAt: securityLog.createdAt,
      at: exactTime,
    })
    .from(securityLog)
    .where(
      and(
        eq(securityLog.organizationId, organizationId),
        sql`${securityLog.createdAt} > now() - make_interval(days => ${SECURITY_LOG_RETENTION_DAYS})`,
        cursor
          ? or(
              lt(securityLog.createdAt, sql`${cursor.at}::timestamptz`),
              and(eq(securityLog.createdAt, sql`${cursor.at}::timestamptz`), lt(securityLog.id, cursor.id)),
            )
          : undefined,
      ),
    )
    .orderBy(desc(securityLog.createdAt), desc(securityLog.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const entries: SecurityLogEntry[] = page.map((row) => ({
    id: row.id,
    action: row.action,
    actorEmail: row.actorEmail,
    target: row.target,
    ipAddress: row.ipAddress,
    createdAt: row.createdAt.toISOString(),
  }));
  return { entries, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}
