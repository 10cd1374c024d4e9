import {
  DATA_EXPORTS_PER_DAY,
  dataExportRequestedResponseSchema,
  dataExportResponseSchema,
  PRIVACY_MESSAGES,
} from "@twinline/contracts";
import { desc, eq, sql } from "drizzle-orm";
import { strFromU8, unzipSync } from "fflate";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminSession, call, messageOf, signUp } from "../../../test/accounts.ts";
import { createTestApp, type TestApp } from "../../../test/create-test-app.ts";
import { type SeededFan, seedFan } from "../../../test/fan-data.ts";
import { createManualClock, type ManualClock } from "../../../test/manual-clock.ts";
import { adminAuditLog, dataExports, mailOutbox } from "../../db/schema/index.ts";
import { EXPORT_KINDS, EXPORT_PAGE_SIZE } from "./export-kinds.ts";

const DAY_MS = 24 * 60 * 60_000;

let t: TestApp;
let clock: ManualClock;
let admin: Awaited<ReturnType<typeof adminSession>>;
let fan: SeededFan;
let other: SeededFan;

beforeAll(async () => {
  clock = createManualClock();
  t = await createTestApp({ privacyClock: clock, billingSweeps: false });
  admin = await adminSession(t);
  fan = await seedFan(t, admin.token);
  other = await seedFan(t, admin.token);
});
afterAll(() => t?.close());

/** Asks for an export as the fan and waits for the background build. */
async function exportOf(token: string) {
  const asked = await call(t, "POST", "/api/users/data-export", { token });
  expect(asked.statusCode, asked.body).toBe(202);
  const requested = dataExportRequestedResponseSchema.parse(asked.json());
  expect(requested.data.status).toBe("queued");
  await t.app.dataExports.settled();
  const latest = await call(t, "GET", "/api/users/data-export", { token });
  const data = dataExportResponseSchema.parse(latest.json()).data;
  expect(data).toMatchObject({ _id: requested.data._id, status: "ready" });
  return requested.data._id;
}

async function download(token: string, id: string) {
  return call(t, "GET", `/api/users/data-export/${id}/download`, { token });
}

function filesOf(body: Buffer): Record<string, string> {
  const entries = unzipSync(new Uint8Array(body));
  return Object.fromEntries(
    Object.entries(entries).map(([name, bytes]) => [name, strFromU8(bytes)]),
  );
}

