import Fastify, { type FastifyInstance } from "fastify";
import { serializerCompiler, validatorCompiler } from "fastify-type-provider-zod";
import type { Config } from "./config";
import { createDataLifecycle, type DataLifecycle } from "./data-lifecycle/data-lifecycle";
import { type ChangeNotifications, createUnlistenedNotifications } from "./db/change-notifications";
import type { Database, Db, PoolStats } from "./db/client";
import { createAiClient } from "./lib/ai-client";
import { createLogMailer, createSmtpMailer, type Mailer } from "./lib/mailer";
import { createRedisClient } from "./lib/redis-client";
import { createSiteMetadataService, type SiteMetadataService } from "./lib/site-metadata";
import { healthRoutes } from "./lifecycle/health.routes";
import { Lifecycle } from "./lifecycle/lifecycle";
import { createReadinessCheck } from "./lifecycle/readiness";
import { waitForRedis } from "./lifecycle/wait-for-redis";
import { loggerOptions } from "./logger";
import { type MailRetryOptions, mailJobHandler } from "./mail/mail-jobs";
import { adsRoutes } from "./modules/ads/ads.routes";
import { type AdsService, createAdsService } from "./modules/ads/ads.service";
import { createApiKeyAuthenticator } from "./modules/api-keys/api-key-authenticator";
import { apiKeysRoutes } from "./modules/api-keys/api-keys.routes";
import { authRoutes } from "./modules/auth/auth.routes";
import { passwordResetComposer } from "./modules/auth/password-reset-request";
import { resolveSession } from "./modules/auth/sessions";
import { billingRoutes } from "./modules/billing/billing.routes";
import type { BillingGateway } from "./modules/billing/billing-gateway";
import { createAiCollateralWriter } from "./modules/collateral/ai-collateral-writer";
import { collateralRoutes } from "./modules/collateral/collateral.routes";
import type { CollateralWriter } from "./modules/collateral/collateral-generator";
import { deletionRoutes } from "./modules/deletion/deletion.routes";
import { eraseDeletedOrganizationsEvents } from "./modules/deletion/erase-organization";
import {
  createDomainProver,
  type DomainProver,
  type DomainProverOptions,
} from "./modules/domain-control/domain-prover";
import { reviewLegacyEmailProofs } from "./modules/domain-control/legacy-proof-review";
import { exportsRoutes } from "./modules/exports/exports.routes";
import { stripeRoutes } from "./modules/integrations/stripe.routes";
import { noticeComposer } from "./modules/notifications/notice-composer";
import { notificationsRoutes } from "./modules/notifications/notifications.routes";
import { queueWeeklyDigests } from "./modules/notifications/weekly-digest";
import { onboardingRoutes } from "./modules/onboarding/onboarding.routes";
import { seedCatalogOrganizations } from "./modules/organizations/catalog-seed";
import { logosRoutes } from "./modules/organizations/logos.routes";
import { organizationsRoutes } from "./modules/organizations/organizations.routes";
import { overlapRoutes } from "./modules/overlap/overlap.routes";
import { expireOverlapRuns } from "./modules/overlap/overlap-runs.service";
import { reciprocityRoutes } from "./modules/reciprocity/reciprocity.routes";
import { relationshipsRoutes } from "./modules/relationships/relationships.routes";
import { securityLogRoutes } from "./modules/security-log/security-log.routes";
import { suggestionsRoutes } from "./modules/suggestions/suggestions.routes";
import { teamRoutes } from "./modules/team/team.routes";
import { acceptInvitationToken } from "./modules/team/team-invitations";
import { createVisitorSalts } from "./modules/tracking/clicks/visitor-hash";
import { conversionsRoutes } from "./modules/tracking/conversions/conversions.routes";
import { dashboardFiguresRoutes } from "./modules/tracking/dashboard-figures/dashboard-figures.routes";
import {
  redirectRoutes,
  SHORT_LINK_NOT_FOUND,
  SHORT_LINK_PREFIX,
} from "./modules/tracking/links/redirect.routes";
import { scriptsRoutes } from "./modules/tracking/scripts/scripts.routes";
import { createTracker, type Tracker } from "./modules/tracking/tracker";
import {
  DEFAULT_WEBHOOK_DELIVERY,
  type WebhookDeliveryOptions,
  webhookJobHandler,
} from "./modules/webhooks/webhook-delivery";
import { webhookSecretSealer } from "./modules/webhooks/webhook-secrets";
import { webhooksRoutes } from "./modules/webhooks/webhooks.routes";
import { createMetrics, type Metrics } from "./observability/metrics";
import { type JobWorker, startJobWorker, type WorkerOptions } from "./outbox/job-worker";
import { registerAuth } from "./plugins/auth";
import { fastifyTrustProxy, warnOfForwardedForWhenUntrusted } from "./plugins/client-address";
import { registerCompression } from "./plugins/compression";
import {
  answerClientError,
  answerMissingHost,
  frameworkErrorAnswer,
  registerErrorHandling,
} from "./plugins/errors";
import { createLimits, DEFAULT_PER_ADDRESS, type Limits } from "./plugins/limits";
import { createLoginLimiter, type LoginLimiter } from "./plugins/login-limiter";
import { registerOpenApi } from "./plugins/openapi";
import { wrapRequestListener } from "./plugins/request-listener";
import { registerSecurityHeaders } from "./plugins/security-headers";
import { registerStartGate } from "./plugins/start-gate";
import { registerWeb } from "./plugins/web";
import { lazyChildLoggerFactory, OneLinePerRequest } from "./request-logger";

declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    db: Db;
    /** Everything Buddy sends (mail, webhook messages), from the jobs table, on any instance. */
    outbox: JobWorker;
    /** Every named rate limit (plugins/limits.ts): `app.limits.webhookTest.take({organization})`. */
    limits: Limits;
    loginLimiter: LoginLimiter;
    siteMetadata: SiteMetadataService;
    /** CONTRACT §4's proofs of domain control (address, meta tag, TXT record). */
    domainProver: DomainProver;
    tracker: Tracker;
    ads: AdsService;
    /** Services publish their changes here, inside the transaction that makes them. */
    notifications: ChangeNotifications;
    /** The AI writer when AI_BASE_URL is set; the built-in generator alone otherwise. */
    collateralWriter: CollateralWriter | undefined;
    /** Requests being answered now; shutdown waits for them before dropping connections. */
    inFlight(): number;
    /** Starting, ready or draining; `started` settles when start-up is done (main.ts, tests). */
    lifecycle: Lifecycle;
    /** Prometheus metrics of this app, served by main.ts on METRICS_PORT. */
    metrics: Metrics;
    /** Partitions made ahead and dropped when expired, expired rows deleted (issue 38). */
    dataLifecycle: DataLifecycle;
  }
}

export type AppDeps = {
  config: Config;
  db: Db;
  /** The database's advisory lock taken without waiting: one instance's data lifecycle pass at a time. */
  tryLock: Database["tryLock"];
  /** The committed migrations, which /readyz checks are applied. */
  migrationsFolder: string;
  /** Applies them: the first start-up step (main.ts); tests hand over a migrated database. */
  migrate?: () => Promise<void>;
  /** The PostgreSQL pool's use, for the metrics. */
  poolStats?: () => PoolStats;
  /** Built SPA folder; omitted in API tests. */
  webRoot?: string;
  /** Test overrides: a logger switch, outbox timing, per-address limits, a mailer. */
  logger?: boolean | object;
  outbox?: Partial<WorkerOptions & MailRetryOptions>;
  /** The Ads API's random draws (tests seed them). */
  random?: () => number;
  /** Webhook delivery's clock, timeout and address rules (tests). */
  webhooks?: Partial<WebhookDeliveryOptions>;
  /** The allowance per e-mail address (sign-in failures, sign-up, forgot, team invite); tests shorten it. */
  perAddressLimit?: { points: number; durationSeconds: number };
  mailer?: Mailer;
  /** Billing against another Stripe (tests); by default the real one when STRIPE_SECRET_KEY is set. */
  billingGateway?: BillingGateway;
  /** The database's change listener (main.ts, tests); without it caches never trust notifications. */
  notifications?: ChangeNotifications;
  /** Tests answer the meta-tag fetch and the TXT lookup from local servers. */
  domainProof?: Pick<DomainProverOptions, "fetchPage" | "resolver">;
  /** The periodic tasks' clock (the weekly digest's Monday); tests set it to one. */
  clock?: () => Date;
};

