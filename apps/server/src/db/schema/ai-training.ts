import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  customType,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uuid,
} from "drizzle-orm/pg-core";

const tsvector = customType<{ data: string }>({ dataType: () => "tsvector" });

/**
 * The persona's training: exactly one row (system prompt, voice id, the stored voice sample).
 * The sample file lives in the uploads storage under `voice_sample_file`.
 */
export const aiTraining = pgTable(
  "ai_training",
  {
    singleton: boolean("singleton").primaryKey().default(true),
    systemPrompt: text("system_prompt").notNull().default(""),
    voiceId: text("voice_id"),
    voiceSampleFile: text("voice_sample_file"),
    voiceSampleOriginalName: text("voice_sample_original_name"),
    voiceSampleSize: bigint("voice_sample_size", { mode: "number" }),
    voiceSampleContentType: text("voice_sample_content_type"),
    voiceSampleUploadedAt: timestamp("voice_sample_uploaded_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("ai_training_singleton", sql`${table.singleton}`)],
);

/** A PDF the admin uploaded; its text lives in knowledge_passages. */
export const knowledgeDocuments = pgTable(
  "knowledge_documents",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    originalName: text("original_name").notNull(),
    /** The generated name in the uploads storage. */
    storedName: text("stored_name").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    uploadDate: timestamp("upload_date", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("knowledge_documents_upload_date_idx").on(table.uploadDate)],
);

/**
 * About a thousand characters of a document each, searched with PostgreSQL full-text search
 * (the generated `tsv`, GIN-indexed) by retrieval.ts.
 */
export const knowledgePassages = pgTable(
  "knowledge_passages",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    documentId: uuid("document_id")
      .notNull()
      .references(() => knowledgeDocuments.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    content: text("content").notNull(),
    tsv: tsvector("tsv").notNull().generatedAlwaysAs(sql`to_tsvector('english', content)`),
  },
  (table) => [
    index("knowledge_passages_document_idx").on(table.documentId, table.position),
    index("knowledge_passages_tsv_idx").using("gin", table.tsv),
  ],
);
