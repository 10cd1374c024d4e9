/** Passage sizes: about a thousand characters, cut on paragraph and sentence boundaries. */
export const PASSAGE_MIN = 800;
export const PASSAGE_MAX = 1200;
/** The tail of a passage repeated at the start of the next, so no fact is cut in two. */
export const PASSAGE_OVERLAP = 200;

const clean = (text: string) =>
  text
    .replace(/[ \t\f\v\u00a0]+/g, " ")
    .replace(/ *\n */g, "\n")
    .trim();

/** Sentences (or word runs, for a "sentence" longer than a passage) of one paragraph. */
function unitsOf(paragraph: string): string[] {
  const sentences = paragraph.replace(/\s+/g, " ").split(/(?<=[.!?…])\s+(?=\S)/u);
  const units: string[] = [];
  for (const sentence of sentences) {
    if (sentence.length <= PASSAGE_MAX) {
      if (sentence) units.push(sentence);
      continue;
    }
    let piece = "";
    for (const word of sentence.split(" ")) {
      if (piece && piece.length + 1 + word.length > PASSAGE_MAX) {
        units.push(piece);
        piece = "";
      }
      piece = piece ? `${piece} ${word}` : word.slice(0, PASSAGE_MAX);
    }
    if (piece) units.push(piece);
  }
  return units;
}

/**
 * Splits a document's pages into passages of about PASSAGE_MIN..PASSAGE_MAX characters,
 * on paragraph and sentence boundaries, each starting with the last sentence of the one before
 * when that sentence is short (the overlap).
 */
export function splitIntoPassages(pages: string[]): string[] {
  const paragraphs = pages
    .map(clean)
    .join("\n\n")
    .split(/\n\s*\n|\n(?=[A-Z•\-–\d])/)
    .map((paragraph) => paragraph.trim())
    .filter(Boolean);

  const passages: string[] = [];
  let current: string[] = [];
  let length = 0;
  let overlap: string | undefined;

  const flush = () => {
    if (current.length === 0) return;
    passages.push(current.join(" "));
    const last = current.at(-1);
    overlap = last && last.length <= PASSAGE_OVERLAP ? last : undefined;
    current = [];
    length = 0;
  };

  for (const paragraph of paragraphs) {
    for (const unit of unitsOf(paragraph)) {
      if (length > 0 && length + 1 + unit.length > PASSAGE_MAX) flush();
      if (current.length === 0 && overlap && overlap.length + 1 + unit.length <= PASSAGE_MAX) {
        current.push(overlap);
        length = overlap.length;
      }
      overlap = undefined;
      current.push(unit);
      length += (length > 0 ? 1 : 0) + unit.length;
    }
    // A paragraph end is the preferred cut once the passage is long enough.
    if (length >= PASSAGE_MIN) flush();
  }
  // A short tail passage that only repeats the overlap adds nothing.
  if (current.length > 0) flush();
  return passages;
}
