import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { VitePWA } from "vite-plugin-pwa";
import { landingShellFiles, SHELL_PUBLIC_FILES } from "./app-shell";

const API_TARGET = "http://127.0.0.1:3000";

/**
 * The voice call's VAD files (docs/decisions/0043-neural-voice-detection.md): the Silero model
 * and the audio worklet of @ricky0123/vad-web and onnxruntime-web's WASM, served by this app
 * under /vad/ (copied into the build, answered by the dev server), never from a CDN. Only the
 * call page fetches them.
 */
function vadAssets(): Plugin {
  const require = createRequire(import.meta.url);
  const vadDir = dirname(require.resolve("@ricky0123/vad-web"));
  const ortDir = dirname(require.resolve("onnxruntime-web/wasm"));
  const files: Record<string, string> = {
    "silero_vad_v5.onnx": join(vadDir, "silero_vad_v5.onnx"),
    "vad.worklet.bundle.min.js": join(vadDir, "vad.worklet.bundle.min.js"),
    "ort-wasm-simd-threaded.wasm": join(ortDir, "ort-wasm-simd-threaded.wasm"),
    "ort-wasm-simd-threaded.mjs": join(ortDir, "ort-wasm-simd-threaded.mjs"),
  };
  const types: Record<string, string> = {
    onnx: "application/octet-stream",
    js: "text/javascript",
    mjs: "text/javascript",
    wasm: "application/wasm",
  };
  return {
    name: "twinline-vad-assets",
    configureServer(server) {
      server.middlewares.use((request, response, next) => {
        const name = request.url?.split("?")[0]?.replace(/^\/vad\//, "");
        const file = name && request.url?.startsWith("/vad/") ? files[name] : undefined;
        if (!file || !name) return next();
        response.setHeader("content-type", types[name.split(".").pop() ?? ""] ?? "");
        response.end(readFileSync(file));
      });
    },
    generateBundle() {
      for (const [name, file] of Object.entries(files)) {
        this.emitFile({ type: "asset", fileName: `vad/${name}`, source: readFileSync(file) });
      }
    },
  };
}

const DIST = fileURLToPath(new URL("./dist", import.meta.url));

/**
 * The service worker (docs/decisions/0079-installable-app.md): sw/sw.ts built into dist/sw.js with
 * the app shell's files listed in it. The manifest is not built here: the server answers it from
 * the current settings. The page registers the worker itself (src/lib/service-worker.ts).
 */
function serviceWorker() {
  return VitePWA({
    strategies: "injectManifest",
    srcDir: "sw",
    filename: "sw.ts",
    manifest: false,
    injectRegister: false,
    injectManifest: {
      globPatterns: [...SHELL_PUBLIC_FILES, "assets/*.{js,css}"],
      manifestTransforms: [
        (entries) => {
          const shell = landingShellFiles(DIST);
          const manifest = entries.filter(
            (entry) => !entry.url.startsWith("assets/") || shell.has(entry.url),
          );
          return { manifest, warnings: [] };
        },
      ],
    },
  });
}

export default defineConfig({
  resolve: {
    alias: {
      "@": fileURLToPath(new URL("./src", import.meta.url)),
      // onnxruntime-web's build that loads its WASM from `wasmPaths` (/vad/), rather than the
      // one that makes the bundler copy the same 14 MB file into assets/ a second time.
      "onnxruntime-web/wasm": createRequire(import.meta.url)
        .resolve("onnxruntime-web/wasm")
        .replace(/ort\.wasm\.min\.js$/, "ort.wasm.min.mjs"),
    },
  },
  plugins: [react(), tailwindcss(), vadAssets(), serviceWorker()],
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
              test: /node_modules[\\/](react|react-dom|scheduler|@tanstack|clsx)[\\/]|src[\\/]lib[\\/]api[\\/](request|send|rules|csrf|errors|url|route-client)\.ts$/,
            },
            {
              // What the landing shares with the lazy screens, in one file rather than four
              // (each small file costs its own gzip header and dictionary): settings, theme,
              // the social icons and lucide's icon runtime.
              name: "shell",
              test: /src[\\/]lib[\\/](settings|theme)\.tsx?$|src[\\/]components[\\/]ui[\\/]social-icon\.tsx$|lucide-react[\\/]dist[\\/]esm[\\/](shared[\\/]|Icon\.mjs|createLucideIcon\.mjs|defaultAttributes\.mjs)/,
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