describe("download my data", () => {
  let exportId: string;
  let files: Record<string, string>;

  beforeAll(async () => {
    exportId = await exportOf(fan.token);
    const response = await download(fan.token, exportId);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers["content-type"]).toBe("application/zip");
    expect(response.headers["content-disposition"]).toMatch(/attachment; filename="twinline-data-/);
    files = filesOf(response.rawPayload);
  });

  it("holds a README and one JSON file per kind, every kind with the fan's data", () => {
    expect(Object.keys(files).sort()).toEqual(
      ["README.md", ...EXPORT_KINDS.map((kind) => kind.file)].sort(),
    );
    for (const kind of EXPORT_KINDS) {
      expect(files["README.md"]).toContain(`## ${kind.file}`);
      for (const field of Object.keys(kind.fields))
        expect(files["README.md"]).toContain(`\`${field}\``);
    }
    const json = (name: string) => JSON.parse(files[name] ?? "null");
    expect(json("profile.json")).toMatchObject({ id: fan.id, email: fan.email, name: fan.name });
    expect(json("conversations.json")).toEqual([
      expect.objectContaining({ id: fan.conversationId }),
    ]);
    const messages = json("messages.json") as { content: string; sender: string }[];
    expect(messages.some((m) => m.sender === "user" && m.content.includes(fan.word))).toBe(true);
    expect(messages.some((m) => m.sender === "ai")).toBe(true);
    const calls = json("calls.json");
    expect(calls).toEqual([
      expect.objectContaining({
        id: fan.callId,
        creditsConsumed: 10,
        transcript: [
          expect.objectContaining({ sender: "user", content: `On the phone about ${fan.word}` }),
          expect.objectContaining({ sender: "ai" }),
        ],
      }),
    ]);
    const memory = json("memory.json");
    expect(memory.enabled).toBe(true);
    expect(memory.facts.map((f: { content: string }) => f.content)).toContain(
      `I live in ${fan.word} and I love hiking`,
    );
    const ledger = json("credit-ledger.json") as { kind: string }[];
    expect(ledger.map((entry) => entry.kind)).toEqual(
      expect.arrayContaining(["grant", "purchase", "subscription_grant"]),
    );
    const paid = json("payments.json") as { kind: string; status: string }[];
    expect(paid.map((p) => p.kind).sort()).toEqual(["credits", "subscription"]);
    const subscriptions = json("subscriptions.json");
    expect(subscriptions.subscriptions).toHaveLength(1);
    expect(subscriptions.history.length).toBeGreaterThan(0);
    // The seeded notice and the one the app gave when the fan's conversation started.
    const notices = json("notices.json") as Array<{ kind: string; conversationId: string }>;
    expect(notices.length).toBeGreaterThanOrEqual(2);
    expect(notices.every((n) => n.kind === "ai-notice")).toBe(true);
    expect(notices).toContainEqual(
      expect.objectContaining({
        content: "You are talking with an AI.",
        conversationId: fan.conversationId,
      }),
    );
    expect(json("usage.json").chat.length).toBeGreaterThan(0);
    // The package's and the plan's checkout consents, with the words shown.
    const consents = json("consents.json") as Array<{ kind: string; text: string }>;
    expect(consents.map((c) => c.kind).sort()).toEqual(["credits", "plan"]);
    expect(consents.every((c) => c.text.length > 20)).toBe(true);
  });

  it("holds nothing of another fan", () => {
    const all = Object.values(files).join("\n");
    expect(all).not.toContain(other.id);
    expect(all).not.toContain(other.email);
    expect(all).not.toContain(other.word);
    expect(all).not.toContain(other.conversationId);
    expect(all).not.toContain(other.callId);
  });

  it("is announced by e-mail with a link to the profile", async () => {
    const mails = await t.app.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, fan.email))
      .orderBy(desc(mailOutbox.createdAt));
    expect(mails[0]).toMatchObject({ subject: "Your data export is ready" });
    expect(mails[0]?.text).toContain("/dashboard/profile");
  });

  it("is downloadable by its owner only", async () => {
    const stranger = await download(other.token, exportId);
    expect(stranger.statusCode).toBe(404);
    expect(messageOf(stranger)).toBe(PRIVACY_MESSAGES.exportNotFound);
    const anonymous = await t.app.inject({
      method: "GET",
      url: `/api/users/data-export/${exportId}/download`,
    });
    expect(anonymous.statusCode).toBe(401);
    const badId = await download(fan.token, "not-a-uuid");
    expect(badId.statusCode).toBe(400);
  });
});

