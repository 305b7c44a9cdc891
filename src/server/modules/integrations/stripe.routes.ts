import { errorBodySchema, idField } from "@shared/http";
import { connectStripeSchema, stripeConnectionSchema } from "@shared/integrations";
import type { FastifyInstance, FastifySchemaCompiler } from "fastify";
import { validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { createSecretSealer } from "../../lib/sealed-secrets";
import { STRIPE_EVENT_BODY_LIMIT, stripeDelivery } from "../../lib/stripe-webhook";
import { requireMember } from "../../plugins/auth";
import { API_TAGS } from "../../plugins/openapi";
import { errorResponse } from "../../plugins/openapi-responses";
import { keepRawJsonBody } from "../../plugins/raw-json-body";
import { securityActor } from "../security-log/security-actor";
import { recordRefund } from "../tracking/conversions/refunds.service";
import { connectStripe, disconnectStripe, readStripeConnection } from "./stripe-connection.service";
import { receiveStripeEvent, type StripeReceiptDeps } from "./stripe-receipt.service";

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };
/** What Stripe sends, as the document describes it: any event, of which Buddy reads two types. */
const stripeEventSchema = z
  .looseObject({
    id: z.string().describe("The event's id (`evt_…`): a redelivery records nothing new."),
    type: z
      .string()
      .describe(
        "The event's type: a purchase may be recorded for `checkout.session.completed` or `invoice.paid`, " +
          "and taken back for `charge.refunded`, `charge.dispute.created` and `charge.dispute.closed`.",
      ),
    data: z.looseObject({ object: z.looseObject({}) }),
  })
  .meta({ description: "A Stripe event, as Stripe sends it: its signature covers these exact bytes." });

/**
 * The webhook's body is described, not validated: it stays the bytes that arrived, which the
 * handler judges by their signature before it reads a field. The path is validated as usual.
 */
const signedBodyValidator: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === "body"
    ? (data: unknown) => ({ value: data })
    : validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);

/**
 * CONTRACT §8, Stripe without code: an admin pastes the organization's own webhook signing
 * secret; Stripe then sends that organization's events to its own URL, where each is verified
 * with that secret (lib/stripe-webhook.ts) and turned into a purchase (stripe-events.ts).
 */
export async function stripeRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const sealer = createSecretSealer(app.config.appSecret ?? "", "stripe-webhook-secret");
  const { publicUrl } = app.config;
  const path = "/api/integrations/stripe";

  r.get(
    path,
    { config: { access: "member" }, schema: { response: { 200: stripeConnectionSchema, ...errors } } },
    async (request) => readStripeConnection(app.db, publicUrl, requireMember(request).organizationId),
  );

  r.put(
    path,
    {
      config: { access: "admin" },
      // The answer never holds the secret, but it is one: no compression beside it (plugins/compression.ts).
      compress: false,
      schema: { body: connectStripeSchema, response: { 200: stripeConnectionSchema, ...errors } },
    },
    async (request) => {
      const { organizationId } = requireMember(request);
      await connectStripe(app.db, sealer, organizationId, request.body.webhookSecret, securityActor(request));
      return readStripeConnection(app.db, publicUrl, organizationId);
    },
  );

  r.delete(
    path,
    { config: { access: "admin" }, schema: { response: { 204: z.null(), ...errors } } },
    async (request, reply) => {
      await disconnectStripe(app.db, requireMember(request).organizationId, securityActor(request));
      return reply.code(204).send(null);
    },
  );

  const receipt = (log: StripeReceiptDeps["log"]): StripeReceiptDeps => ({
    db: app.db,
    sealer,
    recordConversion: app.tracker.conversions.record,
    recordRefund: async (input) => {
      const result = await recordRefund(app.db, input);
      if (result.outcome === "recorded") app.outbox.wake();
      return result;
    },
    countUnreadable: (reason) => app.metrics.recordUnreadableStripeEvent("integration", reason),
    log,
  });
  // The signature covers the exact bytes Stripe sent: this route alone keeps the raw body.
  await app.register(async (webhook) => {
    keepRawJsonBody(webhook, STRIPE_EVENT_BODY_LIMIT);
    webhook.withTypeProvider<ZodTypeProvider>().post(
      `${path}/webhook/:organizationId`,
      {
        config: { access: "public", securityHeaders: "api" },
        validatorCompiler: signedBodyValidator,
        schema: {
          tags: [API_TAGS.conversions],
          operationId: "receiveStripeEvent",
          summary: "Stripe webhook (your organization's own Stripe account)",
          description:
            "Paste this URL (shown in Settings → Install) into a Stripe webhook endpoint for the events " +
            "checkout.session.completed, invoice.paid, charge.refunded, charge.dispute.created and " +
            "charge.dispute.closed. Each event is verified with your signing secret " +
            "(Stripe-Signature, dated within 5 minutes of now, either side). A completed Checkout whose " +
            "client_reference_id is a Buddy click id records a purchase of amount_total; a paid invoice of a " +
            "customer bound to a click records a purchase of amount_paid (not the subscription's first invoice). " +
            "Each purchase keeps its payment intent: charge.refunded takes back from it what amount_refunded " +
            "rose by, charge.dispute.created the disputed amount, and charge.dispute.closed with status won " +
            "gives that back (never more than remains of the purchase). " +
            "Other events, unknown click ids and customers, and signed events of a shape Buddy cannot read are " +
            "answered 200 and record nothing; a redelivered event records nothing new.",
          security: [],
          params: z.object({ organizationId: idField("organizationId") }),
          body: stripeEventSchema,
          response: {
            200: z.object({ received: z.literal(true) }).meta({
              description:
                "Taken: recorded, or nothing to record (another event, an unknown click or customer, a shape " +
                "Buddy cannot read).",
            }),
            400: errorResponse(
              "A missing or wrong `Stripe-Signature`, one dated more than 5 minutes from now, or an organization " +
                "that has not connected Stripe: nothing is recorded.",
            ),
          },
        },
      },
      async (request) => {
        await receiveStripeEvent(
          receipt(request.log),
          request.params.organizationId,
          stripeDelivery(request.headers["stripe-signature"], request.body),
        );
        return { received: true as const };
      },
    );
  });
}
