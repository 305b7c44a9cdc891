import { DAY_MS, isoDay } from "@shared/days";
import { sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../db/client";
import { readPartnersLedger } from "../reciprocity/ledger.service";
import { type DigestPartner, type Notice, noticeJobs } from "./notices";
import { wantsMail } from "./notifications.service";

/** Monday 08:00 UTC (issue 37, item 8). */
const DIGEST_WEEKDAY = 1;
const DIGEST_HOUR_UTC = 8;

/**
 * The Monday (YYYY-MM-DD) whose digest is due at `now`, or null. It is due from 08:00 UTC to the
 * end of that Monday: the outbox's hourly sweep on any instance gets 16 chances at it, and an
 * instance that was down all Monday does not send last week's news on a Wednesday.
 */
export function dueDigestWeek(now: Date): string | null {
  if (now.getUTCDay() !== DIGEST_WEEKDAY || now.getUTCHours() < DIGEST_HOUR_UTC) return null;
  return isoDay(now.getTime());
}

/**
 * Queues the weekly digest of the Monday due at `now` to every active member who wants it and
 * has not had it: the seven days before that Monday, per partner, sent and received (clicks,
 * leads, revenue), as the partners' ledger counts them. An organization whose partners had no
 * traffic and no revenue that week sends none (an empty digest is noise, and the week's key is
 * not taken, so a partner's late click before the sweep's next turn still makes one).
 *
 * Run by every instance (the outbox's hourly sweep, app.ts): each person's week is claimed in the
 * statement that queues the mail (`digest:<user>:<monday>`), so whichever instances race, each
 * person gets one digest a week. Answers the mails queued.
 */
export async function queueWeeklyDigests(db: Db, now: Date): Promise<number> {
  const monday = dueDigestWeek(now);
  if (monday === null) return 0;
  const mondayMs = Date.parse(`${monday}T00:00:00Z`);
  const week = isoDay(mondayMs - 7 * DAY_MS);
  const due = rowsOf<{ organization_id: string }>(
    await db.execute(sql`
      select distinct m.organization_id from memberships m
      left join notification_preferences p on p.user_id = m.user_id
      where m.status = 'active' and ${wantsMail("weeklyDigest")}
        and not exists (
          select 1 from notifications_sent n where n.key = 'digest:' || m.user_id || ':' || ${monday}::text)`),
  );
  let queued = 0;
  for (const { organization_id: organizationId } of due) {
    // The ledger of a window of 7 days ending the Sunday before: from the Monday a week before.
    const ledger = await readPartnersLedger(db, organizationId, 7, new Date(mondayMs - 1));
    const partners: DigestPartner[] = ledger.partners
      .filter(
        (p) =>
          p.clicks.sent + p.clicks.received + p.leads.sent + p.leads.received > 0 ||
          p.revenue.sent.length + p.revenue.received.length > 0,
      )
      .map(({ name, clicks, leads, revenue }) => ({ name, clicks, leads, revenue }));
    if (partners.length === 0) continue;
    const notice: Notice = { type: "weekly_digest", organizationId, week, partners };
    const result = await db.execute(sql`
      with people as (
        select m.user_id, 'digest:' || m.user_id || ':' || ${monday}::text as key
        from memberships m
        where m.organization_id = ${organizationId} and m.status = 'active'
      ), claimed as (
        insert into notifications_sent (key)
        select p.key from people p
        left join notification_preferences pr on pr.user_id = p.user_id
        where coalesce(pr.weekly_digest, true)
          and not exists (select 1 from notifications_sent n where n.key = p.key)
        order by p.key
        on conflict do nothing
        returning key
      ), mails as (${noticeJobs({
        type: "weekly_digest",
        organization: sql`${organizationId}::text`,
        from: sql`claimed c`,
        where: sql`c.key = 'digest:' || u.id || ':' || ${monday}::text`,
        notice: sql`${JSON.stringify(notice)}::jsonb`,
      })})
      select count(*)::int as queued from mails`);
    queued += rowsOf<{ queued: number }>(result)[0]?.queued ?? 0;
  }
  return queued;
}
