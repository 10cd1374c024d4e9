import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const API_TARGET = "http://127.0.0.1:3000";

export default defineConfig({
  resolve: { alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) } },
  plugins: [react(), tailwindcss()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Hashed names under assets/: the server caches them for a long time.
    assetsDir: "assets",
    // dist/.vite/manifest.json: what each page loads (bench/web, e2e/landing-weight.test.ts).
    manifest: true,
    rolldownOptions: {
      output: {
        // What the landing page and the lazy screens share (React, TanStack Query, the API
        // client) in one chunk, not split into several small ones that each gzip on their own:
        // the landing page's budget is counted gzipped, file by file (decision 0033).
        advancedChunks: {
          groups: [
            {
              name: "core",
              test: /node_modules[\\/](react|react-dom|scheduler|@tanstack|clsx)[\\/]|src[\\/]lib[\\/]api[\\/](request|send|rules|csrf|errors|url)\.ts$/,
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      // REST calls and the voice-call WebSocket both live under /api.
      "/api": { target: API_TARGET, changeOrigin: true, ws: true },
      "/uploads": { target: API_TARGET, changeOrigin: true },
    },
  },
  preview: { port: 4173 },
});
