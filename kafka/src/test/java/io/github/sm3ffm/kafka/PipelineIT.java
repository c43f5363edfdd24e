package io.github.sm3ffm.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.sm3ffm.SM3Provider;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.AppInfoParser;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.json.JsonConverter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The transform in a real pipeline, all on 127.0.0.1 and stopped at the end: a one-node KRaft broker
 * ({@code kafka.Kafka}) and a Connect standalone worker ({@code ConnectStandalone}), each a JVM of its own, with
 * this module's jar and the library's in a directory of the worker's {@code plugin.path}, as a user installs
 * them. Two {@code FileStreamSource} connectors read one file of lines through {@code HoistField$Value} (field
 * {@code line}) and {@code HashField$Value} into a topic each (connect-file 4.3.1, the newest on Maven Central, with the
 * one method of Kafka's that 4.4.0 moved put back: {@link AppInfoParser}): SM3 in hex, and HmacSM3 in Base64 under a key that
 * Kafka's {@code FileConfigProvider} supplies. Half the lines are written before the worker starts, half while it
 * runs; the topics' records are checked against BouncyCastle, and neither the task nor the transform may log an
 * ERROR while records flow.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PipelineIT {
    private static final Duration START = Duration.ofSeconds(120);
    private static final Duration FLOW = Duration.ofSeconds(120);
    private static final String SECRET = "the pipeline's HMAC key, \u5bc6\u94a5";
    private static final List<String> LINES = IntStream.range(0, 400)
            .mapToObj(i -> i % 50 == 0 ? "" : "line " + i + " \u59d3\u540d\u5f20\u4e09 " + "x".repeat(i % 90))
            .toList();
    private static final List<String> JVM_OPTIONS = List.of("-Xmx384m", "-XX:+UseSerialGC",
            "--enable-native-access=ALL-UNNAMED");

    private static Path dir;
    private static ChildJvm broker;
    private static ChildJvm worker;
    private static String bootstrap;
    private static int restPort;

    @BeforeAll
    static void startBrokerAndWorker() throws Exception {
        dir = Files.createTempDirectory("sm3-ffm-kafka-pipeline");
        int brokerPort = freePort();
        int controllerPort = freePort();
        restPort = freePort();
        bootstrap = "127.0.0.1:" + brokerPort;
        Path log4j = write("log4j2.properties", """
                appender.out.type = Console
                appender.out.name = out
                appender.out.layout.type = PatternLayout
                appender.out.layout.pattern = [%d] %p %m (%c)%n
                rootLogger.level = INFO
                rootLogger.appenderRef.out.ref = out
                """);
        List<String> options = new ArrayList<>(JVM_OPTIONS);
        options.add("-Dlog4j2.configurationFile=" + log4j);
        // The worker and the broker see Kafka's jars only: this module and the library are plugins.
        String kafkaClassPath = ChildJvm.classPath(e -> Path.of(e).getFileName().toString().startsWith("sm3-ffm")
                || e.endsWith("classes") || e.endsWith("classes/")) + File.pathSeparator + connectFileBridge();

        Path server = write("server.properties", String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controllerPort,
                "listeners=PLAINTEXT://" + bootstrap + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=PLAINTEXT://" + bootstrap,
                "controller.listener.names=CONTROLLER",
                "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
                "inter.broker.listener.name=PLAINTEXT",
                "log.dirs=" + dir.resolve("kraft"),
                "num.partitions=1",
                "offsets.topic.replication.factor=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0"));
        ChildJvm format = ChildJvm.start("kafka-storage format", dir.resolve("format.log"), options, kafkaClassPath,
                "kafka.tools.StorageTool", "format", "-t", Uuid.randomUuid().toString(), "-c", server.toString());
        assertEquals(0, format.waitFor(START), format::tail);
        broker = ChildJvm.start("broker", dir.resolve("broker.log"), options, kafkaClassPath, "kafka.Kafka",
                server.toString());
        try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
            awaitTrue("the broker to serve", START, broker, () -> {
                try {
                    return !admin.describeCluster().nodes().get(10, TimeUnit.SECONDS).isEmpty();
                } catch (Exception e) {
                    return false;
                }
            });
            admin.createTopics(List.of(new NewTopic("sm3-lines", 1, (short) 1),
                    new NewTopic("hmac-lines", 1, (short) 1))).all().get(START.toSeconds(), TimeUnit.SECONDS);
        }

        Path plugin = Files.createDirectories(dir.resolve("plugins/sm3-ffm-kafka"));
        Path moduleJar = Path.of(System.getProperty("plugin.jar"));
        Path libraryJar = Path.of(SM3Provider.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(Files.isRegularFile(libraryJar), libraryJar + " is the library's jar");
        Files.copy(moduleJar, plugin.resolve(moduleJar.getFileName()));
        Files.copy(libraryJar, plugin.resolve(libraryJar.getFileName()));

        Path lines = dir.resolve("lines.txt");
        Files.write(lines, LINES.subList(0, LINES.size() / 2), StandardCharsets.UTF_8);
        Path secrets = write("secrets.properties", "hmac.key=" + SECRET.replace("\\", "\\\\") + "\n");
        Path workerProperties = write("worker.properties", String.join("\n",
                "bootstrap.servers=" + bootstrap,
                "listeners=http://127.0.0.1:" + restPort,
                "key.converter=org.apache.kafka.connect.storage.StringConverter",
                "value.converter=org.apache.kafka.connect.json.JsonConverter",
                "value.converter.schemas.enable=true",
                "offset.storage.file.filename=" + dir.resolve("connect.offsets"),
                "offset.flush.interval.ms=1000",
                "plugin.path=" + dir.resolve("plugins"),
                // The module's jar declares its transforms in META-INF/services: no scanning needed.
                "plugin.discovery=service_load",
                "config.providers=file",
                "config.providers.file.class=org.apache.kafka.common.config.provider.FileConfigProvider"));
        Path sm3 = write("sm3-lines.properties", String.join("\n",
                "name=sm3-lines",
                "connector.class=org.apache.kafka.connect.file.FileStreamSourceConnector",
                "tasks.max=1",
                "file=" + lines,
                "topic=sm3-lines",
                "transforms=hoist,hash",
                "transforms.hoist.type=org.apache.kafka.connect.transforms.HoistField$Value",
                "transforms.hoist.field=line",
                "transforms.hash.type=io.github.sm3ffm.kafka.HashField$Value",
                "transforms.hash.fields=line"));
        Path hmac = write("hmac-lines.properties", String.join("\n",
                "name=hmac-lines",
                "connector.class=org.apache.kafka.connect.file.FileStreamSourceConnector",
                "tasks.max=1",
                "file=" + lines,
                "topic=hmac-lines",
                "transforms=hoist,hash",
                "transforms.hoist.type=org.apache.kafka.connect.transforms.HoistField$Value",
                "transforms.hoist.field=line",
                "transforms.hash.type=io.github.sm3ffm.kafka.HashField$Value",
                "transforms.hash.fields=line",
                "transforms.hash.algorithm=HmacSM3",
                "transforms.hash.hmac.key=${file:" + secrets + ":hmac.key}",
                "transforms.hash.encoding=base64"));
        worker = ChildJvm.start("worker", dir.resolve("worker.log"), options, kafkaClassPath,
                "org.apache.kafka.connect.cli.ConnectStandalone", workerProperties.toString(), sm3.toString(),
                hmac.toString());
        awaitTrue("both connectors and their tasks to run", START, worker,
                () -> running("sm3-lines") && running("hmac-lines"));
        Files.write(lines, LINES.subList(LINES.size() / 2, LINES.size()), StandardCharsets.UTF_8,
                StandardOpenOption.APPEND);
    }

    @AfterAll
    static void stop() throws IOException {
        try {
            if (worker != null) {
                worker.close();
            }
        } finally {
            try {
                if (broker != null) {
                    broker.close();
                }
            } finally {
                if (dir != null) {
                    try (Stream<Path> files = Files.walk(dir)) {
                        for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                            Files.deleteIfExists(p);
                        }
                    }
                }
            }
        }
    }

    @Test
    @Order(1)
    void sm3LinesArriveAsHexDigests() {
        List<String> expected = LINES.stream()
                .map(l -> HexFormat.of().formatHex(BouncyCastleSM3.sm3(l.getBytes(StandardCharsets.UTF_8))))
                .toList();
        assertEquals(expected, lines("sm3-lines"));
    }

    @Test
    @Order(2)
    void hmacLinesArriveAsBase64TagsUnderTheProvidedKey() {
        byte[] key = SECRET.getBytes(StandardCharsets.UTF_8);
        List<String> expected = LINES.stream()
                .map(l -> Base64.getEncoder().encodeToString(BouncyCastleSM3.hmacSm3(key,
                        l.getBytes(StandardCharsets.UTF_8))))
                .toList();
        assertEquals(expected, lines("hmac-lines"));
    }

    @Test
    @Order(3)
    void noErrorWhileRecordsFlowAndTheKeyNeverShows() throws Exception {
        assertTrue(running("sm3-lines") && running("hmac-lines"), "the tasks still run");
        String log = worker.output();
        List<String> errors = log.lines().filter(l -> l.matches("\\[[^]]+] (ERROR|FATAL) .*")).toList();
        assertEquals(List.of(), errors, worker::tail);
        assertTrue(log.contains("io.github.sm3ffm.kafka.HashField"), "the worker logged the transform's config");
        assertFalse(log.contains(SECRET), "the key is in the worker's log");
        String config = get("/connectors/hmac-lines/config");
        assertFalse(config.contains(SECRET), config);
        String plugins = get("/connector-plugins?connectorsOnly=false");
        assertTrue(plugins.contains("io.github.sm3ffm.kafka.HashField$Value"), plugins);
    }

    /** The topic's values, each the {@code line} field's text of a Struct whose schema says STRING. */
    private static List<String> lines(String topic) {
        JsonConverter json = new JsonConverter();
        json.configure(Map.of("schemas.enable", "true"), false);
        Properties p = new Properties();
        p.put("bootstrap.servers", bootstrap);
        p.put("group.id", "check-" + topic);
        p.put("auto.offset.reset", "earliest");
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(p, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + FLOW.toNanos();
            while (values.size() < LINES.size() && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofSeconds(1))) {
                    SchemaAndValue v = json.toConnectData(topic, r.value());
                    assertEquals(Schema.Type.STRING, v.schema().field("line").schema().type());
                    values.add(((Struct) v.value()).getString("line"));
                }
            }
        }
        assertEquals(LINES.size(), values.size(), () -> topic + ": records within " + FLOW + "\n" + worker.tail());
        return values;
    }

    private static boolean running(String connector) {
        try {
            JsonNode status = new ObjectMapper().readTree(get("/connectors/" + connector + "/status"));
            return "RUNNING".equals(status.path("connector").path("state").asText())
                    && status.path("tasks").size() == 1
                    && "RUNNING".equals(status.path("tasks").get(0).path("state").asText());
        } catch (IOException | RuntimeException e) {
            return false;
        }
    }

    private static String get(String path) throws IOException {
        try (HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + restPort + path))
                    .timeout(Duration.ofSeconds(10)).build();
            return http.send(request, HttpResponse.BodyHandlers.ofString()).body();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private static void awaitTrue(String what, Duration limit, ChildJvm jvm, BooleanSupplier condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (!jvm.isAlive() || System.nanoTime() > deadline) {
                throw new AssertionError("waited " + limit + " for " + what + "\n" + jvm.tail());
            }
            Thread.sleep(500);
        }
    }

    /** A directory holding the one class that connect-file 4.3.1 needs and Kafka 4.4.0 moved (see its Javadoc). */
    private static Path connectFileBridge() throws IOException {
        String name = AppInfoParser.class.getName().replace('.', '/') + ".class";
        Path target = dir.resolve("bridge").resolve(name);
        Files.createDirectories(target.getParent());
        try (InputStream in = AppInfoParser.class.getClassLoader().getResourceAsStream(name)) {
            Files.copy(in, target);
        }
        return dir.resolve("bridge");
    }

    private static Path write(String name, String text) throws IOException {
        return Files.writeString(dir.resolve(name), text, StandardCharsets.UTF_8);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
