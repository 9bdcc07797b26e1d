# syntax=docker/dockerfile:1
#
# ringd container image.
#   docker build -t ringd .
#   docker run -p 8080:8080 -e RINGD_ADMIN_TOKEN=... -v ringd-data:/data ringd
# With a read-only root file system, give Jetty and the JVM a writable /tmp (java.io.tmpdir):
#   docker run --read-only --tmpfs /tmp -p 8080:8080 -e RINGD_ADMIN_TOKEN=... -v ringd-data:/data ringd
# docker-compose.yml runs it with Prometheus and Grafana (docs/deployment.md).
#
# The project targets Java 17; the image builds and runs on the current LTS
# (override with --build-arg JAVA_MAJOR=21 for the previous one).
ARG JAVA_MAJOR=25

# ---- build stage ---------------------------------------------------------
FROM eclipse-temurin:${JAVA_MAJOR}-jdk AS build
WORKDIR /build

# Maven wrapper and POM first: the dependency layer below is rebuilt only when
# they change, not on every source edit.
COPY mvnw pom.xml ./
COPY .mvn/ .mvn/
RUN chmod +x mvnw && ./mvnw -B -ntp -q dependency:go-offline

COPY src/ src/
RUN ./mvnw -B -ntp -DskipTests package \
 && java -Djarmode=tools -jar target/ringd.jar extract --destination /build/app

# The container health check (see HEALTHCHECK below).
COPY deploy/docker/HealthCheck.java healthcheck-src/
RUN javac --release 17 -d healthcheck healthcheck-src/HealthCheck.java

# ---- run stage -----------------------------------------------------------
FROM eclipse-temurin:${JAVA_MAJOR}-jre

# A fixed non-root uid/gid (not 1000, which Ubuntu's own "ubuntu" user has), so
# that volume ownership is predictable and runAsNonRoot policies can check it.
RUN groupadd --system --gid 10001 ringd \
 && useradd --system --uid 10001 --gid ringd --home-dir /app --no-create-home \
      --shell /usr/sbin/nologin ringd \
 && mkdir -p /app /data \
 && chown ringd:ringd /data \
 && chmod 0700 /data

WORKDIR /app
# The jar extracted (ringd.jar and lib/): class data sharing and the AOT cache need
# plain jars on the class path, not the nested jars of the executable one.
COPY --from=build /build/app/ /app/
COPY --from=build /build/healthcheck/ /app/healthcheck/

# Start-up: a training run records the classes the application loads (and, on JDK 25,
# how they are linked and first used) into a cache the JVM maps at every start
# (JEP 483/514's AOT cache, -XX:AOTCacheOutput; on a JDK without it, JDK 21 say, an
# AppCDS archive). It runs the application until its context is up
# (spring.context.exit=onRefresh) on a throwaway memory store. /app/jvm.args names the
# cache for the ENTRYPOINT below. The lookup warm-up (ringd.warmup.*) then compiles the
# lookup path before readiness turns UP.
RUN set -eu; \
    train="-Dspring.context.exit=onRefresh -jar /app/ringd.jar --ringd.store=memory \
      --ringd.data-dir=/tmp/aot-training --ringd.admin.token=aot-training-token-0123456789 --server.port=0"; \
    if java -XX:AOTCacheOutput=/app/ringd.aot $train >/tmp/aot-training.log 2>&1 && [ -s /app/ringd.aot ]; then \
      echo "-XX:AOTCache=/app/ringd.aot" >/app/jvm.args; \
    else \
      java -XX:ArchiveClassesAtExit=/app/ringd.jsa $train >/tmp/aot-training.log 2>&1; \
      echo "-XX:SharedArchiveFile=/app/ringd.jsa" >/app/jvm.args; \
    fi; \
    rm -rf /tmp/aot-training /tmp/aot-training.log

# State (ring, history, generated admin token) lives in /data. A fresh named
# volume takes the ownership set above. RINGD_ADMIN_TOKEN is never set here: give
# it at run time (docker run -e / compose); without it ringd generates one and
# keeps it in /data, readable by its owner only.
ENV RINGD_DATA_DIR=/data \
    JAVA_TOOL_OPTIONS="-XX:MaxRAMPercentage=75 -XX:InitialRAMPercentage=25 -XX:+ExitOnOutOfMemoryError"
VOLUME ["/data"]
EXPOSE 8080

USER 10001:10001

# Health check tool: a tiny Java class compiled in the build stage, run by the
# JRE that runs ringd. The JRE base image happens to ship curl and wget today,
# but not as a promise, so relying on them could break on a base image update;
# installing curl would add a package (and its CVEs) just for this. The JVM flags
# keep the checker small and quick (they override JAVA_TOOL_OPTIONS, which the
# checker JVM also reads). It checks readiness: ready means able to serve lookups.
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 \
  CMD ["java", "-Xmx16m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", \
       "-cp", "/app/healthcheck", "HealthCheck"]

# Exec form: java is PID 1 and gets SIGTERM directly, so Spring Boot shuts down gracefully.
# @/app/jvm.args: the AOT cache (or AppCDS archive) made above.
ENTRYPOINT ["java", "@/app/jvm.args", "-jar", "/app/ringd.jar"]
