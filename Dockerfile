# syntax=docker/dockerfile:1
# Twinline in a container (docs/deploy.md). The build runs `npm run build`, the same script the
# browser tests build with; the image starts `node apps/server/dist/main.js`, the server
# workspace's `start` script and exactly what the browser tests start (e2e/support/server.ts).

# ---- build: every dependency, then the web app and the server bundle ----
FROM node:20-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contracts/package.json packages/contracts/
COPY packages/fakes/package.json packages/fakes/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

# ---- runtime dependencies: the server's own, no dev tools ----
FROM node:20-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contracts/package.json packages/contracts/
COPY packages/fakes/package.json packages/fakes/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
RUN npm ci --omit=dev --workspace @twinline/server --no-audit --no-fund

# ---- runtime ----
FROM node:20-slim
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data
WORKDIR /app
# pg_dump, pg_restore and psql for `node apps/server/dist/backup.js` / `restore.js`, of the major
# version compose.yaml runs (16): Debian's own client is 15, which refuses a newer server.
RUN apt-get update \
  && apt-get install -y --no-install-recommends ca-certificates postgresql-common \
  && /usr/share/postgresql-common/pgdg/apt.postgresql.org.sh -y \
  && apt-get install -y --no-install-recommends postgresql-client-16 \
  && rm -rf /var/lib/apt/lists/*
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/package.json ./
COPY --from=build /app/apps/server/package.json ./apps/server/
COPY --from=build /app/apps/server/dist ./apps/server/dist
COPY --from=build /app/apps/web/dist ./apps/web/dist
# The data directory belongs to the unprivileged user the server runs as.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# Node itself is PID 1 (no npm or shell in between): SIGTERM reaches the server's graceful stop.
STOPSIGNAL SIGTERM
CMD ["node", "apps/server/dist/main.js"]
