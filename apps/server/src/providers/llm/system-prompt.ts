/**
 * The one format of the system text sent to the model: the persona's name and instructions,
 * then the best-matching knowledge passages. The offline responder reads the same format back
 * (parseSystemPrompt), so what it answers comes from what a real model would have been given.
 */

const PERSONA_LINE = /^You are (.+?)\.\s*$/m;
const PASSAGES_HEADING = "Knowledge passages (use them when they answer the question):";
const PASSAGE_LINE = /^\[(\d+)\] (.*)$/;
const MEMORY_HEADING = "What you remember about this fan (from earlier conversations):";
const SUMMARY_PREFIX = "Summary: ";
const MEMORY_LINE = /^- (.*)$/;

export interface SystemPromptParts {
  /** The persona's display name (settings aiProfile.name). */
  personaName: string;
  /** The admin's system prompt (AI training). */
  instructions: string;
  /** Passage texts, best first (retrieval.findRelevantPassages). */
  passages: string[];
  /** The running summary of this fan (memory), if any. */
  summary?: string | undefined;
  /** The fan's own earlier words recalled for this message, best first (memory). */
  memories?: string[] | undefined;
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

export function composeSystemPrompt(parts: SystemPromptParts): string {
  const lines = [`You are ${oneLine(parts.personaName)}.`];
  const instructions = parts.instructions.trim();
  if (instructions) lines.push("", instructions);
  const summary = oneLine(parts.summary ?? "");
  const memories = (parts.memories ?? []).map(oneLine).filter(Boolean);
  if (summary || memories.length > 0) {
    lines.push("", MEMORY_HEADING);
    if (summary) lines.push(`${SUMMARY_PREFIX}${summary}`);
    for (const memory of memories) lines.push(`- ${memory}`);
  }
  const passages = parts.passages.map(oneLine).filter(Boolean);
  if (passages.length > 0) {
    lines.push("", PASSAGES_HEADING);
    passages.forEach((passage, index) => {
      lines.push(`[${index + 1}] ${passage}`);
    });
  }
  return lines.join("\n");
}

/** The parts back out of a composed system text (best effort for any other text). */
export function parseSystemPrompt(system: string): SystemPromptParts {
  const personaName = PERSONA_LINE.exec(system)?.[1]?.trim() ?? "your AI twin";
  const headingAt = system.indexOf(PASSAGES_HEADING);
  const passages: string[] = [];
  if (headingAt >= 0) {
    for (const line of system.slice(headingAt + PASSAGES_HEADING.length).split("\n")) {
      const match = PASSAGE_LINE.exec(line.trim());
      if (match?.[2]) passages.push(match[2]);
    }
  }
  let body = headingAt >= 0 ? system.slice(0, headingAt) : system;
  const memoryAt = body.indexOf(MEMORY_HEADING);
  const memories: string[] = [];
  let summary: string | undefined;
  if (memoryAt >= 0) {
    for (const line of body.slice(memoryAt + MEMORY_HEADING.length).split("\n")) {
      const trimmed = line.trim();
      if (trimmed.startsWith(SUMMARY_PREFIX)) summary = trimmed.slice(SUMMARY_PREFIX.length);
      const match = MEMORY_LINE.exec(trimmed);
      if (match?.[1]) memories.push(match[1]);
    }
    body = body.slice(0, memoryAt);
  }
  const instructions = body.replace(PERSONA_LINE, "").trim();
  return {
    personaName,
    instructions,
    passages,
    ...(summary ? { summary } : {}),
    ...(memories.length > 0 ? { memories } : {}),
  };
}
