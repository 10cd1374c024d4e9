import { describe, expect, it } from "vitest";
import { csvCell, csvRow } from "./csv.ts";

describe("CSV cells", () => {
  it("quotes commas, quotes and line breaks; leaves plain text and numbers", () => {
    expect(csvCell("plain")).toBe("plain");
    expect(csvCell(42)).toBe("42");
    expect(csvCell("a,b")).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell("two\nlines")).toBe('"two\nlines"');
  });

  it("neutralises formulas: = + - @ (and tab, CR) get a leading quote, plain numbers do not", () => {
    expect(csvCell("=1+1")).toBe("'=1+1");
    expect(csvCell("+1")).toBe("'+1");
    expect(csvCell("-2+3")).toBe("'-2+3");
    // A cell that is only a number is a number, not a formula.
    expect(csvCell("-2")).toBe("-2");
    expect(csvCell("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvCell("\t=x")).toBe("'\t=x");
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
  });

  it("neutralises the Unicode look-alikes of = + - @ too (fullwidth, small, the minus sign)", () => {
    for (const start of ["＝", "＋", "－", "＠", "﹦", "﹢", "﹣", "﹫", "\u2212"]) {
      expect(csvCell(`${start}1+1`)).toBe(`'${start}1+1`);
    }
    expect(csvCell('＝HYPERLINK("http://x","y")')).toBe(`"'＝HYPERLINK(""http://x"",""y"")"`);
    // Other non-ASCII starts are text as before.
    expect(csvCell("Ünal")).toBe("Ünal");
    expect(csvCell("😀 hi")).toBe("😀 hi");
  });

  it("rows end with CRLF", () => {
    expect(csvRow(["a", 1, "b,c"])).toBe('a,1,"b,c"\r\n');
  });
});
