import path from "node:path";
import { UNCOUNTED_DAYS_MAX } from "@shared/click-reasons";
import ipaddr from "ipaddr.js";
import { z } from "zod";
import { DEFAULT_CLICK_RETENTION_DAYS } from "./data-lifecycle/partitioned-tables";

const booleanString = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) => value === "true" || value === "1");

const optionalUrl = (protocols: RegExp, label: string) =>
  z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value.trim() : undefined))
    .refine((value) => value === undefined || protocols.test(value), { message: `must be a ${label} URL` });

/** Unset and empty are the same: no listener (z.coerce would read "" as port 0). */
const optionalPort = z.preprocess(
  (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
  z.coerce.number().int().min(0).max(65535).optional(),
);

const DURATION_UNITS_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
/** The default of WEBHOOK_RETRY_DELAYS (CONTRACT §9). */
export const DEFAULT_WEBHOOK_RETRY_DELAYS = "5s,5m,30m,2h,5h,10h,10h";

/** "5s,5m,30m" → [5000, 300000, 1800000]: each a whole number and a unit (ms, s, m, h or d). */
const durationList = z
  .string()
  .default(DEFAULT_WEBHOOK_RETRY_DELAYS)
  .transform((value, ctx) => {
    const delays: number[] = [];
    const source = value.trim() === "" ? DEFAULT_WEBHOOK_RETRY_DELAYS : value;
    for (const part of source.split(",").map((item) => item.trim())) {
      const match = /^(\d{1,9})(ms|s|m|h|d)$/.exec(part);
      if (!match) {
        ctx.addIssue({
          code: "custom",
          message: `"${part}" is not a duration such as 5s, 5m, 2h or 1d (a comma-separated list)`,
        });
        return z.NEVER;
      }
      delays.push(Number(match[1]) * DURATION_UNITS_MS[match[2] as keyof typeof DURATION_UNITS_MS]);
    }
    if (delays.length > 20) {
      ctx.addIssue({ code: "custom", message: "at most 20 retries" });
      return z.NEVER;
    }
    return delays;
  });

/**
 * Which proxies stand between clients and this server (CONTRACT §1): off, how many of them (each
 * appends the address it heard from to X-Forwarded-For), or their addresses and networks. The
 * client address is the first entry from the right that is not a trusted proxy.
 */
export type TrustProxy = false | { hops: number } | { proxies: readonly string[] };

const TRUST_PROXY_FORMS =
  '"true" (one proxy), "false", a number of proxies (1 or more), or proxy addresses and CIDRs, comma-separated';

/** One proxy's address or network: "10.0.0.1", "10.0.0.0/8", "::1", "fd00::/8" (a problem, or null). */
function proxyAddressProblem(entry: string): string | null {
  const slash = entry.indexOf("/");
  const address = slash === -1 ? entry : entry.slice(0, slash);
  const bits = ipaddr.IPv4.isValidFourPartDecimal(address) ? 32 : ipaddr.IPv6.isValid(address) ? 128 : 0;
  if (bits === 0) return `"${entry}" is not an IP address or CIDR; TRUST_PROXY takes ${TRUST_PROXY_FORMS}`;
  if (slash === -1) return null;
  const prefix = entry.slice(slash + 1);
  if (!/^\d{1,3}$/.test(prefix) || Number(prefix) > bits)
    return `"${entry}": the prefix length must be a whole number from 1 to ${bits}`;
  // A /0 trusts every address, the client's own first entry included: the hole this setting closes.
  if (Number(prefix) === 0) return `"${entry}" would trust every address: name the proxies' own network`;
  return null;
}

const trustProxySetting = z
  .string()
  .optional()
  .transform((raw, ctx): TrustProxy => {
    const value = raw?.trim() ?? "";
    // "0" proxies is off too, as the earlier boolean setting read it.
    if (value === "" || value === "false" || value === "0") return false;
    // One proxy, the balancer: a hop count, never "trust everything" (which takes the left-most
    // entry, the one any client writes itself).
    if (value === "true") return { hops: 1 };
    if (/^-?\d+$/.test(value)) {
      const hops = Number(value);
      if (hops >= 1 && Number.isSafeInteger(hops)) return { hops };
      ctx.addIssue({
        code: "custom",
        message: `"${value}" is not a number of proxies (1 or more); TRUST_PROXY takes ${TRUST_PROXY_FORMS}`,
      });
      return z.NEVER;
    }
    const proxies = value.split(",").map((entry) => entry.trim());
    const problems = proxies.map((entry) =>
      entry === "" ? `an empty entry in "${value}"` : proxyAddressProblem(entry),
    );
    for (const message of problems) if (message) ctx.addIssue({ code: "custom", message });
    return problems.some(Boolean) ? z.NEVER : { proxies: Object.freeze(proxies) };
  });

/** CONTRACT §1: every setting, its default and its check. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("127.0.0.1"),
  PUBLIC_URL: optionalUrl(/^https?:\/\//, "http(s)"),
  DATA_DIR: z.string().min(1).default("./data"),
  DATABASE_URL: optionalUrl(/^postgres(ql)?:\/\//, "postgres://"),
  APP_SECRET: z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? value : undefined))
    .refine((value) => value === undefined || value.length >= 32, {
      message: "must be at least 32 characters",
    }),
  SMTP_URL: optionalUrl(/^smtps?:\/\//, "smtp:// or smtps://"),
  MAIL_FROM: z.string().min(3).default("Buddy <no-reply@buddy.local>"),
  REDIS_URL: optionalUrl(/^rediss?:\/\//, "redis://"),
  AI_BASE_URL: optionalUrl(/^https?:\/\//, "http(s)"),
  AI_API_KEY: z.string().optional(),
  AI_MODEL: z.string().optional(),
  STRIPE_SECRET_KEY: z.string().optional(),
  STRIPE_PRICE_MONTHLY: z.string().optional(),
  STRIPE_PRICE_ANNUAL: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  RATE_LIMIT_PER_IP: z.coerce.number().int().min(0).default(30),
  PIXEL_RATE_LIMIT_PER_IP: z.coerce.number().int().min(0).default(20),
  OUTBOUND_ALLOW_PRIVATE: booleanString,
  TRUST_PROXY: trustProxySetting,
  METRICS_PORT: optionalPort,
  METRICS_HOST: z.string().trim().optional(),
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(300).default(5),
  // At least the longest window any screen reads from raw clicks (the uncounted clicks' 366 days).
  CLICK_RETENTION_DAYS: z.coerce
    .number()
    .int()
    .min(UNCOUNTED_DAYS_MAX)
    .max(36_500)
    .default(DEFAULT_CLICK_RETENTION_DAYS),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().min(1).max(3600).default(30),
  WEBHOOK_RETRY_DELAYS: durationList,
  /** Above a webhook's 10 s and the mailer's timeouts, with room to record the outcome. */
  OUTBOX_LEASE_SECONDS: z.coerce.number().int().min(15).max(3600).default(60),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  LOG_FORMAT: z.preprocess(
    (value) => (typeof value === "string" && value.trim() === "" ? undefined : value),
    z.enum(["pretty", "json"], { message: 'must be "pretty" or "json"' }).optional(),
  ),
});

