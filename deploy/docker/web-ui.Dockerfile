# The web UI: a static Vite build served by nginx as an unprivileged user (uid 101, port 8080).
# nginx also proxies /fabric to the controller, so the browser talks to one origin.
#   docker build -f deploy/docker/web-ui.Dockerfile -t weft/web-ui:0.1.0 .
FROM node:22.21.1-bookworm-slim AS build
WORKDIR /src/web-ui
COPY web-ui/package.json web-ui/package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY web-ui/ ./
RUN npm run build

FROM nginxinc/nginx-unprivileged:1.28.0-alpine
# The base's entrypoint renders templates/*.template with envsubst into conf.d at start.
COPY deploy/web-ui/nginx.conf.template /etc/nginx/templates/default.conf.template
# NGINX_ENTRYPOINT_LOCAL_RESOLVERS: the entrypoint exports the resolv.conf servers for the template.
ENV WEFT_API=http://weft-controller:8282 NGINX_ENTRYPOINT_LOCAL_RESOLVERS=1
COPY --from=build /src/web-ui/dist/ /usr/share/nginx/html/
USER 101
EXPOSE 8080
# The alpine base has a shell and busybox wget: the container reports its own health.
HEALTHCHECK --interval=10s --timeout=3s CMD wget -q -O /dev/null http://127.0.0.1:8080/healthz || exit 1
