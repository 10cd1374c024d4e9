import { PASSWORD_RULES } from "@twinline/contracts";
import type { UsersRepository } from "../users/repository.ts";
import { hashPassword, verifyPassword } from "./passwords.ts";

export type AdminSyncResult = "created" | "updated" | "unchanged";

export interface AdminAccountInput {
  email: string;
  password: string;
  /** Kept as is when omitted (an existing account), "Admin" for a new one. */
  name?: string;
}

/**
 * Makes the account of `email` an active admin with `password`: created when missing, updated
 * otherwise. A changed password ends the account's earlier tokens; the same password keeps them
 * (a restart with the same ADMIN_PASSWORD logs nobody out). Used at boot (ADMIN_EMAIL and
 * ADMIN_PASSWORD) and by `npm run admin:create`.
 */
export async function syncAdminAccount(
  users: UsersRepository,
  input: AdminAccountInput,
): Promise<AdminSyncResult> {
  if (input.password.length < PASSWORD_RULES.adminChangeMin) {
    throw new Error(
      `The admin password must be at least ${PASSWORD_RULES.adminChangeMin} characters long`,
    );
  }
  const email = input.email.trim().toLowerCase();
  for (let attempt = 0; attempt < 2; attempt++) {
    const existing = await users.findByEmail(email);
    if (!existing) {
      const created = await users.insert({
        name: input.name?.trim() || "Admin",
        email,
        passwordHash: await hashPassword(input.password),
        role: "admin",
      });
      if (created) return "created";
      // Another instance booting at the same time created it: update that one.
      continue;
    }
    const samePassword =
      existing.passwordHash !== null &&
      (await verifyPassword(existing.passwordHash, input.password));
    const sameName = !input.name || input.name.trim() === existing.name;
    if (samePassword && sameName && existing.role === "admin" && existing.isActive) {
      return "unchanged";
    }
    await users.update(existing.id, {
      role: "admin",
      isActive: true,
      ...(input.name?.trim() ? { name: input.name.trim() } : {}),
      ...(samePassword
        ? {}
        : { passwordHash: await hashPassword(input.password), bumpTokens: true }),
    });
    return "updated";
  }
  throw new Error(`Could not create or update the admin account ${email}`);
}
