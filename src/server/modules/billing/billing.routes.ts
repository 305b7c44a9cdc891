import { BILLING_MESSAGES, billingInfoSchema, billingPortalSchema } from "@shared/billing";
import { errorBodySchema } from "@shared/http";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { STRIPE_EVENT_BODY_LIMIT, stripeDelivery } from "../../lib/stripe-webhook";
import { requireMember } from "../../plugins/auth";
import { keepRawJsonBody } from "../../plugins/raw-json-body";
import {
  type BillingDeps,
  getBilling,
  openPortal,
  receiveBillingEvent,
  setCancelAtPeriodEnd,
} from "./billing.service";
import { type BillingGateway, createStripeGateway } from "./billing-gateway";

const errors = {
  400: errorBodySchema,
  401: errorBodySchema,
  403: errorBodySchema,
  502: errorBodySchema,
  503: errorBodySchema,
};

/** CONTRACT §7: billing is for admins; Stripe when STRIPE_SECRET_KEY is set, the free beta otherwise. */
export async function billingRoutes(app: FastifyInstance, options: { gateway?: BillingGateway }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { stripe } = app.config;
  const gateway =
    options.gateway ??
    (stripe.secretKey
      ? createStripeGateway({ secretKey: stripe.secretKey, webhookSecret: stripe.webhookSecret })
      : undefined);
  const deps: BillingDeps = { db: app.db, gateway, publicUrl: app.config.publicUrl, log: app.log };
  const admin = { access: "admin" as const };

  r.get(
    "/api/billing",
    { config: admin, schema: { response: { 200: billingInfoSchema, ...errors } } },
    async (request) => getBilling(app.db, requireMember(request).organizationId),
  );

  r.post(
    "/api/billing/portal",
    { config: admin, schema: { response: { 200: billingPortalSchema, ...errors } } },
    async (request) => ({ url: await openPortal(deps, requireMember(request)) }),
  );

  const withMessage = billingInfoSchema.extend({ message: z.string() });
  r.post(
    "/api/billing/cancel",
    { config: admin, schema: { response: { 200: withMessage, ...errors } } },
    async (request) => ({
      ...(await setCancelAtPeriodEnd(deps, requireMember(request).organizationId, true)),
      message: BILLING_MESSAGES.cancelled,
    }),
  );

  r.post(
    "/api/billing/reactivate",
    { config: admin, schema: { response: { 200: withMessage, ...errors } } },
    async (request) => ({
      ...(await setCancelAtPeriodEnd(deps, requireMember(request).organizationId, false)),
      message: BILLING_MESSAGES.resumed,
    }),
  );

  // The signature covers the exact bytes Stripe sent: this route alone keeps the raw body.
  await app.register(async (webhook) => {
    keepRawJsonBody(webhook, STRIPE_EVENT_BODY_LIMIT);
    webhook.withTypeProvider<ZodTypeProvider>().post(
      "/api/billing/webhook",
      {
        config: { access: "public" },
        schema: {
          response: {
            200: z.object({ received: z.literal(true) }),
            400: errorBodySchema,
            503: errorBodySchema,
          },
        },
      },
      async (request) => {
        await receiveBillingEvent(
          deps,
          stripeDelivery(request.headers["stripe-signature"], request.body),
          ({ reason, problem }) => {
            app.metrics.recordUnreadableStripeEvent("billing", reason);
            request.log.warn(
              { reason, problem },
              "Stripe billing event of a shape Buddy cannot read: changed nothing",
            );
          },
        );
        return { received: true as const };
      },
    );
  });
}
