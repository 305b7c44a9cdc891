import { DAY_MS } from "@shared/days";
import {
  CLICK_EXPORT_COLUMNS,
  CONVERSION_EXPORT_COLUMNS,
  EXPORT_MAX_DAYS,
  EXPORT_YEARS,
  type ExportQuery,
  exportQuerySchema,
} from "@shared/exports";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireOrganizationId } from "../../plugins/auth";
import { API_TAGS } from "../../plugins/openapi";
import { contentResponse, errorResponse, textBody } from "../../plugins/openapi-responses";
import { csvStream } from "./csv";
import { type ExportKind, exportRows } from "./export-rows";

/** The query's days as UTC instants: from midnight on `from` to midnight after `to`. */
function rangeOf({ from, to }: ExportQuery) {
  return {
    start: `${from}T00:00:00Z`,
    end: new Date(Date.parse(`${to}T00:00:00Z`) + DAY_MS).toISOString(),
  };
}

const EXPORTS: Record<
  ExportKind,
  { columns: readonly string[]; operationId: string; summary: string; description: string }
> = {
  conversions: {
    columns: CONVERSION_EXPORT_COLUMNS,
    operationId: "exportConversions",
    summary: "Export conversions (CSV)",
    description:
      "Every conversion of your organization between `from` and `to` (UTC days, both included, at most " +
      `${EXPORT_MAX_DAYS} days), in both directions: \`sent\` when your link earned it at a partner, \`received\` ` +
      "when a partner's link earned it for you. Columns: " +
      `${CONVERSION_EXPORT_COLUMNS.join(", ")}. \`value\` is in major units with the currency's decimals; ` +
      "`refunded` is what refunds and disputes took back from it, in the same units (empty when nothing). " +
      "`collateral_id` comes from the conversion's click, and is empty once that raw click is past the " +
      "click retention (`CLICK_RETENTION_DAYS`, 400 days by default).",
  },
  clicks: {
    columns: CLICK_EXPORT_COLUMNS,
    operationId: "exportClicks",
    summary: "Export clicks (CSV)",
    description:
      "Every stored click on your organization's links and on partners' links to you between `from` and `to` " +
      `(UTC days, both included, at most ${EXPORT_MAX_DAYS} days). Columns: ${CLICK_EXPORT_COLUMNS.join(", ")}; ` +
      "`counted` is false for every click stored but not counted, and `reason` says why: `counted`, `bot`, " +
      "`repeat`, `burst`, `source_cap` (past 3 a day from one network source for the pair), `own_click` " +
      "(from where a member of the sender signed in), `blocked` or `not_live`. Raw clicks are kept for the " +
      "click retention (`CLICK_RETENTION_DAYS`, 400 days by default, counted from the end of their month): " +
      "older days export no rows, while every figure, read from daily roll-ups kept for good, still counts them.",
  },
};

/**
 * CONTRACT §9 exports, for a person signed in to the dashboard or a script with an API key:
 * streamed as the client reads (export-rows.ts), quoted as RFC 4180 says, with formulas defused.
 */
export async function exportsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  for (const kind of ["conversions", "clicks"] as const) {
    const { columns, operationId, summary, description } = EXPORTS[kind];
    r.get(
      `/api/exports/${kind}.csv`,
      {
        config: { access: "memberOrApiKey", securityHeaders: "api" },
        schema: {
          tags: [API_TAGS.conversions],
          operationId,
          summary,
          description,
          security: [{ apiKey: [] }, { bearer: [] }],
          querystring: exportQuerySchema,
          response: {
            200: contentResponse("RFC 4180 CSV with a header row, as an attachment.", {
              "text/csv": textBody(),
            }),
            400: errorResponse(
              `\`from\` or \`to\` missing or not a date (YYYY-MM-DD), outside the years ${EXPORT_YEARS.first} to ` +
                `${EXPORT_YEARS.last}, \`from\` after \`to\`, or more than ${EXPORT_MAX_DAYS} days.`,
            ),
            401: errorResponse("No API key or session token, or one that is unknown, revoked or expired."),
            403: errorResponse("A signed-in user whose company set-up is not complete."),
          },
        },
      },
      async (request, reply) => {
        const organizationId = requireOrganizationId(request);
        const { from, to } = request.query;
        const rows = exportRows(app.db, kind, organizationId, rangeOf(request.query));
        // The first page of each direction is read before anything of the CSV answer is set: a
        // failure there (the database away, a statement refused) is an error like any other route's,
        // a JSON {message} without the attachment's headers. Once the file is under way, a failure
        // can only cut it short.
        const first = await rows.next();
        // A stream, which Fastify sends as it is: the route's 200 schema only documents it.
        return (reply as FastifyReply)
          .type("text/csv; charset=utf-8")
          .header("content-disposition", `attachment; filename="${kind}-${from}-to-${to}.csv"`)
          .header("cache-control", "no-store")
          .send(
            csvStream(
              columns,
              (async function* () {
                for (let row = first; !row.done; row = await rows.next()) yield row.value.cells;
              })(),
            ),
          );
      },
    );
  }
}
