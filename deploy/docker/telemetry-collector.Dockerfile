# telemetry-collector: gnmic events and flow reports in, link loads and hotspots out (Kafka Streams).
#   docker build -f deploy/docker/telemetry-collector.Dockerfile -t weft/telemetry-collector:0.1.0 .
# Same two stages as java-service.Dockerfile with the module fixed. No HEALTHCHECK: the JRE base
# has no HTTP client, so compose and Kubernetes probe the health endpoint named in deploy/README.md.
FROM eclipse-temurin:17.0.17_10-jdk-noble AS build
WORKDIR /src
COPY . .
RUN ./mvnw -B -q -pl telemetry-collector -am package -DskipTests \
 && mkdir /out && cp telemetry-collector/target/*.jar /out/ && cp -r telemetry-collector/target/lib /out/lib \
 && rm -f /out/*-tests.jar /out/*-sources.jar

FROM eclipse-temurin:17.0.17_10-jre-noble
ENV JAVA_OPTS="-XX:MaxRAMPercentage=75"
WORKDIR /app
COPY --from=build /out/ /app/
RUN useradd --system --uid 10001 weft && mkdir -p /var/lib/weft && chown 10001 /var/lib/weft
USER 10001
EXPOSE 8083
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -cp '/app/*:/app/lib/*' io.weft.telemetry.TelemetryCollectorApplication \"$@\"", "--"]
