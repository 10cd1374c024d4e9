import type { AdminUsersQuery } from "@twinline/contracts";
import {
  type AnyColumn,
  and,
  asc,
  count,
  desc,
  eq,
  ilike,
  isNull,
  or,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Database } from "../../db/client.ts";
import { passwordResetTokens, type UserRow, users } from "../../db/schema/index.ts";
import { announceSessionEnded } from "../../db/session-events.ts";
import { pageOffset } from "../../lib/paging.ts";
import { containsPattern } from "../../lib/search.ts";

export type NewUser = typeof users.$inferInsert;

// Each sort is served by an index (schema/users.ts); the id breaks ties so pages are stable.
const SORT_COLUMNS: Record<AdminUsersQuery["sortBy"], SQL | AnyColumn> = {
  createdAt: users.createdAt,
  name: sql`lower(${users.name})`,
  email: sql`lower(${users.email})`,
  lastLogin: users.lastLogin,
  lastActive: users.lastActiveAt,
  credits: users.credits,
};

export function createUsersRepository(db: Database) {
  return {
    /** One primary-key lookup: the auth plugin runs it on every authenticated request. */
    async findById(id: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.id, id));
      return row;
    },

    /** By e-mail, case-insensitively (served by the unique index on lower(email)). */
    async findByEmail(email: string, tx: Database = db): Promise<UserRow | undefined> {
      const [row] = await tx
        .select()
        .from(users)
        .where(sql`lower(${users.email}) = lower(${email.trim()})`);
      return row;
    },

    async findByGoogleId(googleId: string): Promise<UserRow | undefined> {
      const [row] = await db.select().from(users).where(eq(users.googleId, googleId));
      return row;
    },

    /** Inserts; answers undefined when the e-mail (or Google id) is already taken. */
    async insert(values: NewUser, tx: Database = db): Promise<UserRow | undefined> {
      const [row] = await tx
        .insert(users)
        .values({ ...values, email: values.email.trim().toLowerCase() })
        .onConflictDoNothing()
        .returning();
      return row;
    },

    /**
     * Changes an account. A new password also ends every open reset link of the account (a
     * link mailed before the change must not set another password after it), in the same
     * transaction.
     */
    async update(
      id: string,
      changes: Partial<Omit<NewUser, "id" | "createdAt" | "credits">> & { bumpTokens?: boolean },
      tx?: Database,
    ): Promise<UserRow | undefined> {
      const { bumpTokens, ...columns } = changes;
      const run = async (on: Database) => {
        const [row] = await on
          .update(users)
          .set({
            ...columns,
            ...(bumpTokens ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {}),
            updatedAt: sql`now()`,
          })
          .where(eq(users.id, id))
          .returning();
        if (row && columns.passwordHash !== undefined) {
          await on
            .update(passwordResetTokens)
            .set({ usedAt: sql`now()` })
            .where(and(eq(passwordResetTokens.userId, id), isNull(passwordResetTokens.usedAt)));
        }
        return row;
      };
      const row = await (tx
        ? run(tx)
        : columns.passwordHash !== undefined
          ? db.transaction(run)
          : run(db));
      // Every token of the account ended: its live call ends too (on PGlite's one process; on
      // PostgreSQL the users trigger tells every instance at commit).
      if (row && (bumpTokens || columns.isActive === false)) {
        announceSessionEnded(db, { userId: id });
      }
      return row;
    },

    /**
     * Stores the date of birth of an account that has none, in one statement (two racing
     * requests cannot both set it); answers undefined when one is already stored.
     */
    async setDateOfBirthOnce(id: string, dateOfBirth: string): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ dateOfBirth, updatedAt: sql`now()` })
        .where(and(eq(users.id, id), isNull(users.dateOfBirth)))
        .returning();
      return row;
    },

    async recordLogin(id: string): Promise<UserRow | undefined> {
      const [row] = await db
        .update(users)
        .set({ lastLogin: sql`now()` })
        .where(eq(users.id, id))
        .returning();
      return row;
    },

    /** One page of the admin list and its total: two indexed queries. */
    async list(query: AdminUsersQuery): Promise<{ rows: UserRow[]; total: number }> {
      // The admin list is of users: admin accounts are not among them.
      const filters: SQL[] = [eq(users.role, "user")];
      if (query.status !== "all") filters.push(eq(users.isActive, query.status === "active"));
      if (query.search) {
        const pattern = containsPattern(query.search);
        const match = or(ilike(users.name, pattern), ilike(users.email, pattern));
        if (match) filters.push(match);
      }
      const where = filters.length > 0 ? and(...filters) : undefined;
      const column = SORT_COLUMNS[query.sortBy];
      const direction = query.sortOrder === 1 ? asc : desc;
      // Never-logged-in (never active) users sort last either way.
      const order =
        query.sortBy === "lastLogin" || query.sortBy === "lastActive"
          ? sql`${column} ${sql.raw(query.sortOrder === 1 ? "asc" : "desc")} nulls last`
          : direction(column);
      const [rows, totals] = await Promise.all([
        db
          .select()
          .from(users)
          .where(where)
          .orderBy(order, direction(users.id))
          .limit(query.limit)
          .offset(pageOffset(query)),
        db.select({ total: count() }).from(users).where(where),
      ]);
      return { rows, total: totals[0]?.total ?? 0 };
    },
  };
}

export type UsersRepository = ReturnType<typeof createUsersRepository>;
