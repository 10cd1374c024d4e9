export { createLocalStorage } from "./local.ts";
export { type FileStorage, STORED_NAME } from "./types.ts";
