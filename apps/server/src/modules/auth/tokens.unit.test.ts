import { randomUUID } from "node:crypto";
import { SignJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createTokenService } from "./tokens.ts";

const SECRET = "a-secret-of-at-least-thirty-two-characters";

/** A token as the service signs them, expiring `seconds` from now. */
function tokenExpiringIn(seconds: number, secret = SECRET) {
  return new SignJWT({ role: "user", ver: 0 })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(randomUUID())
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + seconds)
    .sign(new TextEncoder().encode(secret));
}

describe("token verification (signature checked once per token)", () => {
  afterEach(() => vi.useRealTimers());

  it("answers the same claims for a token asked again", async () => {
    const tokens = createTokenService(SECRET);
    const token = await tokens.sign({ id: randomUUID(), role: "user", tokenVersion: 3 });
    const first = await tokens.verify(token);
    expect(first).toMatchObject({ role: "user", ver: 3 });
    expect(await tokens.verify(token)).toEqual(first);
  });

  it("refuses a token already verified once it has expired", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    const tokens = createTokenService(SECRET);
    const token = await tokenExpiringIn(60);
    expect(await tokens.verify(token)).toBeDefined();
    vi.setSystemTime(Date.now() + 59_000);
    expect(await tokens.verify(token)).toBeDefined();
    vi.setSystemTime(Date.now() + 1_000);
    expect(await tokens.verify(token)).toBeUndefined();
    expect(await tokens.verify(token)).toBeUndefined();
  });

  it("refuses a verified token's tampered copy and another secret's token", async () => {
    const tokens = createTokenService(SECRET);
    const token = await tokenExpiringIn(600);
    expect(await tokens.verify(token)).toBeDefined();
    const [header, payload, signature] = token.split(".");
    const flipped = `${signature?.slice(0, -2)}${signature?.endsWith("AA") ? "BB" : "AA"}`;
    expect(await tokens.verify(`${header}.${payload}.${flipped}`)).toBeUndefined();
    const other = await tokenExpiringIn(600, "another-secret-of-at-least-thirty-two-chars");
    expect(await tokens.verify(other)).toBeUndefined();
    expect(
      await createTokenService("another-secret-of-at-least-thirty-two-chars").verify(token),
    ).toBeUndefined();
  });
});
