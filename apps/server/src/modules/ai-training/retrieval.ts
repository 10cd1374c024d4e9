import { sql } from "drizzle-orm";
import type { Database } from "../../db/client.ts";

export interface RelevantPassage {
  documentId: string;
  documentName: string;
  content: string;
  rank: number;
}

/** Words of a question, safe inside to_tsquery (letters and digits only), at most 32. */
export function wordsOf(question: string): string[] {
  const words = question.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words)].slice(0, 32);
}

/**
 * The knowledge passages that best match a question, best first: PostgreSQL full-text search
 * (english configuration) over the GIN-indexed `tsv`, the question's words OR-ed so a passage
 * matching only some of them still ranks, ordered by ts_rank_cd. The same SQL on PGlite and
 * PostgreSQL. An empty or stop-word-only question answers [].
 */
export async function findRelevantPassages(
  db: Database,
  question: string,
  limit = 4,
): Promise<RelevantPassage[]> {
  const words = wordsOf(question);
  if (words.length === 0 || limit <= 0) return [];
  const query = words.join(" | ");
  const result = (await db.execute(sql`
    with q as (select to_tsquery('english', ${query}) as query)
    select p.document_id, d.original_name, p.content, ts_rank_cd(p.tsv, q.query) as rank
    from q, knowledge_passages p
    join knowledge_documents d on d.id = p.document_id
    where numnode(q.query) > 0 and p.tsv @@ q.query
    order by rank desc, d.upload_date desc, p.position
    limit ${limit}
  `)) as unknown as {
    rows: { document_id: string; original_name: string; content: string; rank: number | string }[];
  };
  return result.rows.map((row) => ({
    documentId: row.document_id,
    documentName: row.original_name,
    content: row.content,
    rank: Number(row.rank),
  }));
}
