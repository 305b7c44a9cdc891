import { type SQL, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/client";
import { MAIL_PARTITION } from "../../mail/mail-jobs";

export type Person = { id: string; email: string };

const list = (values: readonly string[]) =>
  sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  );

const anyAddressIn = (text: SQL, addresses: readonly string[]) =>
  sql.join(
    addresses.map((address) => sql`strpos(lower(${text}), ${address.toLowerCase()}) > 0`),
    sql` or `,
  );

/**
 * Issue 38: what names these addresses outside their own rows: their address written in security
 * log entries (an invitation, a role change), replaced by words; mail in the outbox that is to them
 * or names them (an invitation from them), finished or not; invitations to them.
 */
export async function eraseAddresses(tx: DbOrTx, addresses: readonly string[]): Promise<void> {
  if (addresses.length === 0) return;
  for (const address of addresses) {
    await tx.execute(sql`
      update security_log set target = replace(target, ${address}, 'a deleted account')
      where strpos(target, ${address}) > 0`);
  }
  await tx.execute(sql`
    delete from jobs where kind = 'mail' and partition_key = ${MAIL_PARTITION}
      and (${anyAddressIn(sql`payload::text`, addresses)})`);
  await tx.execute(sql`delete from team_invitations where email in (${list(addresses)})`);
}

/**
 * Issue 38: deletes these people and leaves nothing behind that names them. Their own rows go with
 * `users` (sessions, one-time tokens, memberships and mail preferences cascade); the security log
 * keeps what they did but not their address or client addresses; and eraseAddresses.
 */
export async function erasePeople(tx: DbOrTx, people: readonly Person[]): Promise<void> {
  if (people.length === 0) return;
  const ids = list(people.map((person) => person.id));
  const emails = people.map((person) => person.email);
  await tx.execute(sql`
    update security_log set actor_user_id = null, actor_email = null, ip_address = null
    where actor_user_id in (${ids}) or actor_email in (${list(emails)})`);
  await eraseAddresses(tx, emails);
  await tx.execute(sql`delete from jobs where kind = 'mail' and payload->>'userId' in (${ids})`);
  await tx.execute(sql`delete from users where id in (${ids})`);
}
