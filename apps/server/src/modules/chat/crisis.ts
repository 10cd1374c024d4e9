import {
  CHAT_MESSAGES,
  type CrisisResource,
  crisisMessageText,
  crisisResourcesFor,
  crisisSpokenText,
} from "@twinline/contracts";
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client.ts";
import type { ChatMessageRow } from "../../db/schema/index.ts";
import { utcDay } from "../../lib/utc-day.ts";
import { HttpError } from "../../plugins/errors.ts";
import type { ModerationProvider } from "../../providers/moderation/index.ts";
import { systemActor, writeAuditEntry } from "../audit/in-transaction.ts";
import type { SettingsService } from "../settings/service.ts";
import { type CrisisPlace, crisisStatements, type StoredFlag } from "./crisis-repository.ts";

export type { StoredFlag };

/** Audit actions of the crisis protocol (issue 25, item 3): no words, no personal data. */
export const CRISIS_AUDIT = {
  flag: "crisis.flag",
  referral: "crisis.referral",
} as const;

export interface CrisisDeskDeps {
  db: Database;
  settings: Pick<SettingsService, "get">;
  /** The check in force: OpenAI's moderation with a key, else the offline phrases. */
  moderation: () => Promise<ModerationProvider>;
  log: FastifyBaseLogger;
  now?: () => Date;
}

/** A crisis turn as stored: the fan's flagged words (none for a replaced reply), the message. */
export interface CrisisTurn {
  fanMessage: ChatMessageRow | null;
  crisisMessage: ChatMessageRow;
  resources: CrisisResource[];
  /** The caring message as a call speaks it. */
  spoken: string;
}

/**
 * The crisis protocol (issue 25, item 2; docs/decisions/0060-crisis-protocol.md). Every fan
 * message, typed or spoken, passes `check` before the model (and before the free-message
 * count); when it fires, `refer` stores the turn instead of a reply: the fan's words flagged and
 * forgotten (never in a prompt or recall), the caring message with the resources as a product
 * message, the day's referral count, and the audit entries, in one transaction. With a key the
 * persona's reply is checked too (`checkReply`), and one giving self-harm instructions is
 * replaced (`replaceReply`).
 */
export function createCrisisDesk(deps: CrisisDeskDeps) {
  const now = deps.now ?? (() => new Date());

  const resourcesFor = async (country?: string | null) =>
    crisisResourcesFor((await deps.settings.get()).crisisResources, country);

  const store = async (input: {
    userId: string;
    place: CrisisPlace;
    /** The fan's words and their flag; absent when a reply was replaced. */
    fan?: { content: string; flag: StoredFlag };
    /** Set when the caring message replaced a persona reply the check flagged. */
    replyFlag?: StoredFlag;
    origin: string;
  }): Promise<CrisisTurn> => {
    const resources = await resourcesFor(null);
    const content = crisisMessageText(resources);
    const day = utcDay(now());
    const callId = input.place.kind === "call" ? input.place.callId : null;
    const turn = await deps.db.transaction(async (tx) => {
      const statements = crisisStatements(tx as unknown as Database);
      const conversationId = await statements.conversationFor(input.userId, input.place);
      if (!conversationId) throw new HttpError(404, CHAT_MESSAGES.conversationNotFound);
      const actor = systemActor(input.origin);
      const channel = input.place.kind;
      let fanMessage: ChatMessageRow | null = null;
      if (input.fan) {
        fanMessage = await statements.addFlaggedFanMessage({
          conversationId,
          userId: input.userId,
          content: input.fan.content,
          callId,
          flag: input.fan.flag,
        });
      }
      const crisisMessage = await statements.addCrisisMessage({
        conversationId,
        userId: input.userId,
        content,
        callId,
        flag: input.replyFlag ?? null,
      });
      await statements.countReferral(day);
      const flag = input.fan?.flag ?? input.replyFlag;
      if (flag) {
        await writeAuditEntry(tx as unknown as Database, actor, {
          action: CRISIS_AUDIT.flag,
          targetType: "message",
          targetId: (fanMessage ?? crisisMessage).id,
          after: { ...flag, channel, subject: input.fan ? "fan" : "reply" },
        });
      }
      await writeAuditEntry(tx as unknown as Database, actor, {
        action: CRISIS_AUDIT.referral,
        targetType: "message",
        targetId: crisisMessage.id,
        after: { channel, day, resources: resources.map((resource) => resource.name) },
      });
      return { fanMessage, crisisMessage };
    });
    return { ...turn, resources, spoken: crisisSpokenText(resources) };
  };

  return {
    resourcesFor,

    /** The crisis check of a fan's words: the flag, or null. */
    async check(text: string, signal?: AbortSignal): Promise<StoredFlag | null> {
      const verdict = await (await deps.moderation()).check({
        text,
        ...(signal ? { signal } : {}),
      });
      return verdict.flagged && verdict.category
        ? { category: verdict.category, source: verdict.source }
        : null;
    },

    /**
     * With a moderation key only, the persona's reply: flagged when it gives self-harm
     * instructions (a reply that only talks about feelings is the persona's to give).
     */
    async checkReply(text: string, signal?: AbortSignal): Promise<StoredFlag | null> {
      const moderation = await deps.moderation();
      if (moderation.mode !== "openai") return null;
      const verdict = await moderation.check({ text, ...(signal ? { signal } : {}) });
      return verdict.flagged && verdict.category === "self-harm/instructions"
        ? { category: verdict.category, source: verdict.source }
        : null;
    },

    /**
     * A referral stored elsewhere (the anonymous trial keeps its own messages until sign-up):
     * the day's referral count and the audit entries, as for members, in one transaction.
     */
    async recordReferral(input: {
      messageId: string;
      flag: StoredFlag;
      subject: "fan" | "reply";
      channel: string;
      origin: string;
    }): Promise<CrisisResource[]> {
      const resources = await resourcesFor(null);
      const day = utcDay(now());
      await deps.db.transaction(async (tx) => {
        const db = tx as unknown as Database;
        await crisisStatements(db).countReferral(day);
        const actor = systemActor(input.origin);
        await writeAuditEntry(db, actor, {
          action: CRISIS_AUDIT.flag,
          targetType: "message",
          targetId: input.messageId,
          after: { ...input.flag, channel: input.channel, subject: input.subject },
        });
        await writeAuditEntry(db, actor, {
          action: CRISIS_AUDIT.referral,
          targetType: "message",
          targetId: input.messageId,
          after: { channel: input.channel, day, resources: resources.map((r) => r.name) },
        });
      });
      return resources;
    },

    /** A fan's flagged words: stored with the caring message instead of a reply. */
    refer(input: {
      userId: string;
      place: CrisisPlace;
      content: string;
      flag: StoredFlag;
      origin: string;
    }): Promise<CrisisTurn> {
      return store({
        userId: input.userId,
        place: input.place,
        fan: { content: input.content, flag: input.flag },
        origin: input.origin,
      });
    },

    /** A persona reply the check flagged: the caring message is stored in its place. */
    replaceReply(input: {
      userId: string;
      place: CrisisPlace;
      flag: StoredFlag;
      origin: string;
    }): Promise<CrisisTurn> {
      return store({
        userId: input.userId,
        place: input.place,
        replyFlag: input.flag,
        origin: input.origin,
      });
    },
  };
}

export type CrisisDesk = ReturnType<typeof createCrisisDesk>;
