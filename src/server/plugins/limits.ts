import type { Redis } from "ioredis";
import type { RateLimiterAbstract } from "rate-limiter-flexible";
import { clientNetwork } from "../lib/client-network";
import { createLimiter, take } from "./rate-limit";

/**
 * Every rate limit Buddy applies, by name, in one table (docs/operations.md#rate-limits). Each
 * counts by the kinds of key it names, and its `take` asks for exactly those, by kind, so an
 * organization id can never stand where an e-mail address is counted. A refusal is a 429 with
 * `Retry-After`. With `REDIS_URL` every instance shares the counts (rate-limit.ts's insurance keeps
 * limiting in process while Redis is away). Sign-in's failures have a limiter of their own
 * (login-limiter.ts).
 */

/** What a limit counts by. */
export type LimitKind = "client" | "address" | "organization";
/** `points` per `durationSeconds` for one key; 0 points turns that part off. */
export type Allowance = { points: number; durationSeconds: number };
type Parts = { readonly [K in LimitKind]?: Allowance };
/** The key of one take: one value for each kind the limit counts by, and nothing else. */
export type LimitKey<P extends Parts> = { readonly [K in keyof P]-?: string };

export type Limit<P extends Parts> = {
  readonly allowance: P;
  /** Takes a point from each part's allowance, in order, or refuses with 429 and Retry-After. */
  take(key: LimitKey<P>): Promise<void>;
};

/** Per CONTRACT §1: what one e-mail address may be sent or asked in 15 minutes. */
export const DEFAULT_PER_ADDRESS: Allowance = { points: 10, durationSeconds: 15 * 60 };
/** Each test event is a request to a URL of the admin's choosing: Buddy is no one's load generator. */
export const WEBHOOK_TESTS_PER_ORGANIZATION: Allowance = { points: 10, durationSeconds: 15 * 60 };
/**
 * A resend is a request to the organization's own endpoint too; an admin catching up after fixing
 * one resends a few failed messages by hand, so more than the tests, still no load generator.
 */
export const WEBHOOK_RESENDS_PER_ORGANIZATION: Allowance = { points: 30, durationSeconds: 15 * 60 };
/** Each invitation mails an address of the member's choosing: the platform is no spam cannon. */
export const RELATIONSHIP_INVITES_PER_ORGANIZATION: Allowance = { points: 10, durationSeconds: 15 * 60 };
/** Site and domain checks per client and minute: RATE_LIMIT_PER_IP, but never fewer than this. */
export const CHECKS_PER_CLIENT_AT_LEAST = 60;

export type LimitSettings = {
  /** `RATE_LIMIT_PER_IP`: the account routes' allowance per client and minute; 0 turns it off. */
  perClientPerMinute: number;
  /** `PIXEL_RATE_LIMIT_PER_IP`: new leads by pixel per client and minute; 0 turns it off. */
  pixelPerClientPerMinute: number;
  /** Per e-mail address, DEFAULT_PER_ADDRESS unless a test shortens it. */
  perAddress?: Allowance;
};

/** The named limits and their numbers. */
export function limitTable(settings: LimitSettings) {
  const perMinute = (points: number): Allowance => ({ points, durationSeconds: 60 });
  const account = perMinute(settings.perClientPerMinute);
  const checks = perMinute(
    settings.perClientPerMinute === 0 ? 0 : Math.max(settings.perClientPerMinute, CHECKS_PER_CLIENT_AT_LEAST),
  );
  const address = settings.perAddress ?? DEFAULT_PER_ADDRESS;
  return {
    /** POST /api/auth (signup): per client, and per address signed up (each sends a mail). */
    signup: { client: account, address },
    /** POST /api/auth (login): per client; wrong passwords per address are login-limiter.ts's. */
    login: { client: account },
    /** POST /api/verify-email. */
    verifyEmail: { client: account },
    /** POST /api/forgot-password: per client, and per address (each may send a mail). */
    forgotPassword: { client: account, address },
    /** POST /api/reset-password. */
    resetPassword: { client: account },
    /** Asking to delete an organization or an account (each sends a mail): per client and address. */
    deletionRequest: { client: account, address },
    /** POST /api/deletion/confirm. */
    deletionConfirm: { client: account },
    /** POST /api/team-members/invite: per client, and per invited address (each sends a mail). */
    teamInvite: { client: account, address },
    /** POST /api/relationships/:id/invite: per organization (each sends a mail). */
    relationshipInvite: { organization: RELATIONSHIP_INVITES_PER_ORGANIZATION },
    /** POST /api/webhooks/:id/test: per organization (each is a request to its endpoint). */
    webhookTest: { organization: WEBHOOK_TESTS_PER_ORGANIZATION },
    /** POST /api/webhooks/:id/deliveries/:deliveryId/resend: per organization (each is a request). */
    webhookResend: { organization: WEBHOOK_RESENDS_PER_ORGANIZATION },
    /** GET /api/metadata: per client (a miss fetches the site). */
    metadata: { client: checks },
    /** Onboarding's and Settings' domain checks, one allowance per client (each fetches a site). */
    domainCheck: { client: checks },
    /** GET /api/ecosystem/suggestions without a session: per client (a heavy computation). */
    suggestions: { client: checks },
    /** The conversion pixel's new leads per client (docs/tracking.md). */
    pixel: { client: perMinute(settings.pixelPerClientPerMinute) },
  } satisfies Record<string, Parts>;
}

type LimitTable = ReturnType<typeof limitTable>;
export type LimitName = keyof LimitTable;
export type Limits = { readonly [N in LimitName]: Limit<LimitTable[N]> };

/** Redis keys: `rl:ip:<name>:<network>`, `rl:addr:<name>:<address>`, `rl:org:<name>:<id>`. */
const KEY_PREFIX: Record<LimitKind, string> = { client: "rl:ip", address: "rl:addr", organization: "rl:org" };

const normalized: Record<LimitKind, (value: string) => string> = {
  // An IPv6 client counts by its /64 (lib/client-network.ts).
  client: clientNetwork,
  address: (address) => address.trim().toLowerCase(),
  organization: (id) => id,
};

export function createLimits(settings: LimitSettings, redis?: Redis): Limits {
  const table = limitTable(settings);
  const limits = Object.fromEntries(
    Object.entries(table).map(([name, parts]) => [name, createLimit(name, parts, redis)]),
  );
  return limits as Limits;
}

function createLimit<P extends Parts>(name: string, parts: P, redis: Redis | undefined): Limit<P> {
  const counters: { kind: LimitKind; limiter: RateLimiterAbstract }[] = [];
  for (const [kind, allowance] of Object.entries(parts) as [LimitKind, Allowance][]) {
    if (allowance.points <= 0) continue;
    const prefix = `${KEY_PREFIX[kind]}:${name}`;
    counters.push({
      kind,
      limiter: createLimiter(redis, prefix, allowance.points, allowance.durationSeconds),
    });
  }
  return {
    allowance: parts,
    async take(key) {
      const values = key as Partial<Record<LimitKind, string>>;
      for (const { kind, limiter } of counters) {
        const value = values[kind];
        // The types ask for every kind; a caller that still gives none is a bug, not a free pass.
        if (value === undefined) throw new Error(`limit ${name} needs a ${kind} key`);
        await take(limiter, normalized[kind](value));
      }
    },
  };
}
