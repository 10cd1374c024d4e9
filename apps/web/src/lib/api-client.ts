/** The one public entry of the API client; the code lives in ./api (see ./api/index.ts). */
export * from "./api";
