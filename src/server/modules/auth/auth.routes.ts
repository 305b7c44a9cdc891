import {
  AUTH_MESSAGES,
  authRequestSchema,
  forgotPasswordSchema,
  meResponseSchema,
  messageResponseSchema,
  resetPasswordSchema,
  sessionResponseSchema,
  signupResponseSchema,
  verifyEmailResponseSchema,
  verifyEmailSchema,
} from "@shared/auth";
import { errorBodySchema } from "@shared/http";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireAuth } from "../../plugins/auth";
import {
  type AccountEntryDeps,
  type InvitationAcceptor,
  logIn,
  resetPassword,
  signUp,
  verifyEmail,
} from "./auth.service";
import { toUser, withOnboardingState } from "./current-user";
import { requestPasswordReset } from "./password-reset-request";
import { revokeSession } from "./sessions";

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema, 429: errorBodySchema };

export async function authRoutes(app: FastifyInstance, options: { acceptInvitation: InvitationAcceptor }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps: AccountEntryDeps = {
    db: app.db,
    publicUrl: app.config.publicUrl,
    onMailQueued: () => app.outbox.wake(),
    acceptInvitation: options.acceptInvitation,
    onSignIn: (organizationIds, ipAddress) => app.tracker.rememberSignIn(organizationIds, ipAddress, app.log),
  };

  r.post(
    "/api/auth",
    {
      config: { access: "public" },
      // It answers a session token: never compressed (plugins/compression.ts, BREACH).
      compress: false,
      schema: {
        body: authRequestSchema,
        response: { 200: sessionResponseSchema, 201: signupResponseSchema, ...errors },
      },
    },
    async (request, reply) => {
      const body = request.body;
      if (body.mode === "signup") {
        await app.limits.signup.take({ client: request.ip, address: body.email });
        const { invited, signupSecret } = await signUp(deps, body, { ipAddress: request.ip });
        const message = invited ? AUTH_MESSAGES.registeredInvited : AUTH_MESSAGES.registered;
        return reply.code(201).send({ message, signupSecret });
      }
      // Per address, only failures count, and mostly the failing client's own (login-limiter.ts).
      await app.limits.login.take({ client: request.ip });
      const session = await app.loginLimiter.attempt(body.email, request.ip, () =>
        logIn(deps, body, { ipAddress: request.ip }),
      );
      return reply.code(200).send({ ...session, message: AUTH_MESSAGES.loggedIn });
    },
  );

  r.post(
    "/api/verify-email",
    {
      config: { access: "public" },
      // It answers a session token: never compressed (plugins/compression.ts, BREACH).
      compress: false,
      schema: { body: verifyEmailSchema, response: { 200: verifyEmailResponseSchema, ...errors } },
    },
    async (request) => {
      await app.limits.verifyEmail.take({ client: request.ip });
      const session = await verifyEmail(deps, request.body, { ipAddress: request.ip });
      return { ...session, message: AUTH_MESSAGES.emailVerified };
    },
  );

  r.post(
    "/api/forgot-password",
    {
      config: { access: "public" },
      schema: { body: forgotPasswordSchema, response: { 200: messageResponseSchema, ...errors } },
    },
    async (request) => {
      await app.limits.forgotPassword.take({ client: request.ip, address: request.body.email });
      await requestPasswordReset(deps, request.body.email);
      return { message: AUTH_MESSAGES.resetRequested };
    },
  );

  r.post(
    "/api/reset-password",
    {
      config: { access: "public" },
      schema: { body: resetPasswordSchema, response: { 200: messageResponseSchema, ...errors } },
    },
    async (request) => {
      await app.limits.resetPassword.take({ client: request.ip });
      await resetPassword(deps, request.body, { ipAddress: request.ip });
      return { message: AUTH_MESSAGES.passwordReset };
    },
  );

  r.get(
    "/api/me",
    { config: { access: "user" }, schema: { response: { 200: meResponseSchema, 401: errorBodySchema } } },
    // The auth hook already resolved the session with the user's active membership.
    async (request) => {
      const auth = requireAuth(request);
      return { user: await withOnboardingState(app.db, toUser(auth)) };
    },
  );

  r.post(
    "/api/logout",
    {
      config: { access: "user" },
      schema: { response: { 200: messageResponseSchema, 401: errorBodySchema } },
    },
    async (request) => {
      await revokeSession(app.db, requireAuth(request).sessionId);
      return { message: AUTH_MESSAGES.loggedOut };
    },
  );
}