export type Config = Readonly<{
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  appSecret: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  redisUrl: string | undefined;
  ai: { baseUrl: string | undefined; apiKey: string | undefined; model: string | undefined };
  stripe: {
    secretKey: string | undefined;
    priceMonthly: string | undefined;
    priceAnnual: string | undefined;
    webhookSecret: string | undefined;
  };
  rateLimitPerIp: number;
  /** New leads a minute the keyless conversion pixel records per client; 0 = off. */
  pixelRateLimitPerIp: number;
  outboundAllowPrivate: boolean;
  /** Whose X-Forwarded-For entries to believe (plugins/client-address.ts hands it to Fastify). */
  trustProxy: TrustProxy;
  /** Prometheus metrics on a listener of their own; none when port is unset. */
  metrics: { port: number | undefined; host: string };
  /** After SIGTERM, how long /readyz answers 503 while requests are still served. */
  shutdownDrainSeconds: number;
  /** Issue 38: how long raw click events are kept; the roll-ups every figure reads stay for good. */
  clickRetentionDays: number;
  /** How long a client may take to send a whole request (headers and body) before 408. */
  requestTimeoutSeconds: number;
  /** CONTRACT §9: the waits before each retry of a webhook message. */
  webhookRetryDelaysMs: readonly number[];
  /** How long a claimed outbox job is its instance's; a dead instance's jobs are taken over after it. */
  outboxLeaseSeconds: number;
  logLevel: z.infer<typeof envSchema>["LOG_LEVEL"];
  /** Unset: decided by where the log goes (see prettyLogs). */
  logFormat: "pretty" | "json" | undefined;
}>;

export class ConfigError extends Error {}

/** Parses the environment once; a bad value stops start-up with every problem listed. */
export function loadConfig(env: NodeJS.ProcessEnv, cwd = process.cwd()): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${problems.join("\n")}`);
  }
  const e = parsed.data;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, "");
  return Object.freeze({
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir: path.resolve(cwd, e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    appSecret: e.APP_SECRET,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    redisUrl: e.REDIS_URL,
    ai: { baseUrl: e.AI_BASE_URL, apiKey: e.AI_API_KEY, model: e.AI_MODEL },
    stripe: {
      secretKey: e.STRIPE_SECRET_KEY || undefined,
      priceMonthly: e.STRIPE_PRICE_MONTHLY || undefined,
      priceAnnual: e.STRIPE_PRICE_ANNUAL || undefined,
      webhookSecret: e.STRIPE_WEBHOOK_SECRET || undefined,
    },
    rateLimitPerIp: e.RATE_LIMIT_PER_IP,
    pixelRateLimitPerIp: e.PIXEL_RATE_LIMIT_PER_IP,
    outboundAllowPrivate: e.OUTBOUND_ALLOW_PRIVATE,
    trustProxy: e.TRUST_PROXY,
    // Same interface as the public port unless told otherwise: one setting to reach both.
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST || e.HOST },
    shutdownDrainSeconds: e.SHUTDOWN_DRAIN_SECONDS,
    clickRetentionDays: e.CLICK_RETENTION_DAYS,
    requestTimeoutSeconds: e.REQUEST_TIMEOUT_SECONDS,
    webhookRetryDelaysMs: Object.freeze(e.WEBHOOK_RETRY_DELAYS),
    outboxLeaseSeconds: e.OUTBOX_LEASE_SECONDS,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
  });
}
