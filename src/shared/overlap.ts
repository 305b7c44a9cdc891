import { z } from "zod";
import { idField } from "./http";

/**
 * CONTRACT §11: account overlap between partners, computed by private set intersection. The server
 * sees blinded points only (overlap-protocol.ts); these are the shapes both sides agree on.
 */

export const OVERLAP_POPULATIONS = ["customers", "prospects"] as const;
export type OverlapPopulation = (typeof OVERLAP_POPULATIONS)[number];
export const OVERLAP_POPULATION_LABELS: Record<OverlapPopulation, string> = {
  customers: "Customers",
  prospects: "Prospects",
};

/** Lowest first: a run uses the lower of the two sides' levels. */
export const OVERLAP_LEVELS = ["hidden", "counts", "overlaps"] as const;
export type OverlapLevel = (typeof OVERLAP_LEVELS)[number];
export const OVERLAP_LEVEL_LABELS: Record<OverlapLevel, string> = {
  hidden: "Hidden",
  counts: "Counts",
  overlaps: "Overlaps",
};
export const OVERLAP_LEVEL_DESCRIPTIONS: Record<OverlapLevel, string> = {
  hidden: "No overlap runs with this partner.",
  counts: "Both sides learn how many accounts they share, and nothing else.",
  overlaps:
    "Each side also learns which of its own accounts are shared, never the other side's other accounts.",
};
export const DEFAULT_OVERLAP_LEVEL: OverlapLevel = "counts";

export function lowerLevel(one: OverlapLevel, other: OverlapLevel): OverlapLevel {
  return OVERLAP_LEVELS.indexOf(one) <= OVERLAP_LEVELS.indexOf(other) ? one : other;
}

/** Fewer than this many distinct domains could single out accounts: a population needs at least 50. */
export const OVERLAP_MIN_DOMAINS = 50;
/** A bound on one request's work and size (50,000 points are about 2.2 MB of JSON). */
export const OVERLAP_MAX_DOMAINS = 50_000;
/** Counts under this are shown and sent as "fewer than 5" (`count: null`). */
export const OVERLAP_SMALLEST_SHOWN = 5;
export const OVERLAP_RUN_TTL_DAYS = 7;
export const OVERLAP_RUN_INTERVAL_HOURS = 24;

export const OVERLAP_RUN_STATUSES = ["waiting", "answered", "completed", "expired", "cancelled"] as const;
export type OverlapRunStatus = (typeof OVERLAP_RUN_STATUSES)[number];

export const OVERLAP_MESSAGES = {
  notEnoughDomains: `A list needs at least ${OVERLAP_MIN_DOMAINS} distinct domains`,
  tooManyDomains: `A list holds at most ${OVERLAP_MAX_DOMAINS.toLocaleString("en-US")} domains`,
  duplicatePoints: "Each domain may be sent once",
  hidden: "Overlap runs are off between your organizations",
  tooSoon: "These two lists were compared less than 24 hours ago",
  notEligible: "Overlap runs are for Buddies, or for two organizations that both opted into discovery",
  runNotFound: "Overlap run not found",
  notYourTurn: "This run is not waiting for you",
  wrongLength: "Send one point for each point you received",
  levelChanged: "Sharing changed while this step was taken: take it again",
  noPopulation: "Add this list first",
  fewerThan: `fewer than ${OVERLAP_SMALLEST_SHOWN}`,
} as const;

/** A ristretto255 point as 32 bytes in unpadded base64url (43 characters). */
export const OVERLAP_POINT = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/;
const POINT_ERROR = "Each point is 32 bytes in unpadded base64url";
const point = z.string({ error: POINT_ERROR }).regex(OVERLAP_POINT, { error: POINT_ERROR });

function distinctPoints(label: string) {
  return z
    .array(point, { error: `${label} must be a list of points` })
    .min(OVERLAP_MIN_DOMAINS, { error: OVERLAP_MESSAGES.notEnoughDomains })
    .max(OVERLAP_MAX_DOMAINS, { error: OVERLAP_MESSAGES.tooManyDomains })
    .refine((points) => new Set(points).size === points.length, { error: OVERLAP_MESSAGES.duplicatePoints });
}

export const overlapPopulationSchema = z.enum(OVERLAP_POPULATIONS, {
  error: "population must be customers or prospects",
});
export const overlapLevelSchema = z.enum(OVERLAP_LEVELS, {
  error: "level must be hidden, counts or overlaps",
});

export const overlapPopulationParamsSchema = z.object({ population: overlapPopulationSchema });
export const overlapPartnerParamsSchema = z.object({ partnerId: idField("partnerId") });

export const overlapPopulationUpdateSchema = z.object({
  domainCount: z
    .number({ error: "domainCount must be a number" })
    .int({ error: "domainCount must be a whole number" })
    .min(OVERLAP_MIN_DOMAINS, { error: OVERLAP_MESSAGES.notEnoughDomains })
    .max(OVERLAP_MAX_DOMAINS, { error: OVERLAP_MESSAGES.tooManyDomains }),
});

export const overlapDiscoveryUpdateSchema = z.object({
  enabled: z.boolean({ error: "enabled must be true or false" }),
});

export const overlapPartnerUpdateSchema = z
  .object({
    level: overlapLevelSchema.optional(),
    /** Consent to take part in runs this partner starts (asked once per partner). */
    consent: z.boolean({ error: "consent must be true or false" }).optional(),
  })
  .refine((body) => body.level !== undefined || body.consent !== undefined, {
    error: "Send a level, a consent or both",
  });

