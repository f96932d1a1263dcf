# syntax=docker/dockerfile:1
# Build stage: cgo is needed for SQLite (mattn/go-sqlite3).
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
ARG VERSION=dev
RUN CGO_ENABLED=1 go build -trimpath -ldflags "-s -w -X main.version=${VERSION}" -o /out/mediateka ./cmd/mediateka

# Run stage: espeak-ng for offline speech; ffmpeg for probing, the player's remux
# (video copied, audio to AAC) and thumbnails.
FROM debian:12-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates espeak-ng ffmpeg tzdata \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --home-dir /data --shell /usr/sbin/nologin mediateka \
 && mkdir -p /data && chown mediateka:mediateka /data
COPY --from=build /out/mediateka /usr/local/bin/mediateka
USER mediateka
ENV MEDIATEKA_DATA_DIR=/data
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["mediateka", "healthcheck", "--config", "/data/config.json"]
ENTRYPOINT ["mediateka"]
CMD ["serve", "--config", "/data/config.json"]
