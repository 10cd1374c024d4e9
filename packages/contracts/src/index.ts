export * from "./api";
export * from "./settings";