export const overlapRunStartSchema = z.object({
  partnerId: idField("partnerId"),
  population: overlapPopulationSchema,
  partnerPopulation: overlapPopulationSchema,
  /** a·H(x) for each of the starter's domains, in an order only its browser knows. */
  points: distinctPoints("points"),
});

/**
 * The level the step followed (`stepLevel`): if sharing went lower meanwhile, an answer kept in
 * order for Overlaps would say more than Counts allows, so the step is refused, to be taken again.
 */
/**
 * Points blinded again: as distinct as those received (blinding is one-to-one), so a repeated
 * point could only inflate the count.
 */
const distinctDoubled = z
  .array(point, { error: "doubled must be a list of points" })
  .max(OVERLAP_MAX_DOMAINS)
  .refine((points) => new Set(points).size === points.length, { error: OVERLAP_MESSAGES.duplicatePoints });

const stepLevel = z.enum(["counts", "overlaps"], { error: "level must be counts or overlaps" });

export const overlapRunAnswerSchema = z.object({
  /** b·(a·H(x)) for each received point: in their order for Overlaps, shuffled for Counts. */
  doubled: distinctDoubled,
  /** b·H(y) for each of the answering side's own domains. */
  points: distinctPoints("points"),
  level: stepLevel,
});

export const overlapRunCompletionSchema = z.object({
  /** a·(b·H(y)) for each received point: in their order for Overlaps, shuffled for Counts. */
  doubled: distinctDoubled,
  level: stepLevel,
});

export const overlapPopulationInfoSchema = z.object({
  population: overlapPopulationSchema,
  domainCount: z.number().int(),
  updatedAt: z.string(),
});

export const overlapSettingsSchema = z.object({
  discovery: z.boolean(),
  populations: z.array(overlapPopulationInfoSchema),
});
export type OverlapSettings = z.infer<typeof overlapSettingsSchema>;

export const overlapRunSchema = z.object({
  id: z.string(),
  partner: z.object({ id: z.string(), name: z.string() }),
  /** Whether this organization started the run. */
  started: z.boolean(),
  population: overlapPopulationSchema,
  partnerPopulation: overlapPopulationSchema,
  status: z.enum(OVERLAP_RUN_STATUSES),
  /** The level the run uses, fixed when the other side answers. */
  level: z.enum(["counts", "overlaps"]).nullable(),
  /** Shared accounts; null while running, and when fewer than 5. */
  count: z.number().int().nullable(),
  /** Overlaps mode: positions, in the points this side sent, of its shared accounts. */
  matches: z.array(z.number().int()).nullable(),
  createdAt: z.string(),
  completedAt: z.string().nullable(),
  expiresAt: z.string(),
});
export type OverlapRun = z.infer<typeof overlapRunSchema>;

export const overlapRunsResponseSchema = z.object({ runs: z.array(overlapRunSchema) });

/** What the caller's next step needs: the other side's points for its turn. */
export const overlapRunWorkSchema = overlapRunSchema.extend({
  /** Waiting, for the answering side: a·H(x) as sent. */
  points: z.array(z.string()).nullable(),
  /** Answered, for the starting side: b·(a·H(x)). */
  doubled: z.array(z.string()).nullable(),
  /** Answered, for the starting side: b·H(y). */
  partnerPoints: z.array(z.string()).nullable(),
  /** The level this side's step must follow (shuffling in Counts mode). */
  stepLevel: z.enum(["counts", "overlaps"]),
});
export type OverlapRunWork = z.infer<typeof overlapRunWorkSchema>;

export const overlapPartnerSchema = z.object({
  partner: z.object({ id: z.string(), name: z.string() }),
  /** This organization's own level for the partner. */
  level: overlapLevelSchema,
  /** The level runs use: the lower of both sides'. */
  effectiveLevel: overlapLevelSchema,
  consented: z.boolean(),
  /** The partner's lists that a run may compare with. */
  partnerPopulations: z.array(overlapPopulationSchema),
  /** When a run between these two lists may next start, per "mine:theirs" pair; absent when now. */
  nextRunAt: z.record(z.string(), z.string()),
  /** The latest completed run per pair of lists, newest first. */
  results: z.array(overlapRunSchema),
  /** Runs in flight. */
  pending: z.array(overlapRunSchema),
});
export type OverlapPartner = z.infer<typeof overlapPartnerSchema>;

export const overlapSummarySchema = z.object({
  partners: z.array(
    z.object({
      partnerId: z.string(),
      /** The latest customers × customers count (null when fewer than 5 or never run). */
      customers: z.number().int().nullable(),
      /** Whether a customers × customers run completed (so null means "fewer than 5"). */
      customersRun: z.boolean(),
      completedAt: z.string().nullable(),
    }),
  ),
});
export type OverlapSummary = z.infer<typeof overlapSummarySchema>;

export const overlapDiscoverableSchema = z.object({
  organizations: z.array(z.object({ id: z.string(), name: z.string(), domain: z.string() })),
});

/** "38 of your customers are Quillmail customers" (CONTRACT §11), "fewer than 5" under 5. */
export function overlapSentence(
  run: Pick<OverlapRun, "count" | "population" | "partnerPopulation">,
  partnerName: string,
) {
  const amount = run.count === null ? OVERLAP_MESSAGES.fewerThan : run.count.toLocaleString("en-US");
  return `${amount} of your ${run.population} are ${partnerName} ${run.partnerPopulation}`;
}
