# syntax=docker/dockerfile:1
# The shop as a container, built on the release (`npm run package`, see docs/operations.md):
#   docker build --build-arg GIT_COMMIT=$(git rev-parse --short=12 HEAD) -t proxy-storefront .
# In production, on PostgreSQL, taking payments with Stripe, behind a TLS proxy on this host at APP_URL (so the shop's
# port is published on loopback only); the secrets come from the shell's environment (`-e NAME` alone passes it on):
#   docker run -d --restart unless-stopped -p 127.0.0.1:3000:3000 -p 8080:8080 \
#     -e APP_URL=https://shop.example.com -e TRUST_PROXY=true \
#     -e DATABASE_URL=postgres://storefront@db.example.com:5432/storefront -e PGPASSWORD \
#     -e AUTH_SECRET -e STRIPE_SECRET_KEY -e STRIPE_WEBHOOK_SECRET -e SMTP_URL -e MAIL_FROM \
#     proxy-storefront
# To try it: the embedded database in a volume at DATA_DIR, sandbox payments and demo stock, at http://localhost:3000:
#   docker run --rm -p 3000:3000 -p 8080:8080 -v storefront-data:/data \
#     -e PAYMENTS_SANDBOX=true -e SEED_DEMO=true proxy-storefront
# The run stage holds only release/ on Node 24: no npm, no TypeScript, no build tools; it runs as the image's `node`
# user and starts with node itself, which handles SIGTERM (docker stop) and stops without cutting a request.

FROM node:24-bookworm-slim AS build
WORKDIR /src
# The dependencies first, so that a change of the sources alone reuses this layer.
COPY package.json package-lock.json ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contract/package.json packages/contract/
RUN npm ci --no-audit --no-fund
COPY . .
ARG GIT_COMMIT=unknown
RUN GIT_COMMIT=${GIT_COMMIT} npm run package

FROM node:24-bookworm-slim
# Every interface of the container's own network, set here rather than left to the defaults: published ports reach
# the container from outside it, never on its loopback.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    GATEWAY_HOST=0.0.0.0 \
    GATEWAY_PORT=8080 \
    METRICS_HOST=0.0.0.0 \
    DATA_DIR=/data
WORKDIR /app
COPY --from=build --chown=root:root /src/release/ /app/
# DATA_DIR holds the embedded database only (unused on PostgreSQL): mount a volume there to keep it (-v name:/data).
# The folder belongs to `node`, and a new named volume mounted on it takes its owner.
RUN mkdir -p /data && chown node:node /data
USER node
# 9464: GET /metrics for Prometheus (METRICS_PORT). Inside a container it listens on every interface of the
# container's own network, reached by a scraper on that network; publish it (-p) only to a private address.
EXPOSE 3000 8080 9464
# Readiness, not liveness: 503 while the database is unreachable or the server is stopping.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/health/ready').then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "."]
