# Sourced by the benchmark scripts: starts INSTANCES (default 1) `sca-server serve` processes of
# $SERVER on ports $PORT, $PORT+1, …, each with its own data directory under $DATA, the admin
# key $KEY, no per-client challenge budget, one server key for all (32 random bytes unless
# SCA_SERVER_KEY is set, as a PostgreSQL deployment needs), and the extra SCA_*=value
# arguments given. Sets PIDS (the processes) and URLS (`--server URL` pairs for sca-bench), stops
# them on exit, and returns once each answers /health/live.
start_instances() {
    INSTANCES=${INSTANCES:-1}; PIDS=(); URLS=()
    local key=${SCA_SERVER_KEY:-$(head -c 32 /dev/urandom | base64 | tr "+/" "-_" | tr -d "=")}
    trap 'for p in "${PIDS[@]}"; do kill -TERM $p 2>/dev/null; wait $p 2>/dev/null; done; rm -rf "$DATA"' EXIT
    for i in $(seq 0 $((INSTANCES - 1))); do
        mkdir -p "$DATA/$i"
        env SCA_ADMIN_KEY=$KEY SCA_PORT=$((PORT + i)) SCA_DATA_DIR="$DATA/$i" SCA_CHALLENGE_LIMITS_PER_CLIENT=off \
            SCA_SERVER_KEY=$key "$@" "$SERVER" serve >"$DATA/server-$i.log" 2>&1 &
        PIDS+=($!); URLS+=(--server "http://127.0.0.1:$((PORT + i))")
        for _ in $(seq 1 200); do curl -sf "http://127.0.0.1:$((PORT + i))/health/live" >/dev/null 2>&1 && break; sleep 0.1; done
    done
}
