import { errorBodySchema } from "@shared/http";
import {
  notificationPreferencesSchema,
  type UnsubscribeAnswer,
  unsubscribeAnswerSchema,
  unsubscribeQuerySchema,
  updateNotificationPreferencesSchema,
} from "@shared/notifications";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireMember } from "../../plugins/auth";
import { getNotificationPreferences, updateNotificationPreferences } from "./notifications.service";
import { readUnsubscribe, unsubscribe } from "./unsubscribe.service";
import { unsubscribePage } from "./unsubscribe-page";
import { UNSUBSCRIBE_PATH } from "./unsubscribe-token";

const errors = { 400: errorBodySchema, 401: errorBodySchema, 403: errorBodySchema };

/** A browser opening the mail's link gets a page; a mail client or a program, JSON. */
const wantsPage = (request: FastifyRequest) => request.headers.accept?.includes("text/html") ?? false;

export async function notificationsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    "/api/notification-preferences",
    {
      config: { access: "member" },
      schema: { response: { 200: notificationPreferencesSchema, ...errors } },
    },
    async (request) => getNotificationPreferences(app.db, requireMember(request).userId),
  );

  // Partial: the switch that changed sends its own key alone; the answer is all four as stored.
  r.patch(
    "/api/notification-preferences",
    {
      config: { access: "member" },
      schema: {
        body: updateNotificationPreferencesSchema,
        response: { 200: notificationPreferencesSchema, ...errors },
      },
    },
    async (request) => updateNotificationPreferences(app.db, requireMember(request).userId, request.body),
  );

  // RFC 8058's one-click POST is a form (`List-Unsubscribe=One-Click`): its body says nothing the
  // token does not, so it is read and dropped, here only.
  await app.register(async (scope) => {
    for (const type of ["application/x-www-form-urlencoded", "multipart/form-data"]) {
      scope.addContentTypeParser(type, { parseAs: "string", bodyLimit: 4096 }, (_request, _body, done) =>
        done(null, undefined),
      );
    }
    const s = scope.withTypeProvider<ZodTypeProvider>();
    const schema = {
      querystring: unsubscribeQuerySchema,
      response: { 200: unsubscribeAnswerSchema, 400: errorBodySchema, 404: errorBodySchema },
    };
    const answer = (request: FastifyRequest, reply: FastifyReply, result: UnsubscribeAnswer) =>
      wantsPage(request)
        ? reply.type("text/html; charset=utf-8").send(unsubscribePage(result, request.url))
        : reply.send(result);

    // Opening the link (a person, or a mail scanner) only shows what the POST would turn off.
    s.get(UNSUBSCRIBE_PATH, { config: { access: "public" }, schema }, async (request, reply) =>
      answer(request, reply, await readUnsubscribe(app.db, app.config.appSecret, request.query.token)),
    );
    // The one-click POST (the mail client's, or the page's button) turns that one kind off; again, the same.
    s.post(UNSUBSCRIBE_PATH, { config: { access: "public" }, schema }, async (request, reply) =>
      answer(request, reply, await unsubscribe(app.db, app.config.appSecret, request.query.token)),
    );
  });
}
