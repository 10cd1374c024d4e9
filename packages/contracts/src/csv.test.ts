import { describe, expect, it } from "vitest";
import { csvCell, csvLine, csvRow } from "./csv";

/** The one CSV cell rule (RFC 4180 quoting, N/A for missing, formulas neutralised) at its edges. */
describe("csvCell", () => {
  it("quotes every cell and doubles the quotes inside (RFC 4180)", () => {
    expect(csvCell("plain")).toBe('"plain"');
    expect(csvCell('"')).toBe('""""');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
    expect(csvCell("two\r\nlines")).toBe('"two\r\nlines"');
  });

  it("writes N/A for a missing value: null, undefined, the empty text, a number that is not finite", () => {
    for (const missing of [null, undefined, "", Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(csvCell(missing)).toBe('"N/A"');
    }
    // A space is a value, not a missing one.
    expect(csvCell(" ")).toBe('" "');
  });

  it("writes numbers and booleans as they are, zero and negatives included", () => {
    expect(csvCell(0)).toBe('"0"');
    expect(csvCell(-5)).toBe('"-5"');
    expect(csvCell(19.99)).toBe('"19.99"');
    expect(csvCell(false)).toBe('"false"');
  });

  it("neutralises a text cell whose first character starts a formula, and only the first", () => {
    for (const start of [
      "=",
      "+",
      "-",
      "@",
      "\t",
      "\r",
      "＝",
      "＋",
      "－",
      "＠",
      "﹦",
      "﹢",
      "﹣",
      "﹫",
      "\u2212",
    ]) {
      expect(csvCell(`${start}1+1`)).toBe(`"'${start}1+1"`);
    }
    expect(csvCell("=")).toBe(`"'="`);
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell("a=1")).toBe('"a=1"');
    expect(csvCell(" =1")).toBe('" =1"');
    expect(csvCell("Ünal")).toBe('"Ünal"');
    expect(csvCell("😀 hi")).toBe('"😀 hi"');
  });

  it("keeps a text cell that is only a number, and neutralises one that is more", () => {
    for (const number of ["-5", "-5.00", "5", "0.5"]) expect(csvCell(number)).toBe(`"${number}"`);
    for (const formula of ["-5.", "-.5", "-1e3", "-1+1", "+5"]) {
      expect(csvCell(formula)).toBe(`"'${formula}"`);
    }
  });
});

describe("csvLine and csvRow", () => {
  it("join cells with commas; a row ends with CRLF", () => {
    expect(csvLine(["a", 1, null])).toBe('"a","1","N/A"');
    expect(csvRow(["a", 1, "b,c"])).toBe('"a","1","b,c"\r\n');
    expect(csvRow([])).toBe("\r\n");
  });
});
