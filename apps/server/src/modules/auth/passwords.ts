import { hash, verify } from "@node-rs/argon2";

// @node-rs/argon2's defaults are argon2id with OWASP's parameters (19 MiB, 2 passes, 1 lane).

export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

/** False for a wrong password and for a stored hash that cannot be read. */
export async function verifyPassword(stored: string, password: string): Promise<boolean> {
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}

// Hashed once, lazily: verified against when there is no account, so that a wrong e-mail costs
// the same time as a wrong password and does not tell which accounts exist.
let dummyHash: Promise<string> | undefined;

export async function verifyAgainstDummy(password: string): Promise<false> {
  dummyHash ??= hash("twinline-no-such-account");
  await verifyPassword(await dummyHash, password);
  return false;
}
