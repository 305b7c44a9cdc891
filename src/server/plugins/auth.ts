import { AUTH_MESSAGES } from "@shared/auth";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { forbidden, unauthorized } from "../errors";

/**
 * What a route admits (ARCHITECTURE §2): `user` any signed-in user, `member` one with an
 * organization, `admin` that organization's admins, `apiKey` a live key in `x-api-key` (public API),
 * `memberOrApiKey` either of the two (the exports: a person in the dashboard, or a script),
 * `adminOrApiKey` an admin or a key (account overlap: an admin's browser, or the company's server).
 */
export type Access = "public" | "user" | "member" | "admin" | "apiKey" | "memberOrApiKey" | "adminOrApiKey";

/** Who is signed in, and their active membership (modules/auth/sessions.ts resolves a token). */
export type SessionAuth = {
  sessionId: string;
  userId: string;
  email: string;
  organizationId: string | null;
  role: "admin" | "member" | null;
  /** Whether the organization's domain is proven (CONTRACT §4: only then may its admins approve members). */
  domainVerified: boolean;
};

/** The organization behind a live API key (modules/api-keys authenticates it). */
export type ApiKeyAuth = { apiKeyId: string; organizationId: string };

/** A session token's holder, or null when the token is unknown, revoked or expired. */
export type SessionResolver = (token: string) => Promise<SessionAuth | null>;

/** An x-api-key's organization (modules/api-keys answers it; app.ts hands it in). */
export type ApiKeyResolver = {
  /** A live key known from memory, answered without a promise; undefined when memory cannot say. */
  remembered(key: string): ApiKeyAuth | undefined;
  /** The key's organization, or null when the key is unknown or revoked. */
  authenticate(key: string): Promise<ApiKeyAuth | null>;
};

export type RouteAccess = { method: string; url: string; access: Access };

declare module "fastify" {
  interface FastifyInstance {
    /** Every route with its declared access, e.g. to list (and test) the admin-only ones. */
    routeAccess: readonly RouteAccess[];
    // Handed in by app.ts, as the API keys are: the plugin sits below the modules, so it never
    // imports the auth module.
    resolveSession: SessionResolver;
  }
  interface FastifyContextConfig {
    access?: Access;
  }
  interface FastifyRequest {
    auth: SessionAuth | null;
    apiKeyAuth: ApiKeyAuth | null;
  }
}

export type MemberAuth = SessionAuth & { organizationId: string; role: "admin" | "member" };

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/** The session a sent token stands for, kept on the request; a dead token is a 401 that clears it. */
async function signIn(app: FastifyInstance, request: FastifyRequest, token: string): Promise<SessionAuth> {
  // Tokens longer than ours are not ours: skip the hash and the query.
  const auth = token.length <= 128 ? await app.resolveSession(token) : null;
  if (!auth) throw unauthorized(AUTH_MESSAGES.sessionExpired, { clearToken: true });
  request.auth = auth;
  return auth;
}

/** Access is declared on every route and enforced here; a route without it stops start-up. */
export function registerAuth(
  app: FastifyInstance,
  options: { resolveSession: SessionResolver; apiKeys: ApiKeyResolver },
) {
  const { apiKeys } = options;
  app.decorate("resolveSession", options.resolveSession);
  app.decorateRequest("auth", null);
  app.decorateRequest("apiKeyAuth", null);
  const routeAccess: RouteAccess[] = [];
  app.decorate("routeAccess", routeAccess);

  // A callback hook, not an async one: a key answered from memory (nearly every call of the public
  // API) passes without a promise or a turn of the microtask queue.
  const checkApiKey = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    const header = request.headers["x-api-key"];
    const key = typeof header === "string" ? header.trim() : "";
    if (!key) return done(unauthorized("Missing API key: send it in the x-api-key header"));
    const remembered = apiKeys.remembered(key);
    if (remembered) {
      request.apiKeyAuth = remembered;
      return done();
    }
    apiKeys.authenticate(key).then((auth) => {
      if (!auth) return done(unauthorized("Invalid API key"));
      request.apiKeyAuth = auth;
      done();
    }, done);
  };
  const checkSession = (access: "user" | "member" | "admin") => async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized(AUTH_MESSAGES.unauthenticated, { clearToken: true });
    const auth = await signIn(app, request, token);
    if (access === "user") return;
    if (!auth.organizationId) throw forbidden("Complete your company set-up first");
    if (access === "admin" && auth.role !== "admin") throw forbidden("Only admins can do this");
  };

  // A key, when one is sent, decides alone: a request never mixes two identities.
  const sessionOrApiKey = (checkPerson: (request: FastifyRequest) => Promise<void>) => {
    return (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
      if (request.headers["x-api-key"] !== undefined) return checkApiKey(request, reply, done);
      checkPerson(request).then(() => done(), done);
    };
  };
  const checkMemberOrApiKey = sessionOrApiKey(checkSession("member"));
  const checkAdminOrApiKey = sessionOrApiKey(checkSession("admin"));

  // Each route's check is chosen when it is added, not looked up on every request; public routes
  // get no hook at all, so the redirects and the pixel answer without one.
  app.addHook("onRoute", (route) => {
    const access = (route.config as { access?: Access } | undefined)?.access;
    if (!access) throw new Error(`Route ${route.method} ${route.url} declares no access`);
    for (const method of [route.method].flat()) routeAccess.push({ method, url: route.url, access });
    if (access === "public") return;
    const check =
      access === "apiKey"
        ? checkApiKey
        : access === "memberOrApiKey"
          ? checkMemberOrApiKey
          : access === "adminOrApiKey"
            ? checkAdminOrApiKey
            : checkSession(access);
    // Route-level hooks run after the global ones, so security headers are already set.
    const own = route.onRequest ? [route.onRequest].flat() : [];
    route.onRequest = [check, ...own];
  });
}

/** The signed-in user, for handlers of non-public routes. */
export function requireAuth(request: FastifyRequest): SessionAuth {
  if (!request.auth) throw unauthorized(AUTH_MESSAGES.unauthenticated);
  return request.auth;
}

/** The signed-in member, for handlers of member and admin routes. */
export function requireMember(request: FastifyRequest): MemberAuth {
  const auth = requireAuth(request);
  if (!auth.organizationId || !auth.role) throw forbidden("Complete your company set-up first");
  return auth as MemberAuth;
}

/**
 * For public routes that do more for a signed-in member (e.g. suggestions: onboarding calls
 * without a token, the dashboard with one). A token that is sent must be valid.
 */
export async function resolveOptionalMember(
  app: FastifyInstance,
  request: FastifyRequest,
): Promise<MemberAuth | null> {
  const token = bearerToken(request);
  if (!token) return null;
  const auth = await signIn(app, request, token);
  return auth.organizationId && auth.role ? (auth as MemberAuth) : null;
}

/** The caller's organization on a `memberOrApiKey` route: the key's, or the signed-in member's. */
export function requireOrganizationId(request: FastifyRequest): string {
  return request.apiKeyAuth?.organizationId ?? requireMember(request).organizationId;
}

/** The organization whose API key made the request, for handlers of apiKey routes. */
export function requireApiKey(request: FastifyRequest): ApiKeyAuth {
  if (!request.apiKeyAuth) throw unauthorized("Invalid API key");
  return request.apiKeyAuth;
}
