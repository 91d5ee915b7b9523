# syntax=docker/dockerfile:1
#
# Image of network-controller: a static Go binary on distroless, running as nonroot.
#
#   docker build -t network-controller:latest .
#
# The build needs no network: every dependency is vendored (vendor/), GOPROXY=off and
# GOFLAGS=-mod=vendor make any attempt to download a module fail instead of succeeding
# silently, and GOTOOLCHAIN=local forbids fetching another Go toolchain.
#
# Base images are pinned by tag. For reproducible builds pin them by digest as well
# (docker buildx imagetools inspect golang:1.26-bookworm) and let a bot bump them.

# Debian-based Go image (not alpine): same libc family as the distroless base, although
# the binary is static and needs none.
ARG GO_IMAGE=golang:1.26-bookworm
ARG BASE_IMAGE=gcr.io/distroless/static-debian12:nonroot

FROM ${GO_IMAGE} AS build
# What the binary names itself (-version, User-Agent, build_info metric); hack/image.sh
# passes hack/version.sh's answers, as the context has no .git to read them from.
ARG VERSION=v0.0.0-dev
ARG COMMIT=unknown
WORKDIR /src
ENV CGO_ENABLED=0 \
    GOFLAGS="-mod=vendor -buildvcs=false" \
    GOPROXY=off \
    GOSUMDB=off \
    GOTOOLCHAIN=local
COPY . .
# The cache mount only keeps Go's build cache between builds (BuildKit); it downloads
# nothing.
RUN --mount=type=cache,target=/root/.cache/go-build \
    go build -mod=vendor -trimpath -o /network-controller \
      -ldflags="-s -w -X github.com/samplecrd/network-controller/pkg/buildinfo.version=${VERSION} -X github.com/samplecrd/network-controller/pkg/buildinfo.commit=${COMMIT}" .

FROM ${BASE_IMAGE}
COPY --from=build /network-controller /network-controller
# distroless "nonroot": uid/gid 65532. Numeric, so runAsNonRoot can verify it.
USER 65532:65532
ENTRYPOINT ["/network-controller"]
