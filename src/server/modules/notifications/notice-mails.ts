import { DAY_MS, isoDay } from "@shared/days";
import { formatMinorUnits, formatMoney } from "@shared/money";
import type { MoneyTotal } from "@shared/tracking";
import type { MailMessage } from "../../lib/mailer";
import { type MailContent, renderMail } from "../../mail/mail-layout";
import type { DigestPartner } from "./notices";

/** What the unsubscribe footer names: "… because <what> are on in Settings → Notifications". */
export const UNSUBSCRIBE_WHAT = {
  emailNotifications: "Email Notifications",
  newCompetitorAlerts: "New Competitor Alerts",
  weeklyDigest: "Weekly Digest mails",
  marketingEmails: "Marketing Emails",
} as const;

type Common = { publicUrl: string; organizationName: string; unsubscribe: MailContent["unsubscribe"] };

const money = (valueMinor: number, currency: string) =>
  formatMoney(Number(formatMinorUnits(valueMinor, currency)), currency, "en-US");
const totals = (list: MoneyTotal[]) => list.map((t) => formatMoney(t.value, t.currency, "en-US")).join(" + ");
const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString("en-US")} ${n === 1 ? one : many}`;

/**
 * `partner` added the reader's organization as a Buddy. "Add back" opens Buddies with the partner
 * named and an Add button: the link itself changes nothing (mail scanners open links).
 */
export function buddyAddedMail(
  to: string,
  c: Common & { partnerName: string; partnerDomain: string; alreadyBuddies: boolean },
): MailMessage {
  const addBack = `${c.publicUrl}/dashboard/tools?add=${encodeURIComponent(c.partnerDomain)}`;
  return renderMail(to, {
    subject: `${c.partnerName} added ${c.organizationName} as a Buddy`,
    heading: `${c.partnerName} added you as a Buddy`,
    paragraphs: [
      `${c.partnerName} added ${c.organizationName} to its Buddies on Buddy: it wants to share your e-mail call-to-action ads and send you clicks.`,
      c.alreadyBuddies
        ? `${c.partnerName} is among your Buddies too, so each of you can share the other's ads now.`
        : `Add ${c.partnerName} back to share its ads in your mail and see what you send each other.`,
    ],
    action: c.alreadyBuddies
      ? { label: "Open your Buddies", url: `${c.publicUrl}/dashboard/tools` }
      : { label: `Add ${c.partnerName} back`, url: addBack },
    unsubscribe: c.unsubscribe,
  });
}

/** The first lead, the first revenue, or a first sale (both at once) from clicks a partner sent. */
export function firstConversionMail(
  to: string,
  c: Common & {
    partnerName: string;
    lead: boolean;
    revenue: { valueMinor: number; currency: string } | null;
  },
): MailMessage {
  const amount = c.revenue ? money(c.revenue.valueMinor, c.revenue.currency) : "";
  const what = c.lead && c.revenue ? `first sale` : c.revenue ? "first revenue" : "first lead";
  const subject = c.revenue
    ? `Your ${what} from ${c.partnerName}: ${amount}`
    : `Your first lead from ${c.partnerName}`;
  return renderMail(to, {
    subject,
    heading: `Your ${what} from ${c.partnerName}`,
    paragraphs: [
      c.revenue
        ? `Someone ${c.partnerName} sent to ${c.organizationName} just paid ${amount}. It is the first revenue Buddy has recorded from ${c.partnerName}'s clicks.`
        : `Someone ${c.partnerName} sent to ${c.organizationName} just became a lead: the first Buddy has recorded from ${c.partnerName}'s clicks.`,
      `See what you and ${c.partnerName} send each other on your overview.`,
    ],
    action: { label: "Open your overview", url: `${c.publicUrl}/dashboard` },
    unsubscribe: c.unsubscribe,
  });
}

export function webhookFailingMail(to: string, c: Common & { url: string; since: string }): MailMessage {
  return renderMail(to, {
    subject: `A webhook endpoint of ${c.organizationName} is failing`,
    heading: "A webhook endpoint is failing",
    paragraphs: [
      `Buddy could not deliver an event to ${c.url} (first failure ${c.since.slice(0, 16).replace("T", " ")} UTC). Each message is tried again for a while; an endpoint failing for 5 days in a row is disabled.`,
      "Open API Keys & Webhooks to see the failed deliveries and the answers your endpoint gave. You will not hear of this endpoint again until it has succeeded and fails anew.",
    ],
    action: { label: "Open API Keys & Webhooks", url: `${c.publicUrl}/dashboard/settings?tab=api` },
    unsubscribe: c.unsubscribe,
  });
}

