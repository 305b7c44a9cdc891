import { INVITATION_TTL_DAYS } from "@shared/team";
import { renderMail } from "./mail-layout";

/** The link opens the register tab with the address filled in; the token proves the address. */
export function invitationLink(publicUrl: string, token: string, email: string) {
  const query = new URLSearchParams({ tab: "register", invite: token, email });
  return `${publicUrl}/auth?${query.toString()}`;
}

export function invitationMail(
  to: string,
  content: { publicUrl: string; token: string; organizationName: string; inviter: string; role: string },
) {
  const { organizationName, inviter, role } = content;
  return renderMail(to, {
    subject: `${inviter} invited you to join ${organizationName} on Buddy`,
    heading: `Join ${organizationName} on Buddy`,
    paragraphs: [
      `${inviter} invited you to join ${organizationName}'s team on Buddy as ${role === "admin" ? "an admin" : "a member"}.`,
      `Create your account with this address through the link below. It works once and is valid for ${INVITATION_TTL_DAYS} days. If you already have a Buddy account, open the link and sign in instead.`,
    ],
    action: { label: "Accept the invitation", url: invitationLink(content.publicUrl, content.token, to) },
    footer: "If you did not expect this invitation, you can ignore this e-mail.",
  });
}

export function membershipApprovedMail(to: string, content: { publicUrl: string; organizationName: string }) {
  return renderMail(to, {
    subject: `You can now use Buddy with ${content.organizationName}`,
    heading: "Your request was approved",
    paragraphs: [
      `An admin of ${content.organizationName} approved your request to join their team on Buddy.`,
    ],
    action: { label: "Open Buddy", url: `${content.publicUrl}/dashboard` },
  });
}
