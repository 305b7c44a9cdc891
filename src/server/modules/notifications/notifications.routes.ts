import { errorBodySchema } from "@shared/http";
import { notificationPreferencesSchema } from "@shared/notifications";
import type { FastifyInstance } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { requireMember } from "../../plugins/auth";
import { getNotificationPreferences } from "./notifications.service";

export async function notificationsRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().get(
    "/api/notification-preferences",
    {
      config: { access: "member" },
      schema: {
        response: { 200: notificationPreferencesSchema, 401: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (request) => getNotificationPreferences(app.db, requireMember(request).userId),
  );
}
