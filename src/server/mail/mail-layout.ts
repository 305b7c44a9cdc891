import escapeHtml from "escape-html";
import type { MailMessage } from "../lib/mailer";

export type MailContent = {
  subject: string;
  heading: string;
  paragraphs: string[];
  action?: { label: string; url: string };
  footer?: string;
  /**
   * A notice's way out (RFC 8058): `url` turns `what` off with one POST and shows a confirmation
   * on a GET. It is named in List-Unsubscribe and shown under the mail. Security mails (verify,
   * reset) have none: nobody can turn them off.
   */
  unsubscribe?: { url: string; what: string };
};

/**
 * Renders one mail as plain text and as e-mail-safe HTML (tables, inline styles).
 * Every value is escaped: addresses and names may come from users.
 */
export function renderMail(to: string, content: MailContent): MailMessage {
  const { subject, heading, paragraphs, action, footer, unsubscribe } = content;
  const textParts = [heading, "", ...paragraphs.flatMap((p) => [p, ""])];
  if (action) textParts.push(`${action.label}: ${action.url}`, "");
  if (footer) textParts.push(footer, "");
  const why = unsubscribe
    ? `You receive this because ${unsubscribe.what} are on in Settings → Notifications.`
    : "";
  if (unsubscribe) textParts.push(why, `Unsubscribe: ${unsubscribe.url}`);
  const text = textParts.join("\n").trim();

  const p = (value: string) =>
    `<p style="margin:0 0 16px;font-size:15px;line-height:22px;color:#334155">${escapeHtml(value)}</p>`;
  const button = action
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:8px 0 24px"><tr><td style="border-radius:6px;background:#4f46e5"><a href="${escapeHtml(action.url)}" style="display:inline-block;padding:12px 20px;font-size:15px;font-weight:600;color:#ffffff;text-decoration:none">${escapeHtml(action.label)}</a></td></tr></table>${p(`Or paste this link into your browser: ${action.url}`)}`
    : "";
  const html = `<!doctype html><html><body style="margin:0;padding:0;background:#f1f5f9">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f1f5f9;padding:24px 0"><tr><td align="center">
<table role="presentation" width="600" cellpadding="0" cellspacing="0" style="max-width:600px;width:100%;background:#ffffff;border-radius:8px;font-family:Arial,Helvetica,sans-serif">
<tr><td style="padding:32px">
<p style="margin:0 0 24px;font-size:20px;font-weight:700;color:#4f46e5">Buddy</p>
<h1 style="margin:0 0 16px;font-size:22px;color:#0f172a">${escapeHtml(heading)}</h1>
${paragraphs.map(p).join("\n")}
${button}
${footer ? `<p style="margin:24px 0 0;font-size:13px;color:#64748b">${escapeHtml(footer)}</p>` : ""}
${unsubscribe ? `<p style="margin:24px 0 0;font-size:13px;color:#64748b">${escapeHtml(why)} <a href="${escapeHtml(unsubscribe.url)}" style="color:#64748b">Unsubscribe</a></p>` : ""}
</td></tr></table></td></tr></table></body></html>`;
  if (!unsubscribe) return { to, subject, text, html };
  const headers = {
    "List-Unsubscribe": `<${unsubscribe.url}>`,
    "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
  };
  return { to, subject, text, html, headers };
}
