# The lab switch agent: weft-switch (gNMI server programming Linux SRv6) and weft-telemetry
# (gNMI subscriber writing gnmic-format events to Kafka), both static binaries.
#   docker build -f deploy/docker/switch-agent.Dockerfile -t weft/switch-agent:0.1.0 .
#   docker run --cap-add NET_ADMIN weft/switch-agent:0.1.0 --listen :9339 --target leaf1
#   docker run --entrypoint /usr/local/bin/weft-telemetry weft/switch-agent:0.1.0 --brokers kafka:9092
# weft-switch programs the kernel of its network namespace (containerlab mode: one container per
# switch), which needs NET_ADMIN; file capabilities let it run as nonroot.
FROM golang:1.26.0-bookworm AS build
WORKDIR /src/switch-agent
COPY lab-topologies/switch-agent/go.mod lab-topologies/switch-agent/go.sum ./
RUN go mod download
COPY lab-topologies/switch-agent/ ./
RUN CGO_ENABLED=0 go build -trimpath -ldflags "-s -w" -o /out/ ./cmd/weft-switch ./cmd/weft-telemetry \
 && apt-get update && apt-get install -y --no-install-recommends libcap2-bin \
 && setcap cap_net_admin+ep /out/weft-switch

FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/weft-switch /out/weft-telemetry /usr/local/bin/
USER nonroot
EXPOSE 9339
# distroless has no shell: no HEALTHCHECK; compose/k8s probe the gNMI port (tcpSocket 9339).
ENTRYPOINT ["/usr/local/bin/weft-switch"]
CMD ["--listen", ":9339"]
