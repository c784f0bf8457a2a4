# syntax=docker/dockerfile:1
# Stepwise's container image: docker build -t stepwise .
#   docker run -p 8080:8080 stepwise                       (the demo agent)
#   docker run -p 8080:8080 -e STEPWISE_BACKEND=https://agent.example/agent \
#     -e STEPWISE_PROTOCOL=ag-ui -e STEPWISE_BACKEND_HEADER="Authorization: Bearer $TOKEN" stepwise
# Every flag is also a STEPWISE_ variable: docs/deploy.md.

# The Go release of go.mod: the wasm build patches Go's runtime
# (wasm/*.patch), which another release may not take.
ARG GO_VERSION=1.26.8

FROM golang:${GO_VERSION}-bookworm AS build
# make build applies the patches with its own Go tool (tools/patchmod),
# pre-compresses app.wasm with brotli (and gzip, which the image has) and
# installs Mermaid with npm from tools/mermaid's lock (integrity-checked),
# copying only its bundle into web/. Debian's npm, of the release the Go
# image is built on; none of it reaches the final image.
RUN apt-get update \
 && apt-get install -y --no-install-recommends brotli npm \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# A static server binary: the final image has no C library.
ENV CGO_ENABLED=0
RUN make build && mkdir -p /data

# No shell, no package manager, a non-root user (65532).
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /src/bin/stepwise /stepwise
COPY --from=build /src/web /web
COPY --from=build --chown=65532:65532 /data /data
ENV STEPWISE_ADDR=:8080 \
    STEPWISE_WEB=/web \
    STEPWISE_DATA=/data/stepwise.db
# The demo agent's conversations; unused in front of a -backend.
VOLUME /data
EXPOSE 8080
USER 65532:65532
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s CMD ["/stepwise", "healthcheck"]
ENTRYPOINT ["/stepwise"]
