# scheduler-api: jobs in, paths out, agent long-polls and reports (Spring Boot on Jetty).
#   docker build -f deploy/docker/scheduler-api.Dockerfile -t weft/scheduler-api:0.1.0 .
# Same two stages as java-service.Dockerfile with the module fixed. No HEALTHCHECK: the JRE base
# has no HTTP client, so compose and Kubernetes probe the health endpoint named in deploy/README.md.
FROM eclipse-temurin:17.0.17_10-jdk-noble AS build
WORKDIR /src
COPY . .
RUN ./mvnw -B -q -pl scheduler-api -am package -DskipTests \
 && mkdir /out && cp scheduler-api/target/*.jar /out/ && cp -r scheduler-api/target/lib /out/lib \
 && rm -f /out/*-tests.jar /out/*-sources.jar

FROM eclipse-temurin:17.0.17_10-jre-noble
# The parallel collector: request/response garbage on a small heap; G1's concurrent and refinement
# threads cost CPU on every agent woken (docs/OPERATIONS.md, "scheduler-api"). Its full collections at
# start-up on reaching the class-metadata threshold are avoided by one above the service's ~65 MB.
ENV JAVA_OPTS="-XX:MaxRAMPercentage=75 -XX:+UseParallelGC -XX:MetaspaceSize=96m"
WORKDIR /app
COPY --from=build /out/ /app/
RUN useradd --system --uid 10001 weft && mkdir -p /var/lib/weft && chown 10001 /var/lib/weft
USER 10001
EXPOSE 8082
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -cp '/app/*:/app/lib/*' io.weft.scheduler.SchedulerApiApplication \"$@\"", "--"]
