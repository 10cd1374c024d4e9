import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { SecretIndex } from "./secret-index.ts";

const WINDOW = 8;
const X = "#";

/**
 * The oracle, written the slow obvious way: mark every character inside any occurrence of any
 * form, then write each maximal run of marked characters that starts an occurrence chain as one
 * replacement. Characters outside every occurrence are kept as they were.
 */
function naiveRedact(text: string, forms: readonly string[]): string {
  const occurrences: [number, number][] = [];
  for (let from = 0; from < text.length; from++) {
    for (const form of forms) {
      if (form.length >= WINDOW && text.startsWith(form, from)) {
        occurrences.push([from, from + form.length]);
      }
    }
  }
  occurrences.sort((x, y) => x[0] - y[0] || y[1] - x[1]);
  let result = "";
  let done = 0;
  for (const [from, to] of occurrences) {
    if (from < done) {
      done = Math.max(done, to);
      continue;
    }
    result += text.slice(done, from) + X;
    done = to;
  }
  return result + text.slice(done);
}

// A tiny alphabet, so that forms overlap, share starts and ends, and recur in the text; and a
// wide one, so that most of the text is jumped over and the jumps are what is tested.
const TINY = ["a", "b", "c", "*", "é"];
const WIDE = [..."abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789-_*é😀"];
const textOf = (alphabet: string[]) => (min: number, max: number) =>
  fc
    .array(fc.constantFrom(...alphabet), { minLength: min, maxLength: max })
    .map((chars) => chars.join(""));

describe("SecretIndex: every occurrence of a known value, in one pass", () => {
  it.each([
    ["a tiny", TINY],
    ["a wide", WIDE],
  ])(
    "replaces exactly what the naive scan finds, for any forms and any text of %s alphabet",
    (_, alphabet) => {
      const smallText = textOf(alphabet as string[]);
      fc.assert(
        fc.property(
          fc.array(smallText(WINDOW, 14), { minLength: 1, maxLength: 6 }),
          smallText(0, 200),
          fc.array(fc.nat(), { maxLength: 4 }),
          (forms, noise, insertAt) => {
            // Plant some forms in the text, so matches are the rule and not the exception.
            let text = noise;
            for (const [i, at] of insertAt.entries()) {
              const form = forms[i % forms.length] ?? "";
              const where = at % (text.length + 1);
              text = text.slice(0, where) + form + text.slice(where);
            }
            // No starred quotes here: the secrets list is empty, only forms are replaced.
            const index = new SecretIndex(forms, [], WINDOW);
            expect(index.redact(text, X)).toBe(naiveRedact(text, forms));
          },
        ),
        { numRuns: 2_000 },
      );
    },
  );

  it("keys of 40,000 characters and of 10,000 accented ones are found, in time linear in the text", () => {
    const long = `sk-${"a1B2".repeat(10_000)}`;
    const accented = `sk-${"é".repeat(10_000)}`;
    const forms = [long, accented, encodeURIComponent(accented)];
    const index = new SecretIndex(forms, [long, accented], WINDOW);
    const text = `x ${long} y ${encodeURIComponent(accented)} z ${accented} w`;
    expect(index.redact(text, X)).toBe(`x ${X} y ${X} z ${X} w`);
    // A megabyte of near misses: the start and the end of the key, never the whole.
    const nearMisses = `${long.slice(0, 5_000)} ${long.slice(-5_000)} `.repeat(100);
    expect(index.redact(nearMisses, X)).toBe(nearMisses);
  });

  it("replaces a starred quote: a secret's start, the stars, and its end when it follows", () => {
    const secrets = ["sk-proj-abcdefgh0000", "sk-proj-ijklmnop1111"];
    const index = new SecretIndex(secrets, secrets, WINDOW);
    expect(index.redact("key sk-proj-****1111 refused", X)).toBe("key # refused");
    expect(index.redact("key sk-***** refused", X)).toBe("key # refused");
    // Stars after text that starts no secret, and fewer than three stars, stay.
    expect(index.redact("rating: ***** (xyz***) sk-**1111", X)).toBe(
      "rating: ***** (xyz***) sk-**1111",
    );
  });
});
