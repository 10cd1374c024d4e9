import { AUTH_MESSAGES } from "@twinline/contracts";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import fp from "fastify-plugin";
import type { UserRow } from "../db/schema/index.ts";
import type { EndedTokensRepository } from "../modules/auth/repository.ts";
import type { TokenClaims, TokenService } from "../modules/auth/tokens.ts";
import { HttpError } from "./errors.ts";

export const AUTH_ERRORS = {
  missingToken: "Authentication token not found. Please log in again.",
  invalidToken: "Your session has ended. Please log in again.",
  notAdmin: "Admin access required",
} as const;

/** A route hook: answers 401 or 403, or leaves `request.user` set. */
export type AuthHook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

declare module "fastify" {
  interface FastifyInstance {
    /** Signs and checks session tokens (HS256 with JWT_SECRET). */
    tokens: TokenService;
    /** onRequest/preHandler hook: a valid token of an active account, else 401. */
    requireUser: AuthHook;
    /** requireUser, then 403 unless the account is an admin. */
    requireAdmin: AuthHook;
    /**
     * The active account of a session token, checked as requireUser checks the Bearer header
     * (the voice socket carries its token in the query); else throws the same 401 HttpError.
     */
    authenticateToken(token: string | undefined): Promise<UserRow>;
  }
  interface FastifyRequest {
    /** The signed-in account, loaded fresh for this request; set by requireUser/requireAdmin. */
    user: UserRow | null;
    /** The claims of the request's token (its jti and expiry end it at logout); set with `user`. */
    tokenClaims: TokenClaims | null;
  }
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== "string") return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

export interface AuthPluginOptions {
  tokens: TokenService;
  endedTokens: EndedTokensRepository;
}

/**
 * Bearer-token authentication (docs/decisions/0003-ended-tokens.md), THE one place a request is
 * authenticated: `requireUser` and `requireAdmin` are the only hooks, every route uses one of
 * them. Every request loads its account by primary key, so a deactivation or a password change
 * (which bump token_version) ends the account's earlier tokens at once, on every instance, and
 * looks its token's jti up among the ended ones (a logout): 401, with the deactivated message
 * when that is the reason.
 */
export const authPlugin = fp<AuthPluginOptions>(
  async (app: FastifyInstance, { tokens, endedTokens }) => {
    app.decorate("tokens", tokens);
    app.decorateRequest("user", null);
    app.decorateRequest("tokenClaims", null);

    const verifyToken = async (token: string | undefined) => {
      if (!token) throw new HttpError(401, AUTH_ERRORS.missingToken);
      const claims = await tokens.verify(token);
      if (!claims) throw new HttpError(401, AUTH_ERRORS.invalidToken);
      const session = await endedTokens.sessionAccount(claims.sub, claims.jti);
      if (!session || session.ended) throw new HttpError(401, AUTH_ERRORS.invalidToken);
      const { user } = session;
      if (!user.isActive) throw new HttpError(401, AUTH_MESSAGES.accountDeactivated);
      if (user.tokenVersion !== claims.ver) throw new HttpError(401, AUTH_ERRORS.invalidToken);
      return { user, claims };
    };
    const authenticateToken = async (token: string | undefined): Promise<UserRow> =>
      (await verifyToken(token)).user;
    app.decorate("authenticateToken", authenticateToken);

    const authenticate = async (request: FastifyRequest): Promise<UserRow> => {
      const { user, claims } = await verifyToken(bearerToken(request));
      request.user = user;
      request.tokenClaims = claims;
      return user;
    };

    app.decorate<AuthHook>("requireUser", async (request) => {
      await authenticate(request);
    });
    app.decorate<AuthHook>("requireAdmin", async (request) => {
      const user = await authenticate(request);
      if (user.role !== "admin") throw new HttpError(403, AUTH_ERRORS.notAdmin);
    });
  },
  { name: "auth" },
);

/** The claims of the token of a route behind requireUser or requireAdmin. */
export function currentTokenClaims(request: FastifyRequest): TokenClaims {
  if (!request.tokenClaims) throw new Error("currentTokenClaims() on a route without requireUser");
  return request.tokenClaims;
}

/** The signed-in account of a route behind requireUser or requireAdmin. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw new Error("currentUser() on a route without requireUser");
  return request.user;
}
