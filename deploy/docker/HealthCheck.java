import java.net.HttpURLConnection;
import java.net.URI;

/**
 * The container's HEALTHCHECK: exits 0 when ringd's readiness endpoint answers 200, 1 otherwise
 * (refused, timed out, or any other status such as 503 while the ring's store is unavailable).
 *
 * <p>It needs nothing but the JRE that runs ringd, so the image does not depend on curl or wget
 * being present in the base image. The Dockerfile compiles it in the build stage; it runs as
 * {@code java -cp /app/healthcheck HealthCheck [url]}. Without an argument it checks
 * {@code http://127.0.0.1:$SERVER_PORT/actuator/health/readiness} (port 8080 by default).
 */
public final class HealthCheck {

    private HealthCheck() {
    }

    public static void main(String[] args) {
        String url = args.length > 0 ? args[0] : defaultUrl();
        int status;
        try {
            HttpURLConnection connection = (HttpURLConnection) URI.create(url).toURL().openConnection();
            connection.setConnectTimeout(2_000);
            connection.setReadTimeout(3_000);
            connection.setInstanceFollowRedirects(false);
            connection.setRequestProperty("Accept", "application/json");
            status = connection.getResponseCode();
            connection.disconnect();
        } catch (Exception e) {
            System.err.println("unhealthy: " + url + ": " + e);
            System.exit(1);
            return;
        }
        if (status == 200) {
            System.out.println("healthy: " + url + " answered 200");
            System.exit(0);
        }
        System.err.println("unhealthy: " + url + " answered " + status);
        System.exit(1);
    }

    private static String defaultUrl() {
        String port = System.getenv("SERVER_PORT");
        if (port == null || port.isBlank()) {
            port = "8080";
        }
        return "http://127.0.0.1:" + port.trim() + "/actuator/health/readiness";
    }
}
