package io.ringd.web;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openapitools.codegen.DefaultGenerator;
import org.openapitools.codegen.config.CodegenConfigurator;
import org.openapitools.codegen.config.GlobalSettings;

import io.ringd.RealServerTest;
import io.swagger.parser.OpenAPIParser;
import io.swagger.v3.parser.core.models.ParseOptions;
import io.swagger.v3.parser.core.models.SwaggerParseResult;
import tools.jackson.databind.JsonNode;

/**
 * The OpenAPI document at {@code /v3/api-docs} as a client's tooling sees it: it validates with
 * swagger-parser, a Java client generated from it with openapi-generator compiles, and its request
 * bodies, error answers and media types describe what goes over the wire. It reads the document only,
 * so it runs on the server the other API tests share.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class OpenApiDocumentTest extends RealServerTest {

    static final String JSON_TYPE = "application/json";

    /** The document as served, and parsed. */
    String text;
    JsonNode doc;

    @BeforeAll
    void fetchDocument() throws IOException, InterruptedException {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> r = http.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/v3/api-docs"))
                        .timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        assertThat(r.statusCode()).as("GET /v3/api-docs: %s", r.body()).isEqualTo(200);
        text = r.body();
        doc = JSON.readTree(text);
        assertThat(doc.path("openapi").asString("")).startsWith("3.");
    }

    // ------------------------------------------------------------ tooling

    @Test
    void document_validatesWithSwaggerParser() {
        ParseOptions options = new ParseOptions();
        options.setResolve(true);
        options.setValidateInternalRefs(true);
        SwaggerParseResult result = new OpenAPIParser().readContents(text, null, options);
        assertThat(result.getMessages()).as("swagger-parser's messages about /v3/api-docs").isEmpty();
        assertThat(result.getOpenAPI()).isNotNull();
        assertThat(result.getOpenAPI().getPaths()).containsKeys("/route/{key}", "/nodes/{id}", "/membership");
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void generatedJavaClient_compiles(@TempDir Path tmp) throws IOException {
        Path spec = Files.writeString(tmp.resolve("api-docs.json"), text);
        Path out = tmp.resolve("client");
        CodegenConfigurator config = new CodegenConfigurator()
                .setGeneratorName("java")
                .setLibrary("native") // java.net.http and Jackson: nothing the test class path lacks
                .setInputSpec(spec.toString())
                .setOutputDir(out.toString())
                .setValidateSpec(true)
                .setInvokerPackage("io.ringd.client")
                .setApiPackage("io.ringd.client.api")
                .setModelPackage("io.ringd.client.model")
                .addAdditionalProperty("useJakartaEe", true)
                .addAdditionalProperty("openApiNullable", false)
                .addAdditionalProperty("annotationLibrary", "none")
                .addAdditionalProperty("hideGenerationTimestamp", true)
                .addGlobalProperty("apiTests", "false")
                .addGlobalProperty("modelTests", "false")
                .addGlobalProperty("apiDocs", "false")
                .addGlobalProperty("modelDocs", "false");
        DefaultGenerator generator = new DefaultGenerator();
        generator.setGenerateMetadata(false);
        try {
            generator.opts(config.toClientOptInput()).generate();
        } finally {
            GlobalSettings.reset(); // the global properties above live on this thread
        }

        List<Path> sources;
        try (Stream<Path> files = Files.walk(out.resolve("src/main/java"))) {
            sources = files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
        }
        assertThat(sources).as("generated sources").isNotEmpty()
                .anySatisfy(f -> assertThat(f.getFileName().toString()).isEqualTo("ApiClient.java"));

        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        assertThat(javac).as("a JDK (javax.tools compiler) to compile the generated client").isNotNull();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Path classes = Files.createDirectories(tmp.resolve("classes"));
        List<String> options = List.of("--release", "17", "-proc:none", "-nowarn", "-encoding", "UTF-8",
                "-classpath", testClassPath(), "-d", classes.toString());
        boolean compiled;
        try (StandardJavaFileManager files = javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
            compiled = javac.getTask(null, files, diagnostics, options, null, files.getJavaFileObjectsFromPaths(sources)).call();
        }
        String errors = diagnostics.getDiagnostics().stream()
                .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                .map(d -> d.getSource() == null ? d.getMessage(Locale.ROOT)
                        : out.relativize(Path.of(d.getSource().toUri())) + ":" + d.getLineNumber() + ": " + d.getMessage(Locale.ROOT))
                .collect(Collectors.joining("\n"));
        assertThat(compiled).as("javac of the %d generated sources:%n%s", sources.size(), errors).isTrue();
        assertThat(classes.resolve("io/ringd/client/ApiClient.class")).isRegularFile();
    }

    // ------------------------------------------------------------ what the document says

    /** Request bodies are described by their fields, not by the JSON library's tree type. */
    @Test
    void requestBodies_describeTheirFields() {
        SoftAssertions soft = new SoftAssertions();

        JsonNode node = requestSchema("put", "/nodes/{id}");
        soft.assertThat(propertyNames(node)).as("PUT /nodes/{id} body properties").contains("weight", "zone",
                "hashKey");

        for (String path : List.of("/membership", "/diff")) {
            JsonNode batch = requestSchema("post", path);
            soft.assertThat(propertyNames(batch)).as("POST %s body properties", path).contains("changes");
            JsonNode changes = property(batch, "changes");
            soft.assertThat(hasType(changes, "array")).as("POST %s: changes is an array: %s", path, changes).isTrue();
            soft.assertThat(propertyNames(resolve(changes.path("items"))))
                    .as("POST %s: properties of an item of changes", path)
                    .contains("op", "id", "weight", "zone", "hashKey");
        }

        JsonNode route = requestSchema("post", "/route");
        soft.assertThat(propertyNames(route)).as("POST /route body properties").contains("keys");
        JsonNode keys = property(route, "keys");
        soft.assertThat(hasType(keys, "array")).as("POST /route: keys is an array: %s", keys).isTrue();
        soft.assertThat(hasType(resolve(keys.path("items")), "string")).as("POST /route: keys are strings: %s", keys).isTrue();

        JsonNode settings = requestSchema("put", "/settings");
        soft.assertThat(propertyNames(settings)).as("PUT /settings body properties")
                .contains("hash", "vnodesPerWeight", "algorithm", "maglevTableSize", "ketamaFlavor");

        // No request body, wherever it is, points at a JSON tree type.
        forEachOperation((op, operation) -> {
            JsonNode body = resolve(operation.path("requestBody"));
            body.path("content").properties().forEach(media -> soft
                    .assertThat(media.getValue().path("schema").path("$ref").asString(""))
                    .as("%s request body (%s) schema", op, media.getKey())
                    .doesNotContainPattern("(Json|Object|Array|Tree)Node$"));
        });
        soft.assertAll();
    }

    /** Every error answer is a problem detail naming the field at fault. */
    @Test
    void errorAnswers_areProblemDetailsWithAField() {
        SoftAssertions soft = new SoftAssertions();
        int errors = 0;
        for (Map.Entry<String, JsonNode> e : operations().entrySet()) {
            for (Map.Entry<String, JsonNode> response : e.getValue().path("responses").properties()) {
                if (!response.getKey().startsWith("4") && !response.getKey().startsWith("5")) {
                    continue;
                }
                errors++;
                String what = e.getKey() + " " + response.getKey();
                JsonNode content = resolve(response.getValue()).path("content");
                soft.assertThat(content.has(PROBLEM_JSON)).as("%s content types %s", what, content.propertyNames()).isTrue();
                soft.assertThat(propertyNames(resolve(content.path(PROBLEM_JSON).path("schema"))))
                        .as("%s problem schema properties", what)
                        .contains("type", "title", "status", "detail", "field");
            }
        }
        assertThat(errors).as("error answers in the document").isPositive();
        soft.assertAll();
    }

    /** GET /ring answers 304 to a matching If-None-Match, and a 304 has no body. */
    @Test
    void notModified_hasNoContent() {
        JsonNode responses = operation("get", "/ring").path("responses");
        assertThat(responses.propertyNames()).as("GET /ring answers").contains("304");
        JsonNode notModified = resolve(responses.path("304"));
        assertThat(notModified.path("content").size()).as("content of GET /ring 304: %s", notModified.path("content")).isZero();
    }

    /**
     * Every success answer names its media type: application/json, or text/event-stream for the change stream;
     * a 204 (a ring deleted) has no content at all.
     */
    @Test
    void successAnswers_nameTheirMediaType() {
        SoftAssertions soft = new SoftAssertions();
        forEachOperation((op, operation) -> {
            for (Map.Entry<String, JsonNode> response : operation.path("responses").properties()) {
                if (!response.getKey().startsWith("2")) {
                    continue;
                }
                if (response.getKey().equals("204")) {
                    soft.assertThat(resolve(response.getValue()).path("content").isMissingNode()
                            || resolve(response.getValue()).path("content").isEmpty())
                            .as("%s 204 has no content", op).isTrue();
                    continue;
                }
                List<String> types = new ArrayList<>(resolve(response.getValue()).path("content").propertyNames());
                String expected = op.equals("GET /ring/events") ? "text/event-stream" : JSON_TYPE;
                soft.assertThat(types).as("%s %s media types", op, response.getKey())
                        .contains(expected).noneMatch(t -> t.contains("*"));
            }
        });
        soft.assertAll();
    }

    // ------------------------------------------------------------ helpers

    /** The test class path: surefire's, or this JVM's outside surefire. */
    private static String testClassPath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path", "") + File.pathSeparator;
    }

    /** Every operation, by "METHOD path". */
    private Map<String, JsonNode> operations() {
        Map<String, JsonNode> ops = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> path : doc.path("paths").properties()) {
            for (Map.Entry<String, JsonNode> method : path.getValue().properties()) {
                if (List.of("get", "put", "post", "delete", "patch", "head", "options").contains(method.getKey())) {
                    ops.put(method.getKey().toUpperCase(Locale.ROOT) + " " + path.getKey(), method.getValue());
                }
            }
        }
        assertThat(ops).as("operations in the document").isNotEmpty();
        return ops;
    }

    private void forEachOperation(java.util.function.BiConsumer<String, JsonNode> check) {
        operations().forEach(check);
    }

    private JsonNode operation(String method, String path) {
        JsonNode op = doc.path("paths").path(path).path(method);
        assertThat(op.isObject()).as("%s %s in the document", method, path).isTrue();
        return op;
    }

    /** The application/json schema of an operation's request body, references resolved. */
    private JsonNode requestSchema(String method, String path) {
        JsonNode body = resolve(operation(method, path).path("requestBody"));
        assertThat(body.path("content").has(JSON_TYPE))
                .as("%s %s request body content types %s", method, path, body.path("content").propertyNames()).isTrue();
        return resolve(body.path("content").path(JSON_TYPE).path("schema"));
    }

    /** Follows {@code $ref} (local references such as {@code #/components/schemas/X}) to what it names. */
    private JsonNode resolve(JsonNode node) {
        for (int hops = 0; node.has("$ref"); hops++) {
            String ref = node.get("$ref").asString();
            assertThat(ref).as("a local reference").startsWith("#/");
            assertThat(hops).as("reference chain from %s", ref).isLessThan(32);
            JsonNode at = doc;
            for (String part : ref.substring(2).split("/")) {
                at = at.path(part.replace("~1", "/").replace("~0", "~"));
            }
            assertThat(at.isMissingNode()).as("%s names something in the document", ref).isFalse();
            node = at;
        }
        return node;
    }

    /** The properties of a schema, with those of its allOf parts. */
    private Map<String, JsonNode> properties(JsonNode schema) {
        Map<String, JsonNode> props = new LinkedHashMap<>();
        JsonNode s = resolve(schema);
        s.path("properties").properties().forEach(p -> props.put(p.getKey(), p.getValue()));
        for (JsonNode part : s.path("allOf")) {
            props.putAll(properties(part));
        }
        return props;
    }

    private List<String> propertyNames(JsonNode schema) {
        return new ArrayList<>(properties(schema).keySet());
    }

    /** A property's schema, references resolved; a missing node when there is no such property. */
    private JsonNode property(JsonNode schema, String name) {
        JsonNode p = properties(schema).get(name);
        return p == null ? JSON.missingNode() : resolve(p);
    }

    /** Whether a schema's type is {@code type}: {@code "type": "array"} (3.0) or {@code "type": ["array", "null"]} (3.1). */
    private static boolean hasType(JsonNode schema, String type) {
        JsonNode t = schema.path("type");
        if (t.isString()) {
            return t.asString().equals(type);
        }
        for (JsonNode each : t) {
            if (each.asString("").equals(type)) {
                return true;
            }
        }
        return false;
    }
}
