import { AD_TEMPLATES, ADS_LIMIT_MAX, adsQuerySchema } from "@shared/ads";
import type { FastifySchemaCompiler } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import type { z } from "zod";

export type AdsQuery = z.infer<typeof adsQuerySchema>;

// Each parameter's well-formed raw values, absent first. Anything else goes to zod.
const RAW_VALUES = {
  format: [undefined, "json", "html", "text"],
  limit: [undefined, ...Array.from({ length: ADS_LIMIT_MAX }, (_, i) => String(i + 1))],
  includeSuggestions: [undefined, "true", "false"],
  template: [undefined, ...AD_TEMPLATES],
} as const;
const NAMES = Object.keys(RAW_VALUES) as (keyof typeof RAW_VALUES)[];

function indexOf(query: Record<string, unknown>): number {
  let index = 0;
  for (const name of NAMES) {
    const values: readonly unknown[] = RAW_VALUES[name];
    const position = values.indexOf(query[name]);
    if (position < 0) return -1;
    index = index * values.length + position;
  }
  return index;
}

/** Every well-formed query (4 × 6 × 3 × 4 of them), parsed once by adsQuerySchema itself. */
function parseEveryWellFormedQuery(): AdsQuery[] {
  const table: AdsQuery[] = [];
  const fill = (depth: number, raw: Record<string, string>) => {
    const name = NAMES[depth];
    if (!name) {
      table[indexOf(raw)] = Object.freeze(adsQuerySchema.parse(raw));
      return;
    }
    for (const value of RAW_VALUES[name])
      fill(depth + 1, value === undefined ? raw : { ...raw, [name]: value });
  };
  fill(0, {});
  return table;
}

const PARSED = parseEveryWellFormedQuery();

/** A well-formed query as adsQuerySchema parses it; undefined for anything else (zod's to judge). */
function wellFormedAdsQuery(query: Record<string, unknown>): AdsQuery | undefined {
  return PARSED[indexOf(query)];
}

/**
 * The public API's callers send the same few queries millions of times: those are looked up,
 * already parsed by the same schema; anything else (and every error) goes through zod as usual.
 * The schema stays on the route for the OpenAPI document.
 */
export function createAdsQueryValidator(): FastifySchemaCompiler<unknown> {
  return (route) => {
    const validate = validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);
    if (route.httpPart !== "querystring") return validate;
    return (data: unknown) => {
      const known =
        data && typeof data === "object" ? wellFormedAdsQuery(data as Record<string, unknown>) : undefined;
      return known ? { value: known } : validate(data);
    };
  };
}
