import type { FastifyRequest } from "fastify";
import { requireAuth } from "../../plugins/auth";
import type { SecurityActor } from "./security-log.service";

/**
 * Who made a signed-in request, for the security log: the user, and the client address as the
 * app sees it (`request.ip`, past the proxies TRUST_PROXY names). Routes pass it to the service
 * whose transaction records the entry.
 */
export function securityActor(request: FastifyRequest): SecurityActor & { userId: string } {
  return { userId: requireAuth(request).userId, ipAddress: request.ip };
}
