# syntax=docker/dockerfile:1
# isvc-doctor: the Slack bot (`serve`) and the CLI. Multi-stage: build with dev dependencies, run
# with production dependencies only, as a non-root user, under tini for signals.

FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json tsconfig.page.json ./
COPY scripts ./scripts
COPY src ./src
COPY playbooks ./playbooks
COPY handlers ./handlers
COPY bench ./bench
COPY test/support ./test/support
RUN npm run build

FROM node:24-bookworm-slim AS runtime
# tini reaps children and forwards SIGTERM so `serve` can finish or release its jobs
RUN apt-get update \
  && apt-get install -y --no-install-recommends tini \
  && rm -rf /var/lib/apt/lists/*
WORKDIR /app
ENV NODE_ENV=production
# V8's heap, bounded: left alone it lets its old space grow far past the bot's live heap (~50 MB)
# under a burst of Slack requests (RSS 181 → 287 MB over 8,000 fuzzed commands on a 2-core machine);
# capped, RSS stays within 20 MB (test/reliability/fuzz.test.ts runs serve with this same setting,
# read from here). 160 MB holds the watcher's informers for 10,000 InferenceServices with room to
# spare; raise it together with the pod's memory limit. The young generation is bounded too (16 MB
# semi-spaces): on Bolt 5 / web-api 8 (fetch) V8 otherwise let it grow under the same burst, RSS
# +72–76 MB in steps while the live heap stayed at ~38 MB; bounded, +6 MB (docs/benchmarks.md).
ENV NODE_OPTIONS="--max-old-space-size=160 --max-semi-space-size=16"
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist ./dist
# the node image's "node" user, by number so that Kubernetes can check runAsNonRoot
USER 1000:1000
# 3000: Slack's requests (HTTP mode); 9090: /metrics, /healthz, /readyz
EXPOSE 3000 9090
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.METRICS_PORT || 9090) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--", "node", "/app/dist/src/cli/isvc-doctor.js"]
CMD ["serve", "--config", "/etc/isvc-doctor/config.yaml"]
