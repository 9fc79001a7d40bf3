# The Bosun GitHub App as a container. Build and run (see docs/app.md):
#   docker build -t bosun .
#   docker run --env-file .env -p 3000:3000 bosun
# Without Docker the same two steps are: npm ci && npm start
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY src ./src
# `npm ci` builds lib/ through the prepare script; then drop the dev dependencies.
RUN npm ci && npm prune --omit=dev

FROM node:20-bookworm-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/lib ./lib
COPY package.json app.yml ./
COPY bin ./bin
COPY schema ./schema
USER node
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=3s CMD node -e "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node", "bin/bosun-app.js"]
