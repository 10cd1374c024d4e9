import { createReadStream, mkdirSync } from "node:fs";
import { rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { type FileStorage, STORED_NAME } from "./types.ts";

function pathIn(directory: string, name: string): string {
  if (!STORED_NAME.test(name)) throw new Error(`Not a stored file name: ${JSON.stringify(name)}`);
  return join(directory, name);
}

/** Files in one folder on local disk. Temporary files must be on the same disk (a rename). */
export function createLocalStorage(directory: string): FileStorage {
  mkdirSync(directory, { recursive: true });
  return {
    async putFile(temporaryPath, name) {
      await rename(temporaryPath, pathIn(directory, name));
    },
    async delete(name) {
      await rm(pathIn(directory, name), { force: true });
    },
    async stat(name) {
      try {
        const info = await stat(pathIn(directory, name));
        return info.isFile() ? { size: info.size } : undefined;
      } catch {
        return undefined;
      }
    },
    read(name, range) {
      return createReadStream(
        pathIn(directory, name),
        range ? { start: range.start, end: range.end } : {},
      );
    },
    async localPath(name) {
      return pathIn(directory, name);
    },
  };
}