/** A colleague waits for an admin's approval (the texts of the mail admins got before item 8). */
export function memberPendingMail(to: string, c: Common & { applicant: string }): MailMessage {
  return renderMail(to, {
    subject: `${c.applicant} asks to join ${c.organizationName} on Buddy`,
    heading: "A colleague asks to join your team",
    paragraphs: [
      `${c.applicant} set up Buddy with ${c.organizationName}'s website. Approve them in Settings → Team if they work with you.`,
    ],
    action: { label: "Open team settings", url: `${c.publicUrl}/dashboard/settings?tab=team` },
    unsubscribe: c.unsubscribe,
  });
}

/** "Add to block list" opens the Block List with the company named and a button: GET changes nothing. */
export function competitorJoinedMail(
  to: string,
  c: Common & { competitorName: string; competitorDomain: string },
): MailMessage {
  const block = `${c.publicUrl}/dashboard/competitors?add=${encodeURIComponent(c.competitorDomain)}`;
  return renderMail(to, {
    subject: `${c.competitorName} joined Buddy`,
    heading: "A company in your category joined Buddy",
    paragraphs: [
      `${c.competitorName} (${c.competitorDomain}) just joined Buddy, in the same category as ${c.organizationName}: Buddy counts it among your competitors.`,
      `Add it to your block list and neither of you is suggested to the other, and clicks between you count nothing.`,
    ],
    action: { label: "Add to block list", url: block },
    unsubscribe: c.unsubscribe,
  });
}

/**
 * A partner started an account overlap run: an admin opening Buddy lets the browser take part
 * (asked once per partner). The mail names the lists, never an account.
 */
export function overlapRequestedMail(
  to: string,
  c: Common & { partnerName: string; population: string; partnerPopulation: string },
): MailMessage {
  return renderMail(to, {
    subject: `${c.partnerName} asks to compare account lists with ${c.organizationName}`,
    heading: `${c.partnerName} asks to compare account lists`,
    paragraphs: [
      `${c.partnerName} wants to know how many of its ${c.partnerPopulation} are among your ${c.population}. Open Buddy as an admin of ${c.organizationName} and your browser takes part, once you agree.`,
      "Each side blinds its own list in its browser: Buddy never sees either list, and you both learn only how many accounts you share. The request expires after 7 days.",
    ],
    action: { label: "Open Buddy", url: `${c.publicUrl}/dashboard` },
    unsubscribe: c.unsubscribe,
  });
}

function digestLine(partner: DigestPartner): string {
  const side = (clicks: number, leads: number, revenue: MoneyTotal[]) =>
    [plural(clicks, "click"), plural(leads, "lead"), ...(revenue.length ? [totals(revenue)] : [])].join(", ");
  return `${partner.name}: Sent ${side(partner.clicks.sent, partner.leads.sent, partner.revenue.sent)}; Received ${side(partner.clicks.received, partner.leads.received, partner.revenue.received)}.`;
}

/** Monday's digest: the week before, per partner with any traffic or revenue, busiest first. */
export function weeklyDigestMail(
  to: string,
  c: Common & { week: string; partners: DigestPartner[] },
): MailMessage {
  const sum = (pick: (p: DigestPartner) => number) => c.partners.reduce((n, p) => n + pick(p), 0);
  const sent = sum((p) => p.clicks.sent);
  const received = sum((p) => p.clicks.received);
  const last = isoDay(Date.parse(`${c.week}T00:00:00Z`) + 6 * DAY_MS);
  return renderMail(to, {
    subject: `Your week on Buddy: ${plural(sent, "click")} sent, ${plural(received, "click")} received`,
    heading: `${c.organizationName}'s week with its partners`,
    paragraphs: [
      `From ${c.week} to ${last} (UTC), ${c.organizationName} sent its partners ${plural(sent, "click")} and received ${plural(received, "click")}. Sent is what your mail gave a partner's ads; Received is what theirs gave yours, with the leads and revenue that came of it.`,
      ...c.partners.map(digestLine),
    ],
    action: { label: "Open your overview", url: `${c.publicUrl}/dashboard` },
    unsubscribe: c.unsubscribe,
  });
}
