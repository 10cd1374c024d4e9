import { describe, expect, it } from "vitest";
import { destructiveLines } from "../../../../scripts/check-migrations.mjs";

describe("npm run lint's migration check", () => {
  it("flags what breaks an older instance still serving: drops, renames, type changes, new NOT NULL", () => {
    const sql = [
      'CREATE TABLE "a" ("id" uuid PRIMARY KEY);',
      'ALTER TABLE "users" ADD COLUMN "nickname" text DEFAULT \'\' NOT NULL;',
      'ALTER TABLE "users" DROP COLUMN "legacy";',
      'ALTER TABLE "users" RENAME COLUMN "name" TO "full_name";',
      'ALTER TABLE "old" RENAME TO "new";',
      'DROP TABLE "gone";',
      'ALTER TABLE "users" ALTER COLUMN "age" SET DATA TYPE bigint;',
      'ALTER TABLE "users" ALTER COLUMN "email" SET NOT NULL;',
      'ALTER TABLE "users" ALTER COLUMN "phone" DROP NOT NULL;',
      'DROP INDEX "users_name_idx";',
      "-- DROP TABLE mentioned in a comment",
    ].join("\n");
    expect(destructiveLines(sql).map(([line]) => line)).toEqual([3, 4, 5, 6, 7, 8]);
  });

  it("a migration that declares itself a contract step passes", () => {
    expect(
      destructiveLines('-- contract: 0031 stopped reading it two releases ago\nDROP TABLE "gone";'),
    ).toEqual([]);
  });
});
