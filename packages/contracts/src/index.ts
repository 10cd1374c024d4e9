export * from "./admin";
export * from "./admin-settings";
export * from "./ai-training";
export * from "./api";
export * from "./auth";
export * from "./chat";
export * from "./settings";
export * from "./text";
