export * from "./admin";
export * from "./api";
export * from "./auth";
export * from "./settings";
