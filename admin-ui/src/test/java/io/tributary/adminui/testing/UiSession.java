package io.tributary.adminui.testing;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One browser's view of a running admin UI over plain HTTP: its own cookie jar (so its own
 * session), redirects not followed, so a test sees the 302s and 401s as they are.
 */
public final class UiSession {

    private static final Pattern CSRF_INPUT = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");
    private static final Pattern CSRF_JSON = Pattern.compile("\"token\":\"([^\"]+)\"");

    private final URI ui;
    private final HttpClient http = HttpClient.newBuilder().cookieHandler(new CookieManager())
        .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(5)).build();

    /** @param ui the UI's base URL */
    public UiSession(URI ui) {
        this.ui = ui;
    }

    /** GET {@code path}. */
    public HttpResponse<String> get(String path) {
        return send(HttpRequest.newBuilder(ui.resolve(path)).GET());
    }

    /**
     * Signs in through the form as a browser does: the sign-in page (for its CSRF token), then the form
     * POST. Answers the POST's answer (302 to {@code /} on success, to {@code /login?error} when refused).
     */
    public HttpResponse<String> signIn(String username, String password) {
        HttpResponse<String> page = get("/login");
        Matcher token = CSRF_INPUT.matcher(page.body());
        if (!token.find()) {
            throw new AssertionError("No CSRF token on the sign-in page: " + page.body());
        }
        String form = "username=" + encode(username) + "&password=" + encode(password) + "&_csrf="
            + encode(token.group(1));
        return send(HttpRequest.newBuilder(ui.resolve("/login"))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form)));
    }

    /**
     * Signs in with OAuth2 as a browser does: {@code /oauth2/authorization/<registrationId>} on the UI
     * redirects to the provider's authorization endpoint, whose redirect (an approving stub provider
     * answers at once) goes back to the UI's callback with the code. Answers the callback's answer
     * (302 to {@code /} on success, to {@code /login?error} when refused).
     */
    public HttpResponse<String> signInWithOAuth2(String registrationId) {
        HttpResponse<String> toProvider = get("/oauth2/authorization/" + registrationId);
        HttpResponse<String> back = send(HttpRequest.newBuilder(URI.create(location(toProvider))).GET());
        return get(location(back));
    }

    private static String location(HttpResponse<String> redirect) {
        if (redirect.statusCode() != 302) {
            throw new AssertionError("Expected a redirect from " + redirect.uri() + ", got " + redirect.statusCode()
                + " " + redirect.body());
        }
        return redirect.headers().firstValue("Location").orElseThrow();
    }

    /** The CSRF token {@code GET /api/session} gives this session. */
    public String csrfToken() {
        HttpResponse<String> session = get("/api/session");
        Matcher token = CSRF_JSON.matcher(session.body());
        if (!token.find()) {
            throw new AssertionError("No CSRF token in " + session.statusCode() + " " + session.body());
        }
        return token.group(1);
    }

    /** {@code method path} with a JSON body (null for none) and the CSRF header when {@code csrf} is not null. */
    public HttpResponse<String> send(String method, String path, String json, String csrf) {
        HttpRequest.Builder request = HttpRequest.newBuilder(ui.resolve(path)).method(method,
            json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json");
        }
        if (csrf != null) {
            request.header("X-CSRF-TOKEN", csrf);
        }
        return send(request);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return http.send(request.timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
