import type { DbOrTx } from "../../db/client";
import { enqueueMail } from "../../mail/mail-jobs";
import { renderMail } from "../../mail/mail-layout";
import { getOrganization } from "../organizations/organizations.service";
import { getRelationship } from "./relationships.service";

/**
 * Invites a contact at a Buddy to join the platform: a mail with a link to register. Only for
 * the caller's own relationships (else 404).
 */
export async function inviteRelationshipContact(
  db: DbOrTx,
  input: {
    organizationId: string;
    relationshipId: string;
    email: string;
    inviterEmail: string;
    publicUrl: string;
  },
) {
  const relationship = await getRelationship(db, input.organizationId, input.relationshipId);
  const inviter = await getOrganization(db, input.organizationId);
  const link = `${input.publicUrl}/auth?tab=register&email=${encodeURIComponent(input.email)}`;
  await enqueueMail(
    db,
    renderMail(input.email, {
      subject: `${inviter.name} invites ${relationship.targetOrg.name} to partner on Buddy`,
      heading: `${inviter.name} wants to partner with ${relationship.targetOrg.name}`,
      paragraphs: [
        `${input.inviterEmail} at ${inviter.name} added ${relationship.targetOrg.name} as a Buddy: a complementary tool they want to cross-promote with.`,
        "Join Buddy to share e-mail call-to-action ads with each other and see the clicks and leads you send each other.",
      ],
      action: { label: "Join Buddy", url: link },
      footer:
        "You received this because someone entered your address. If it was a mistake, ignore this e-mail.",
    }),
  );
}
