# Prepares a Volto 18 app from tests/e2e/volto-app/, built for one backend and port, in a
# directory outside the clone; sourced by `run` and `serve-volto`. A build is reused while the
# template files, the build-time values and the Node version stay the same.
#
# prepare_volto DIR CACHE BACKEND_URL PORT
#   DIR          where the app lives (its node_modules and build/)
#   CACHE        where pnpm and its package store live (shared between apps)
#   BACKEND_URL  Volto's proxy target, e.g. http://localhost:8080/Plone
#   PORT         the port Volto's server listens on
# Leaves RAZZLE_DEV_PROXY_API_PATH and PORT exported for starting `node build/server.js`.

# Announces a stage: the caller's `phase` when it has one (to time it), else a heading.
volto_stage() {
    if declare -F phase >/dev/null; then phase "$1"; else printf '\n== volto: %s\n' "$1"; fi
}

prepare_volto() {
    local dir=$1 cache=$2 backend_url=$3 port=$4
    local template
    template="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/volto-app"
    local pnpm="$cache/pnpm/node_modules/.bin/pnpm"
    if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
        apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q nodejs npm
    fi
    local node_major
    node_major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
    if [ "$node_major" -lt 20 ] || [ "$node_major" -gt 22 ]; then
        echo "volto: Volto 18 needs Node 20 or 22 (and npm) on the PATH; found '$(node --version 2>/dev/null)'" >&2
        return 1
    fi
    # Razzle freezes every RAZZLE_* (and PORT) set at build time into the bundle: the build and
    # the production server get exactly these, and nothing inherited.
    while IFS='=' read -r name _; do unset "$name"; done < <(env | grep '^RAZZLE_' || true)
    export RAZZLE_DEV_PROXY_API_PATH="$backend_url"
    export PORT="$port"
    local build_env="RAZZLE_DEV_PROXY_API_PATH=$RAZZLE_DEV_PROXY_API_PATH PORT=$PORT node=$(node --version)"
    local key
    key=$(
        cd "$template"
        find . -type f ! -name '*.swp' | LC_ALL=C sort | while read -r f; do
            printf '%s\n' "$f"
            cat "$f"
        done
        printf '%s\n' "$build_env"
    ) && key=$(printf '%s\n' "$key" | sha256sum | cut -d' ' -f1)
    if [ -f "$dir/.e2e-build-key" ] && [ "$(cat "$dir/.e2e-build-key")" = "$key" ] && [ -f "$dir/build/server.js" ]; then
        volto_stage "volto (cache hit, key ${key:0:12})"
        return 0
    fi
    volto_stage "volto install"
    if [ ! -x "$pnpm" ]; then
        npm i --no-audit --no-fund --prefix "$cache/pnpm" pnpm@10
    fi
    rm -f "$dir/.e2e-build-key"
    mkdir -p "$dir"
    rm -rf "$dir/src" "$dir/build"
    cp -a "$template/." "$dir/"
    (
        cd "$dir"
        local lock=--no-frozen-lockfile
        [ -f "$template/pnpm-lock.yaml" ] && lock=--frozen-lockfile
        "$pnpm" install "$lock" --store-dir "$cache/pnpm-store" --reporter=append-only
        local volto=node_modules/@plone/volto
        rm -rf public locales theme
        cp -a "$volto/public" "$volto/locales" .
        mkdir -p theme
        cp "$volto/theme/theme.config" theme/
    )
    volto_stage "volto build"
    (cd "$dir" && NODE_OPTIONS=--max-old-space-size=4096 node_modules/.bin/razzle build --noninteractive)
    echo "$key" >"$dir/.e2e-build-key"
}
