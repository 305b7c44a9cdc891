import { sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../db/client";
import type { MailMessage } from "../../lib/mailer";
import type { MailComposer } from "../../mail/mail-jobs";
import { blockedOrganizationsSql } from "../relationships/block-list";
import {
  buddyAddedMail,
  competitorJoinedMail,
  firstConversionMail,
  memberPendingMail,
  overlapRequestedMail,
  UNSUBSCRIBE_WHAT,
  webhookFailingMail,
  weeklyDigestMail,
} from "./notice-mails";
import { ADMINS_ONLY, NOTICE_PREFERENCE, type Notice } from "./notices";
import { wantsMail } from "./notifications.service";
import { unsubscribeUrl } from "./unsubscribe-token";

async function organizationName(db: Db, id: string): Promise<{ name: string; domain: string } | null> {
  const rows = rowsOf<{ name: string; domain: string }>(
    await db.execute(sql`select name, domain from organizations where id = ${id}`),
  );
  return rows[0] ?? null;
}

/**
 * Writes a notice's mail when the outbox sends it, or null (the job is skipped) when the person
 * no longer wants that kind of mail, is no longer a member (an admin, for admins' notices), or
 * what it tells of is gone. Every notice carries its signed one-click unsubscribe.
 */
export function noticeComposer(deps: { publicUrl: string; secret: string }): MailComposer {
  const { publicUrl } = deps;
  return async (db, to, payload): Promise<MailMessage | null> => {
    const notice = payload.notice as Notice | undefined;
    const userId = payload.userId;
    if (!notice || !userId) return null;
    const preference = NOTICE_PREFERENCE[notice.type];
    const [reader] = rowsOf<{ name: string }>(
      await db.execute(sql`
        select o.name from memberships m
        join organizations o on o.id = m.organization_id
        left join notification_preferences p on p.user_id = m.user_id
        where m.user_id = ${userId} and m.organization_id = ${notice.organizationId} and m.status = 'active'
          ${ADMINS_ONLY.has(notice.type) ? sql`and m.role = 'admin'` : sql``}
          and ${wantsMail(preference)}`),
    );
    if (!reader) return null;
    const common = {
      publicUrl,
      organizationName: reader.name,
      unsubscribe: {
        url: unsubscribeUrl(publicUrl, deps.secret, { userId, preference }),
        what: UNSUBSCRIBE_WHAT[preference],
      },
    };
    switch (notice.type) {
      case "buddy_added": {
        const partner = await organizationName(db, notice.partnerId);
        const [ways] = rowsOf<{ added: boolean; back: boolean }>(
          await db.execute(sql`
            select
              exists (select 1 from relationships where source_org_id = ${notice.partnerId}
                and target_org_id = ${notice.organizationId} and type = 'complement' and status = 'active') as added,
              exists (select 1 from relationships where source_org_id = ${notice.organizationId}
                and target_org_id = ${notice.partnerId} and type = 'complement' and status = 'active') as back`),
        );
        // Removed again before the mail went: nothing to tell.
        if (!partner || !ways?.added) return null;
        return buddyAddedMail(to, {
          ...common,
          partnerName: partner.name,
          partnerDomain: partner.domain,
          alreadyBuddies: ways.back,
        });
      }
      case "first_conversion": {
        const partner = await organizationName(db, notice.partnerId);
        if (!partner) return null;
        return firstConversionMail(to, {
          ...common,
          partnerName: partner.name,
          lead: notice.lead,
          revenue: notice.revenue,
        });
      }
      case "webhook_failing": {
        const [endpoint] = rowsOf<{ url: string }>(
          await db.execute(sql`select url from webhook_endpoints
            where id = ${notice.endpointId} and organization_id = ${notice.organizationId}`),
        );
        if (!endpoint) return null;
        return webhookFailingMail(to, { ...common, url: endpoint.url, since: notice.since });
      }
      case "member_pending":
        return memberPendingMail(to, { ...common, applicant: notice.applicant });
      case "competitor_joined": {
        const competitor = await organizationName(db, notice.competitorId);
        if (!competitor) return null;
        return competitorJoinedMail(to, {
          ...common,
          competitorName: competitor.name,
          competitorDomain: competitor.domain,
        });
      }
      case "overlap_requested": {
        const [run] = rowsOf<{ name: string }>(
          await db.execute(sql`select o.name from overlap_runs r join organizations o on o.id = r.starter_id
            where r.id = ${notice.runId} and r.responder_id = ${notice.organizationId}
              and r.status = 'waiting' and r.expires_at > now()
              and r.starter_id not in (${blockedOrganizationsSql(notice.organizationId)})`),
        );
        // Answered, cancelled or expired before the mail went, or the pair blocked since: nothing to ask.
        if (!run) return null;
        return overlapRequestedMail(to, {
          ...common,
          partnerName: run.name,
          population: notice.population,
          partnerPopulation: notice.partnerPopulation,
        });
      }
      case "weekly_digest":
        return weeklyDigestMail(to, { ...common, week: notice.week, partners: notice.partners });
    }
  };
}
