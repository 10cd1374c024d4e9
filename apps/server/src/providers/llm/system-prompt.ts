/**
 * The one format of the system text sent to the model: the persona's name and instructions,
 * then the best-matching knowledge passages. The offline responder reads the same format back
 * (parseSystemPrompt), so what it answers comes from what a real model would have been given.
 */

const PERSONA_LINE = /^You are (.+?)\.\s*$/m;
const PASSAGES_HEADING = "Knowledge passages (use them when they answer the question):";
const PASSAGE_LINE = /^\[(\d+)\] (.*)$/;

export interface SystemPromptParts {
  /** The persona's display name (settings aiProfile.name). */
  personaName: string;
  /** The admin's system prompt (AI training). */
  instructions: string;
  /** Passage texts, best first (retrieval.findRelevantPassages). */
  passages: string[];
}

const oneLine = (text: string) => text.replace(/\s+/g, " ").trim();

export function composeSystemPrompt(parts: SystemPromptParts): string {
  const lines = [`You are ${oneLine(parts.personaName)}.`];
  const instructions = parts.instructions.trim();
  if (instructions) lines.push("", instructions);
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
  const body = headingAt >= 0 ? system.slice(0, headingAt) : system;
  const instructions = body.replace(PERSONA_LINE, "").trim();
  return { personaName, instructions, passages };
}