/**
 * How often Node looks for requests past their timeout (30 s by default): a client sending slowly
 * is cut within half a second of it, not up to 30 s later.
 */
const TIMEOUT_CHECK_MS = 500;
/** At start, how long shared limits may wait for Redis before each process keeps its own. */
const REDIS_START_WAIT_MS = 5_000;

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  // main.ts loads or generates it; without it no tracked link could be signed.
  if (!config.appSecret) throw new Error("APP_SECRET is required to sign tracked links");
  const appSecret = config.appSecret;
  const requestTimeout = Math.round(config.requestTimeoutSeconds * 1000);
  const app = Fastify({
    logger: deps.logger ?? loggerOptions(config.logLevel, false),
    childLoggerFactory: lazyChildLoggerFactory,
    logController: new OneLinePerRequest(),
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // Refusals made before a route runs (bad path encoding, over-long ids, oversized headers)
    // answer the contract's {message} like every other error (plugins/errors.ts); under /s/ any
    // path is a short link's code or none, so one that does not decode is not found (CONTRACT §5).
    frameworkErrors: frameworkErrorAnswer({ [SHORT_LINK_PREFIX]: SHORT_LINK_NOT_FOUND }),
    clientErrorHandler: answerClientError,
    // Finish in-flight requests on close and refuse new ones with 503.
    return503OnClosing: true,
    forceCloseConnections: "idle",
    requestTimeout,
    // The headers get the same time as the whole request, not Node's own 60 s.
    http: { requestTimeout, headersTimeout: requestTimeout, connectionsCheckingInterval: TIMEOUT_CHECK_MS },
  });
  answerMissingHost(app.server);
  if (config.trustProxy === false) warnOfForwardedForWhenUntrusted(app.server, app.log);
  // JSON is what the API reads (the logo upload and the Stripe webhook bring their own parsers).
  // Fastify's default text/plain parser would hand a text body on to a JSON schema, which refuses it
  // with 400: without it, a body in another media type is refused with 415.
  app.removeContentTypeParser("text/plain");
  let inFlight = 0;
  app.decorate("inFlight", () => inFlight);
  const settled = () => inFlight--;
  // Counted on the HTTP server itself, around Fastify's own listener: a hook on every request
  // costs more than the count. `on`, not `once`: a response emits close once.
  wrapRequestListener(app.server, (route) => (request, response) => {
    inFlight++;
    response.on("close", settled);
    route(request, response);
  });
  const lifecycle = new Lifecycle(app.log);
  app.decorate("lifecycle", lifecycle);
  // Start-up waiting for its database stops when the app closes.
  app.addHook("preClose", (done) => {
    lifecycle.stop();
    done();
  });
  // Optional services are chosen once here (ARCHITECTURE §7): the real adapter or the fallback.
  const redisClient = config.redisUrl ? createRedisClient(config.redisUrl, app.log) : undefined;
  const redis = redisClient?.redis;
  const metricsPort = config.metrics.port;
  app.decorate(
    "metrics",
    createMetrics({
      db: deps.db,
      poolStats: deps.poolStats,
      processMetrics: metricsPort !== undefined,
      redisUp: redisClient?.up,
    }),
  );
  // Timing every request costs each one a hook: only when someone reads the metrics.
  if (metricsPort !== undefined) {
    app.addHook("onResponse", (request, reply, done) => {
      const route = request.routeOptions.url ?? "unmatched";
      app.metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const clock = deps.clock ?? (() => new Date());
  const mailer =
    deps.mailer ??
    (config.smtpUrl ? createSmtpMailer(config.smtpUrl, config.mailFrom) : createLogMailer(app.log));
  const outbox: JobWorker = startJobWorker({
    db: deps.db,
    log: app.log,
    options: { leaseMs: config.outboxLeaseSeconds * 1000, ...deps.outbox },
    handlers: {
      mail: mailJobHandler({
        db: deps.db,
        mailer,
        log: app.log,
        options: deps.outbox,
        composers: {
          password_reset: passwordResetComposer(config.publicUrl),
          notice: noticeComposer({ publicUrl: config.publicUrl, secret: appSecret }),
        },
      }),
      webhook: webhookJobHandler({
        db: deps.db,
        sealer: webhookSecretSealer(appSecret),
        publicUrl: config.publicUrl,
        log: app.log,
        options: {
          ...DEFAULT_WEBHOOK_DELIVERY,
          retryDelaysMs: config.webhookRetryDelaysMs,
          allowPrivate: config.outboundAllowPrivate,
          ...deps.webhooks,
        },
        onMailQueued: () => outbox.wake(),
      }),
    },
    sweeps: [
      // Monday's digest, claimed per person: any instance's sweep may queue it (issue 37, item 8).
      async () => {
        if ((await queueWeeklyDigests(deps.db, clock())) > 0) outbox.wake();
      },
    ],
  });

  app.decorate("config", config);
  app.decorate("db", deps.db);
  app.decorate("outbox", outbox);
  const dataLifecycle = createDataLifecycle({
    db: deps.db,
    tryLock: deps.tryLock,
    settings: config,
    log: app.log,
    clock,
    tasks: [(db) => eraseDeletedOrganizationsEvents(db, app.log), (db) => expireOverlapRuns(db, clock())],
  });
  app.decorate("dataLifecycle", dataLifecycle);
  const limits = createLimits(
    {
      perClientPerMinute: config.rateLimitPerIp,
      pixelPerClientPerMinute: config.pixelRateLimitPerIp,
      perAddress: deps.perAddressLimit,
    },
    redis,
  );
  app.decorate("limits", limits);
  app.decorate(
    "loginLimiter",
    createLoginLimiter({ perAddress: deps.perAddressLimit ?? DEFAULT_PER_ADDRESS, redis }),
  );
  // Without a listener nothing cached relies on notifications: API keys are checked in the database.
  const notifications = deps.notifications ?? createUnlistenedNotifications();
  // Each day's visitor salt is random and shared through the database; loaded before serving.
  const visitorSalts = createVisitorSalts(deps.db, {
    onError: (error) => app.log.warn({ err: error }, "visitor salt not refreshed; retried within the hour"),
  });
  const tracker = createTracker(deps.db, appSecret, {
    redis,
    notifications,
    visitorSalts,
    limitPixel: limits.pixel.allowance.client.points > 0 ? (client) => limits.pixel.take({ client }) : null,
    onCommit: (kind, batch) => {
      app.metrics.recordEventBatch(kind, batch.size, batch.stored, batch.seconds, batch.late);
      // New leads may have queued webhook messages: delivered now rather than at the next poll.
      if (kind === "conversions" && batch.stored > 0) outbox.wake();
    },
    onRefusal: (kind, refusal) => app.metrics.recordEventRefusal(kind, refusal),
  });
  app.decorate("tracker", tracker);
  app.decorate("notifications", notifications);
  const apiKeys = createApiKeyAuthenticator({ db: deps.db, notifications, log: app.log });
  app.decorate("apiKeys", apiKeys);
  app.addHook("onClose", () => apiKeys.settled());
  app.decorate(
    "ads",
    createAdsService({
      db: deps.db,
      notifications,
      publicUrl: config.publicUrl,
      secret: appSecret,
      random: deps.random,
    }),
  );
  app.decorate(
    "collateralWriter",
    config.ai.baseUrl
      ? createAiCollateralWriter(
          createAiClient({ baseUrl: config.ai.baseUrl, apiKey: config.ai.apiKey, model: config.ai.model }),
          app.log,
        )
      : undefined,
  );
  app.decorate("siteMetadata", createSiteMetadataService({ allowPrivate: config.outboundAllowPrivate }));
  app.decorate(
    "domainProver",
    createDomainProver({ allowPrivate: config.outboundAllowPrivate, ...deps.domainProof }),
  );

  // Order matters: headers go on every answer, refusals included, so their hook runs before
  // the access check; both must be in place before any route is added.
  registerErrorHandling(app);
  registerSecurityHeaders(app);
  registerStartGate(app, lifecycle);
  registerAuth(app, { resolveSession: (token) => resolveSession(deps.db, token), apiKeys });
  // Before the routes, OpenAPI's own included: it attaches its hooks to each route as it is added.
  await registerCompression(app);
  // Before the routes: the OpenAPI document is collected as they are added.
  await registerOpenApi(app);

  await app.register(healthRoutes, {
    readiness: createReadinessCheck({
      lifecycle,
      db: deps.db,
      migrationsFolder: deps.migrationsFolder,
      log: app.log,
    }),
  });
  await app.register(authRoutes, { acceptInvitation: acceptInvitationToken });
  await app.register(organizationsRoutes);
  await app.register(logosRoutes);
  await app.register(relationshipsRoutes);
  await app.register(suggestionsRoutes);
  await app.register(onboardingRoutes);
  await app.register(collateralRoutes);
  await app.register(apiKeysRoutes);
  await app.register(teamRoutes);
  await app.register(billingRoutes, { gateway: deps.billingGateway });
  await app.register(stripeRoutes);
  await app.register(exportsRoutes);
  await app.register(webhooksRoutes);
  await app.register(notificationsRoutes);
  await app.register(securityLogRoutes);
  await app.register(deletionRoutes);
  await app.register(overlapRoutes);
  await app.register(redirectRoutes);
  await app.register(dashboardFiguresRoutes);
  await app.register(reciprocityRoutes);
  await app.register(conversionsRoutes);
  await app.register(adsRoutes);
  await app.register(scriptsRoutes);

  if (deps.webRoot) await registerWeb(app, deps.webRoot);

  app.addHook("onClose", async () => {
    visitorSalts.stop();
    // Clicks and leads being committed finish before the database closes.
    await tracker.close();
    await outbox.stop();
    await dataLifecycle.stop();
    redisClient?.close();
  });
  // Start-up runs once the server listens (main.ts awaits `lifecycle.started`): until it is done
  // /healthz answers, /readyz and every other route answer 503. Each step is retried while the
  // database cannot be reached, so it may start after us.
  app.addHook("onReady", (done) => {
    lifecycle.start([
      ...(deps.migrate ? [{ name: "migrations", run: deps.migrate }] : []),
      // A partitioned table takes no row without a partition for its time (issue 38).
      { name: "partitions", run: async () => void (await dataLifecycle.prepare()) },
      { name: "visitor salts", run: () => visitorSalts.start() },
      ...(redis ? [{ name: "redis", run: () => waitForRedis(redis, REDIS_START_WAIT_MS) }] : []),
      { name: "catalog seed", run: () => seedCatalogOrganizations(deps.db) },
      // Proofs that migrations queued for the runtime's e-mail rule, judged before any request.
      { name: "legacy proof review", run: () => reviewLegacyEmailProofs(deps.db, notifications) },
      // Queued mail from before a restart goes out as soon as we are up.
      { name: "outbox", run: async () => outbox.wake() },
      { name: "data lifecycle", run: async () => dataLifecycle.start() },
    ]);
    done();
  });
  return app;
}
