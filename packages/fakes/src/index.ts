/**
 * Local servers that speak the providers' HTTP APIs, so the real SDK code runs in the server
 * tests, the browser tests and the benchmarks alike (DESIGN.md, "Providers"). One of each.
 */
export * from "./audio.ts";
export * from "./clock.ts";
export * from "./elevenlabs.ts";
export * from "./http.ts";
export * from "./openai.ts";
export * from "./pdf-bomb.ts";
export * from "./stripe.ts";
