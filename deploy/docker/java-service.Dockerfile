# One image recipe for every Weft Java service: build the module with the Maven wrapper, then run
# its main class on a JRE with the module's runtime classpath (target/*.jar + target/lib).
#   docker build -f deploy/docker/java-service.Dockerfile \
#     --build-arg MODULE=controller-app/standalone \
#     --build-arg MAIN=io.weft.controller.standalone.StandaloneController -t weft/controller:0.1.0 .
# The per-service files (controller.Dockerfile, scheduler-api.Dockerfile, ...) are this recipe with
# the arguments fixed, so that `docker build -f deploy/docker/<service>.Dockerfile .` needs none.
# Bases pinned by version (Temurin 17.0.17 on Ubuntu noble); the JRE stage has a shell, so the
# compose/k8s probes may also exec into it, but health is probed over HTTP from outside.
FROM eclipse-temurin:17.0.17_10-jdk-noble AS build
ARG MODULE
WORKDIR /src
COPY . .
RUN ./mvnw -B -q -pl "${MODULE}" -am package -DskipTests \
 && mkdir /out && cp "${MODULE}"/target/*.jar /out/ && cp -r "${MODULE}"/target/lib /out/lib \
 && rm -f /out/*-tests.jar /out/*-sources.jar

FROM eclipse-temurin:17.0.17_10-jre-noble
ARG MAIN
ENV WEFT_MAIN=${MAIN} JAVA_OPTS="-XX:MaxRAMPercentage=75"
WORKDIR /app
COPY --from=build /out/ /app/
RUN useradd --system --uid 10001 weft
USER 10001
ENTRYPOINT ["sh", "-c", "exec java $JAVA_OPTS -cp '/app/*:/app/lib/*' \"$WEFT_MAIN\" \"$@\"", "--"]
