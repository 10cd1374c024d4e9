import { asc, count, desc, eq, sql } from "drizzle-orm";
import { writeAndNotify } from "../../db/cached-by-notify.ts";
import type { Database } from "../../db/client.ts";
import { aiTraining, knowledgeDocuments, knowledgePassages } from "../../db/schema/index.ts";
import { AI_TRAINING_CHANGED_CHANNEL } from "./changes.ts";

export type AiTrainingRow = typeof aiTraining.$inferSelect;

export interface DocumentRow {
  id: string;
  originalName: string;
  storedName: string;
  size: number;
  uploadDate: Date;
  passages: number;
}

export interface VoiceSampleFields {
  voiceSampleFile: string;
  voiceSampleOriginalName: string;
  voiceSampleSize: number;
  voiceSampleContentType: string;
}

/**
 * Every write announces itself: a NOTIFY on `ai_training_changed` in its transaction (the other
 * instances, on PostgreSQL) and, once it is over, this process's listeners on the same database
 * (the chat's cached persona): docs/decisions/0012-persona-cache.md.
 */
export interface AiTrainingRepository {
  read(): Promise<AiTrainingRow>;
  setSystemPrompt(systemPrompt: string): Promise<void>;
  setVoiceId(voiceId: string | null): Promise<void>;
  /** Stores the new sample; answers the stored name of the one it replaced. */
  setVoiceSample(
    sample: VoiceSampleFields,
  ): Promise<{ row: AiTrainingRow; previousFile: string | null }>;
  listDocuments(): Promise<DocumentRow[]>;
  /** The document and its passages in one transaction. */
  insertDocument(
    document: { originalName: string; storedName: string; size: number },
    passages: string[],
  ): Promise<DocumentRow>;
  /** Deletes the document (its passages cascade); answers its stored name, or undefined. */
  deleteDocument(id: string): Promise<string | undefined>;
}

const DEFAULT_ROW: AiTrainingRow = {
  singleton: true,
  systemPrompt: "",
  voiceId: null,
  voiceSampleFile: null,
  voiceSampleOriginalName: null,
  voiceSampleSize: null,
  voiceSampleContentType: null,
  voiceSampleUploadedAt: null,
  updatedAt: new Date(0),
};

export function createAiTrainingRepository(db: Database): AiTrainingRepository {
  /** `work` in a transaction that NOTIFYs the change; this process hears of it afterwards. */
  const changing = <T>(work: (tx: Database) => Promise<T>): Promise<T> =>
    writeAndNotify(db, AI_TRAINING_CHANGED_CHANNEL, work);

  const upsert = (values: Partial<AiTrainingRow>) =>
    changing(async (tx) => {
      const [row] = await tx
        .insert(aiTraining)
        .values({ singleton: true, ...values })
        .onConflictDoUpdate({
          target: aiTraining.singleton,
          set: { ...values, updatedAt: sql`now()` },
        })
        .returning();
      if (!row) throw new Error("ai_training upsert returned no row");
      return row;
    });

  return {
    async read() {
      const [row] = await db.select().from(aiTraining).limit(1);
      return row ?? DEFAULT_ROW;
    },
    async setSystemPrompt(systemPrompt) {
      await upsert({ systemPrompt });
    },
    async setVoiceId(voiceId) {
      await upsert({ voiceId });
    },
    async setVoiceSample(sample) {
      return changing(async (tx) => {
        await tx.insert(aiTraining).values({ singleton: true }).onConflictDoNothing();
        const [before] = await tx
          .select({ file: aiTraining.voiceSampleFile })
          .from(aiTraining)
          .where(eq(aiTraining.singleton, true))
          .for("update");
        const [row] = await tx
          .update(aiTraining)
          .set({ ...sample, voiceSampleUploadedAt: sql`now()`, updatedAt: sql`now()` })
          .where(eq(aiTraining.singleton, true))
          .returning();
        if (!row) throw new Error("ai_training update returned no row");
        return { row, previousFile: before?.file ?? null };
      });
    },
    async listDocuments() {
      return db
        .select({
          id: knowledgeDocuments.id,
          originalName: knowledgeDocuments.originalName,
          storedName: knowledgeDocuments.storedName,
          size: knowledgeDocuments.size,
          uploadDate: knowledgeDocuments.uploadDate,
          passages: count(knowledgePassages.id),
        })
        .from(knowledgeDocuments)
        .leftJoin(knowledgePassages, eq(knowledgePassages.documentId, knowledgeDocuments.id))
        .groupBy(knowledgeDocuments.id)
        .orderBy(desc(knowledgeDocuments.uploadDate), asc(knowledgeDocuments.originalName));
    },
    async insertDocument(document, passages) {
      return changing(async (tx) => {
        const [row] = await tx.insert(knowledgeDocuments).values(document).returning();
        if (!row) throw new Error("knowledge_documents insert returned no row");
        // In slices: a long document must not exceed the statement's parameter limit.
        for (let start = 0; start < passages.length; start += 500) {
          await tx.insert(knowledgePassages).values(
            passages.slice(start, start + 500).map((content, index) => ({
              documentId: row.id,
              position: start + index,
              content,
            })),
          );
        }
        return { ...row, passages: passages.length };
      });
    },
    async deleteDocument(id) {
      return changing(async (tx) => {
        const [row] = await tx
          .delete(knowledgeDocuments)
          .where(eq(knowledgeDocuments.id, id))
          .returning({ storedName: knowledgeDocuments.storedName });
        return row?.storedName;
      });
    },
  };
}
