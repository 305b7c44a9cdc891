import { SECURITY_LOG_ADDRESS_ACTIONS } from "@shared/security-log";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { MAIL_PARTITION } from "../../mail/mail-jobs";

export type Person = { id: string; email: string };

const list = (values: readonly string[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Any of these addresses as a whole, never inside a longer one: bob@acme.com is not in
 * jimbob@acme.com, nor in bob@acme.com.au (PostgreSQL's advanced regular expressions, matched
 * without regard to case).
 */
export function addressesPattern(addresses: readonly string[]): string {
  const alternatives = addresses.map((address) => escapeRegExp(address.toLowerCase())).join("|");
  return `(?<![a-z0-9._%+-])(${alternatives})(?![a-z0-9-]|\\.[a-z0-9-])`;
}

const ADDRESS_ACTIONS = list(SECURITY_LOG_ADDRESS_ACTIONS);

/**
 * Issue 38: what names these people outside their own rows, each a single statement: their address
 * in security-log entries (an invitation, a role change), replaced by words; mail in the outbox to
 * them, for them, or naming them (an invitation from them), finished or not; invitations to them.
 */
async function eraseAddresses(tx: DbOrTx, people: readonly Person[]): Promise<void> {
  const addresses = people.map((person) => person.email.toLowerCase());
  const pattern = addressesPattern(addresses);
  await tx.execute(sql`
    update security_log set target = regexp_replace(target, ${pattern}, 'a deleted account', 'gi')
    where action in (${ADDRESS_ACTIONS}) and target ~* ${pattern}`);
  await tx.execute(sql`
    delete from jobs where kind = 'mail' and partition_key = ${MAIL_PARTITION}
      and (lower(payload->>'to') in (${list(addresses)})
        or payload->>'userId' in (${list(people.map((person) => person.id))})
        or payload::text ~* ${pattern})`);
  await tx.execute(sql`delete from team_invitations where lower(email) in (${list(addresses)})`);
}

/**
 * The invitations a deleted organization had sent go with it (foreign key); their mail, not sent
 * yet, goes too. Only that mail: the people invited are not deleted, and what names them elsewhere
 * (another organization's invitation, log or mail) is not this deletion's to touch.
 */
export async function eraseInvitationMail(
  tx: DbOrTx,
  invited: readonly string[],
  organizationName: string,
): Promise<void> {
  if (invited.length === 0) return;
  await tx.execute(sql`
    delete from jobs where kind = 'mail' and partition_key = ${MAIL_PARTITION}
      and lower(payload->>'to') in (${list(invited.map((address) => address.toLowerCase()))})
      and payload->>'subject' like ${`% invited you to join ${organizationName.replace(/[\\%_]/g, "\\$&")} on Buddy`}`);
}

/**
 * Issue 38: deletes these people and leaves nothing behind that names them. Their own rows go with
 * `users` (sessions, one-time tokens, memberships and mail preferences cascade); the security log
 * keeps what they did but not their address or client addresses; and eraseAddresses.
 */
export async function erasePeople(tx: DbOrTx, people: readonly Person[]): Promise<void> {
  if (people.length === 0) return;
  const ids = list(people.map((person) => person.id));
  await tx.execute(sql`
    update security_log set actor_user_id = null, actor_email = null, ip_address = null
    where actor_user_id in (${ids})`);
  await eraseAddresses(tx, people);
  await tx.execute(sql`delete from users where id in (${ids})`);
}