describe("many messages", () => {
  /** More than a page: the second page starts after the first page's last row. */
  const MANY = EXPORT_PAGE_SIZE + 500;
  it("reads them a page at a time, each once, even when many share one millisecond", async () => {
    const many = await seedFan(t, admin.token, { plan: false });
    // One statement: clock_timestamp() puts hundreds of rows in each millisecond. The per-row
    // triggers off: each would update the fan's kept figures (one row updated thousands of
    // times, over 30 s on a busy machine); the export reads only the messages.
    await t.app.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local session_replication_role = replica`);
      await tx.execute(sql`
        insert into chat_messages (conversation_id, user_id, sender, content)
        select ${many.conversationId}, ${many.id}, 'user', 'bulk message ' || n
        from generate_series(1, ${MANY}::int) n`);
    });
    const id = await exportOf(many.token);
    const response = await download(many.token, id);
    const messages = JSON.parse(filesOf(response.rawPayload)["messages.json"] ?? "[]") as {
      id: string;
      content: string;
    }[];
    const ids = new Set(messages.map((message) => message.id));
    expect(ids.size).toBe(messages.length);
    expect(messages.filter((message) => message.content.startsWith("bulk message "))).toHaveLength(
      MANY,
    );
    // In the order they were written.
    expect(messages.at(-1)?.content).toBe(`bulk message ${MANY}`);
  });
});

describe("limits", () => {
  it("answers the export being built instead of starting another, and allows 3 a day", async () => {
    const fresh = await signUp(t);
    const first = await call(t, "POST", "/api/users/data-export", { token: fresh.token });
    expect(first.statusCode, first.body).toBe(202);
    // Asked again before the worker ran: the same export, no second row.
    const again = await call(t, "POST", "/api/users/data-export", { token: fresh.token });
    // 200: the same export (202 only if the build had already finished).
    expect([200, 202]).toContain(again.statusCode);
    const asked = again.statusCode === 202 ? 2 : 1;
    await t.app.dataExports.settled();
    for (let n = asked; n < DATA_EXPORTS_PER_DAY; n++) {
      const next = await call(t, "POST", "/api/users/data-export", { token: fresh.token });
      expect(next.statusCode, next.body).toBe(202);
      await t.app.dataExports.settled();
    }
    const rows = await t.app.database.db
      .select()
      .from(dataExports)
      .where(eq(dataExports.userId, fresh.user.id));
    expect(rows).toHaveLength(DATA_EXPORTS_PER_DAY);
    const refused = await call(t, "POST", "/api/users/data-export", { token: fresh.token });
    expect(refused.statusCode).toBe(429);
    expect(messageOf(refused)).toBe(PRIVACY_MESSAGES.exportRateLimited);
    // A day later the fan may ask again.
    await clock.advance(DAY_MS + 1000);
    const later = await call(t, "POST", "/api/users/data-export", { token: fresh.token });
    expect(later.statusCode, later.body).toBe(202);
    await t.app.dataExports.settled();
  });

  it("expires after 7 days: the download is refused and the file removed", async () => {
    const fresh = await signUp(t);
    const id = await exportOf(fresh.token);
    await clock.advance(7 * DAY_MS - 60_000);
    expect((await download(fresh.token, id)).statusCode).toBe(200);
    await clock.advance(2 * 60_000);
    const expired = await download(fresh.token, id);
    expect(expired.statusCode).toBe(410);
    expect(messageOf(expired)).toBe(PRIVACY_MESSAGES.exportExpired);
    // The hourly sweep removes the file.
    await clock.advance(60 * 60_000);
    await t.app.dataExports.settled();
    const [row] = await t.app.database.db.select().from(dataExports).where(eq(dataExports.id, id));
    expect(row?.status).toBe("expired");
    expect(await t.app.uploads.privateFiles.stat(`${id}.zip`)).toBeUndefined();
  });
});

describe("the admin, on a fan's request", () => {
  it("produces the same export from the user details, downloads it, and both are audited", async () => {
    const asked = await call(t, "POST", `/api/admin/users/${other.id}/data-export`, {
      token: admin.token,
    });
    expect(asked.statusCode, asked.body).toBe(202);
    const id = dataExportRequestedResponseSchema.parse(asked.json()).data._id;
    await t.app.dataExports.settled();
    const shown = await call(t, "GET", `/api/admin/users/${other.id}/data-export`, {
      token: admin.token,
    });
    expect(dataExportResponseSchema.parse(shown.json()).data).toMatchObject({
      _id: id,
      status: "ready",
      requestedByAdmin: true,
    });
    const response = await call(
      t,
      "GET",
      `/api/admin/users/${other.id}/data-export/${id}/download`,
      {
        token: admin.token,
      },
    );
    expect(response.statusCode, response.body).toBe(200);
    const files = filesOf(response.rawPayload);
    expect(JSON.parse(files["profile.json"] ?? "{}")).toMatchObject({ id: other.id });
    expect(Object.values(files).join("\n")).not.toContain(fan.word);
    // The fan sees it on the profile too.
    const mine = await call(t, "GET", "/api/users/data-export", { token: other.token });
    expect(dataExportResponseSchema.parse(mine.json()).data?._id).toBe(id);

    const entries = await t.app.database.db
      .select()
      .from(adminAuditLog)
      .where(eq(adminAuditLog.targetId, other.id));
    expect(entries.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(["user.data_export", "user.data_export_download"]),
    );
    // A fan cannot reach the admin's routes.
    const refused = await call(t, "POST", `/api/admin/users/${fan.id}/data-export`, {
      token: fan.token,
    });
    expect(refused.statusCode).toBe(403);
  });
});
