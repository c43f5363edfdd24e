# Shared by cluster/run and cluster/speed (sourced, from trino/): finds a JDK 25, fetches the server and the CLI
# from Maven Central, unpacks a server with the tpch connector and this plugin only, and starts nodes on
# 127.0.0.1 only. Everything started is stopped by the EXIT trap, whatever happens.
trino_version=$(sed -n 's:.*<trino.version>\(.*\)</trino.version>.*:\1:p' pom.xml)
version=$(sed -n '0,/<version>/s:.*<version>\(.*\)</version>.*:\1:p' pom.xml)
bc_version=$(sed -n 's:.*<bouncycastle.version>\(.*\)</bouncycastle.version>.*:\1:p' pom.xml)
zip=target/sm3-ffm-trino-$version.zip
# Maven's local repository, wherever settings.xml puts it (Maven 3.8 wraps what it prints in colour codes).
m2=$(mvn -B -ntp -q help:evaluate -Dexpression=settings.localRepository -DforceStdout | sed 's/\x1b\[[0-9;]*m//g')
bc_jar=$m2/org/bouncycastle/bcprov-jdk18on/$bc_version/bcprov-jdk18on-$bc_version.jar
for f in "$zip" "$bc_jar" target/test-classes/io/github/sm3ffm/trino/ClusterCheck.class; do
    [[ -f $f ]] || { echo "cluster: $f missing; run mvn verify in trino/ first" >&2; exit 2; }
done

# A JDK 25 or later for the servers, the CLI and the check.
java_home=$(../bin/find-jdk 25) || exit 2
export JAVA_HOME=$java_home PATH=$java_home/bin:$PATH

# The server tarball and the CLI from Maven Central, used where Maven keeps them: a copy in target/ would keep
# the 821 MB tarball twice.
server_tar=$m2/io/trino/trino-server/$trino_version/trino-server-$trino_version.tar.gz
cli_jar=$m2/io/trino/trino-cli/$trino_version/trino-cli-$trino_version-executable.jar
if [[ ! -f $server_tar || ! -f $cli_jar ]]; then
    mvn -B -ntp -q dependency:get -Dtransitive=false -Dartifact="io.trino:trino-server:$trino_version:tar.gz"
    mvn -B -ntp -q dependency:get -Dtransitive=false -Dartifact="io.trino:trino-cli:$trino_version:jar:executable"
fi

work=$(mktemp -d)
pids=()
stop() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do
        for _ in $(seq 60); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
        kill -9 "$pid" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap stop EXIT

# The server with the tpch connector ($keep_plugin besides, if set) and this plugin only: every other plugin
# would cost start-up time.
tar -xzf "$server_tar" -C "$work"
server=$work/trino-server-$trino_version
find "$server/plugin" -mindepth 1 -maxdepth 1 ! -name tpch ! -name "${keep_plugin:-tpch}" -exec rm -rf {} +
(cd "$server/plugin" && "$java_home/bin/jar" xf "$OLDPWD/$zip")
echo "cluster: Trino $trino_version, plugin folder $(ls "$server/plugin" | tr '\n' ' ')"

free_port() {
    python3 -c "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1])"
}
coordinator_port=$(free_port)

# node NAME PORT COORDINATOR JVM_EXTRA: an etc/ directory for one node, listening on 127.0.0.1 only.
node() {
    local name=$1 port=$2 coordinator=$3 extra=${4:-}
    local etc=$work/$name/etc heap=1500M per_node=512MB
    [[ $coordinator == true ]] || { heap=${worker_heap:-1500M}; per_node=${query_memory:-512MB}; }
    mkdir -p "$etc/catalog" "$work/$name/data"
    cat >"$etc/node.properties" <<PROPERTIES
node.environment=sm3ffm_test
node.id=$name
node.data-dir=$work/$name/data
node.bind-ip=127.0.0.1
node.internal-address=127.0.0.1
PROPERTIES
    cat >"$etc/config.properties" <<PROPERTIES
coordinator=$coordinator
node-scheduler.include-coordinator=false
http-server.http.port=$port
discovery.uri=http://127.0.0.1:$coordinator_port
query.max-memory=${query_memory:-1GB}
query.max-memory-per-node=$per_node
PROPERTIES
    cat >"$etc/jvm.config" <<JVM
-server
-Xmx$heap
-XX:+UseG1GC
-XX:+ExitOnOutOfMemoryError
-Djdk.attach.allowAttachSelf=true
--enable-native-access=ALL-UNNAMED
$extra
JVM
    echo "connector.name=tpch" >"$etc/catalog/tpch.properties"
    if [[ ${keep_plugin:-} == memory ]]; then
        printf 'connector.name=memory\nmemory.max-data-per-node=6GB\n' >"$etc/catalog/memory.properties"
    fi
    "$server/bin/launcher" run --etc-dir="$etc" --data-dir="$work/$name/data" >"$work/$name.log" 2>&1 &
    pids+=($!)
}

cli() {
    "$java_home/bin/java" --enable-native-access=ALL-UNNAMED -Dorg.jline.terminal.dumb=true -jar "$cli_jar" --server "http://127.0.0.1:$coordinator_port" --catalog tpch \
        --schema tiny "$@"
}

# Waits until the coordinator sees exactly one active worker named $1.
wait_for_worker() {
    local worker=$1
    for _ in $(seq 180); do
        if [[ $(cli --output-format TSV --execute "SELECT count(*) FROM system.runtime.nodes
                WHERE node_id = '$worker' AND state = 'active' AND NOT coordinator" 2>/dev/null) == 1 ]]; then
            return 0
        fi
        sleep 1
    done
    echo "cluster: worker $worker did not become active within 180 s" >&2
    tail -30 "$work"/*.log >&2
    exit 1
}

