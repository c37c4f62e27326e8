# The standalone controller (no ONOS): plans the fabric, configures switches over gNMI, publishes
# weft.fabric, serves GET /fabric, /healthz, /devices, /metrics.
#   docker build -f deploy/docker/controller.Dockerfile -t weft/controller:0.1.0 .
# Same two stages as java-service.Dockerfile with the module fixed. No HEALTHCHECK: the JRE base
# has no HTTP client, so compose and Kubernetes probe the health endpoint named in deploy/README.md.
FROM eclipse-temurin:17.0.17_10-jdk-noble AS build
WORKDIR /src
COPY . .
RUN ./mvnw -B -q -pl controller-app/standalone -am package -DskipTests \
 && mkdir /out && cp controller-app/standalone/target/*.jar /out/ && cp -r controller-app/standalone/target/lib /out/lib \
 && rm -f /out/*-tests.jar /out/*-sources.jar

FROM eclipse-temurin:17.0.17_10-jre-noble
ENV JAVA_OPTS="-XX:MaxRAMPercentage=75"
WORKDIR /app
COPY --from=build /out/ /app/
RUN useradd --system --uid 10001 weft && mkdir -p /var/lib/weft && chown 10001 /var/lib/weft
USER 10001
EXPOSE 8282
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -cp '/app/*:/app/lib/*' io.weft.controller.standalone.StandaloneController \"$@\"", "--"]
CMD ["--fabric", "/fabric/fabric.json", "--kafka", "kafka:9092", "--http-host", "0.0.0.0", "--http-port", "8282", "--state-dir", "/var/lib/weft/controller"]
