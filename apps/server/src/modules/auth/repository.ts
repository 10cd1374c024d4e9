import { and, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { endedTokens, passwordResetTokens, type UserRow, users } from "../../db/schema/index.ts";
import { announceSessionEnded } from "../../db/session-events.ts";

export const RESET_TOKEN_LIFETIME_MINUTES = 60;

export function createResetTokensRepository(db: Database) {
  return {
    /** Stores the hash of a new reset token, valid for one hour from now (database clock). */
    async create(userId: string, tokenHash: string): Promise<void> {
      await db.insert(passwordResetTokens).values({
        userId,
        tokenHash,
        expiresAt: sql`now() + make_interval(mins => ${RESET_TOKEN_LIFETIME_MINUTES})`,
      });
    },

    /**
     * Uses the token if it is known, unused and unexpired: marks it and every other open token
     * of its user used, and answers the user id. Undefined otherwise. Within `tx`, under a lock,
     * so a token works exactly once even when two requests race.
     */
    async consume(tx: Database, tokenHash: string): Promise<string | undefined> {
      const [row] = await tx
        .select({ userId: passwordResetTokens.userId })
        .from(passwordResetTokens)
        .where(
          and(
            eq(passwordResetTokens.tokenHash, tokenHash),
            isNull(passwordResetTokens.usedAt),
            gt(passwordResetTokens.expiresAt, sql`now()`),
          ),
        )
        .for("update");
      if (!row) return undefined;
      await tx
        .update(passwordResetTokens)
        .set({ usedAt: sql`now()` })
        .where(and(eq(passwordResetTokens.userId, row.userId), isNull(passwordResetTokens.usedAt)));
      return row.userId;
    },
  };
}

export type ResetTokensRepository = ReturnType<typeof createResetTokensRepository>;

/** Session tokens ended by a logout before their expiry (docs/decisions/0003-ended-tokens.md). */
export function createEndedTokensRepository(db: Database) {
  return {
    /**
     * Ends the token `jti` until `expiresAt` (its own expiry; after it the token is refused
     * anyway). Sweeps the rows of tokens that have expired since, so the table stays small.
     */
    async end(jti: string, expiresAt: Date): Promise<void> {
      await db.transaction(async (tx) => {
        await tx.insert(endedTokens).values({ jti, expiresAt }).onConflictDoNothing();
        await tx.delete(endedTokens).where(lt(endedTokens.expiresAt, sql`now()`));
      });
      announceSessionEnded(db, { jti });
    },

    /**
     * The account a session token names and whether the token was ended, in one statement (two
     * primary-key lookups): every authenticated request asks this, so it is one round trip to
     * the database, not two. Undefined: no such account.
     */
    async sessionAccount(
      userId: string,
      jti: string,
    ): Promise<{ user: UserRow; ended: boolean } | undefined> {
      const [row] = await db
        .select({
          user: users,
          ended: sql<boolean>`exists (select 1 from ${endedTokens} where ${endedTokens.jti} = ${jti})`,
        })
        .from(users)
        .where(eq(users.id, userId));
      return row;
    },
  };
}

export type EndedTokensRepository = ReturnType<typeof createEndedTokensRepository>;
