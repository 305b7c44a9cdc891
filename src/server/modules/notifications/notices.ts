import type { NotificationPreference } from "@shared/notifications";
import type { MoneyTotal } from "@shared/tracking";
import { type SQL, sql } from "drizzle-orm";
import { type DbOrTx, rowsOf } from "../../db/client";
import { MAIL_PARTITION } from "../../mail/mail-jobs";
import { wantsMail } from "./notifications.service";

/** One partner's line in a weekly digest: sent and received, as the ledger counts them. */
export type DigestPartner = {
  name: string;
  clicks: { sent: number; received: number };
  leads: { sent: number; received: number };
  revenue: { sent: MoneyTotal[]; received: MoneyTotal[] };
};

/**
 * What a notice tells the people of `organizationId` (issue 37, item 8). A mail job carries it
 * to one person, and the worker writes the mail when it sends it (notice-composer.ts).
 */
export type Notice =
  /** `partnerId` added the organization to its Buddies. */
  | { type: "buddy_added"; organizationId: string; partnerId: string }
  /** The first lead, or the first revenue, or both at once, from clicks `partnerId` sent. */
  | {
      type: "first_conversion";
      organizationId: string;
      partnerId: string;
      lead: boolean;
      revenue: { valueMinor: number; currency: string } | null;
    }
  /** A webhook endpoint's delivery failed, the first time since it last succeeded. */
  | { type: "webhook_failing"; organizationId: string; endpointId: string; since: string }
  /** `applicant` asks to join the organization (admins). */
  | { type: "member_pending"; organizationId: string; applicant: string }
  /** `competitorId` joined Buddy in the organization's own category. */
  | { type: "competitor_joined"; organizationId: string; competitorId: string }
  /** `partnerId` started an account overlap run (CONTRACT §11): the admins' browsers take part. */
  | {
      type: "overlap_requested";
      organizationId: string;
      partnerId: string;
      runId: string;
      population: "customers" | "prospects";
      partnerPopulation: "customers" | "prospects";
    }
  /** The week starting `week` (a Monday, YYYY-MM-DD) before the digest's Monday, per partner. */
  | { type: "weekly_digest"; organizationId: string; week: string; partners: DigestPartner[] };

export type NoticeType = Notice["type"];

/** Which of the person's four choices lets each notice through. */
export const NOTICE_PREFERENCE: Record<NoticeType, NotificationPreference> = {
  buddy_added: "emailNotifications",
  first_conversion: "emailNotifications",
  webhook_failing: "emailNotifications",
  member_pending: "emailNotifications",
  competitor_joined: "newCompetitorAlerts",
  overlap_requested: "emailNotifications",
  weekly_digest: "weeklyDigest",
};

/** Notices about the organization's settings go to its admins only; the others to every member. */
export const ADMINS_ONLY: ReadonlySet<NoticeType> = new Set([
  "webhook_failing",
  "member_pending",
  "overlap_requested",
]);

/**
 * The mail jobs of a notice (an SQL jsonb value per row of `from`), one per active member of
 * `organization` (an SQL value per row) who wants that kind of mail now; the worker asks again
 * when it sends. For a statement that queues notices with what it records (conversion-store.ts).
 */
export function noticeJobs(options: {
  notice: SQL;
  organization: SQL;
  type: NoticeType;
  from: SQL;
  /** Narrows the people further (the digest: those whose week this statement claimed). */
  where?: SQL;
}): SQL {
  const adminsOnly = ADMINS_ONLY.has(options.type) ? sql`and m.role = 'admin'` : sql``;
  return sql`
    insert into jobs (id, kind, partition_key, payload)
    select gen_random_uuid()::text, 'mail', ${MAIL_PARTITION}, jsonb_build_object(
      'kind', 'notice', 'to', u.email, 'subject', '', 'text', '', 'html', '', 'userId', u.id,
      'notice', ${options.notice})
    from ${options.from}
    join memberships m on m.organization_id = ${options.organization} and m.status = 'active' ${adminsOnly}
    join users u on u.id = m.user_id
    left join notification_preferences p on p.user_id = u.id
    where ${wantsMail(NOTICE_PREFERENCE[options.type])} ${options.where ? sql`and ${options.where}` : sql``}
    returning 1`;
}

/**
 * Queues a notice to the organization's people in the caller's transaction: it is sent only if the
 * caller's change commits. Answers how many mails were queued (wake the outbox when any).
 */
export async function queueNotice(tx: DbOrTx, notice: Notice): Promise<number> {
  const result = await tx.execute(
    noticeJobs({
      notice: sql`${JSON.stringify(notice)}::jsonb`,
      organization: sql`${notice.organizationId}::text`,
      type: notice.type,
      from: sql`(select 1) as one`,
    }),
  );
  return rowsOf(result).length;
}

/**
 * Claims a notice sent once for good (`notifications_sent`), in the caller's transaction: true
 * for the one transaction that inserts its key, which then queues it. Any number of instances
 * racing on one key wait on its row, and only the first commit wins.
 */
export async function claimNotice(tx: DbOrTx, key: string): Promise<boolean> {
  const result = await tx.execute(
    sql`insert into notifications_sent (key) values (${key}) on conflict do nothing returning key`,
  );
  return rowsOf(result).length > 0;
}

/** Queues a notice once for good under `key` (a failing streak, a competitor's arrival). */
export async function queueNoticeOnce(tx: DbOrTx, key: string, notice: Notice): Promise<number> {
  return (await claimNotice(tx, key)) ? queueNotice(tx, notice) : 0;
}
