package io.tributary.adminui.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.web.WebAttributes;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.HtmlUtils;

/**
 * {@code GET /login}: the sign-in page of {@code admin-ui.authentication.method=oauth2}, one link per
 * configured provider ({@code spring.security.oauth2.client.registration.<id>}, labelled with its
 * {@code client-name}) to {@code /oauth2/authorization/<id>}, where the authorization-code flow
 * starts. A page rather than a direct redirect, so that after sign-out ({@code ?signed-out}) the
 * provider's own session does not sign the user straight back in; after a refused sign-in
 * ({@code ?error}) it says why. Everything shown is HTML-escaped.
 */
@RestController
@ConditionalOnProperty(name = "admin-ui.authentication.method", havingValue = "oauth2")
public class OAuth2LoginPageController {

    private final List<ClientRegistration> providers = new ArrayList<>();

    /** @param registrations the configured providers (an iterable repository, as Spring Boot's is) */
    public OAuth2LoginPageController(ClientRegistrationRepository registrations) {
        if (registrations instanceof Iterable<?> all) {
            all.forEach(registration -> providers.add((ClientRegistration) registration));
        }
    }

    /** The sign-in page. */
    @GetMapping(path = "/login", produces = MediaType.TEXT_HTML_VALUE)
    public String login(HttpServletRequest request) {
        String notice = "";
        if (request.getParameter("error") != null) {
            notice = "<p id=\"login-error\" class=\"form-message\" role=\"alert\">" + HtmlUtils.htmlEscape(
                failure(request.getSession(false))) + "</p>";
        } else if (request.getParameter("signed-out") != null) {
            notice = "<p id=\"login-signed-out\" role=\"status\">You are signed out.</p>";
        }
        StringBuilder links = new StringBuilder();
        for (ClientRegistration provider : providers) {
            links.append("<p><a class=\"button\" id=\"login-").append(HtmlUtils.htmlEscape(provider.getRegistrationId()))
                .append("\" href=\"oauth2/authorization/").append(HtmlUtils.htmlEscape(provider.getRegistrationId()))
                .append("\">Sign in with ").append(HtmlUtils.htmlEscape(provider.getClientName())).append("</a></p>");
        }
        return """
            <!doctype html>
            <html lang="en">
            <head>
              <meta charset="utf-8">
              <meta name="viewport" content="width=device-width, initial-scale=1">
              <meta name="color-scheme" content="light dark">
              <title>Sign in · Tributary admin</title>
              <link rel="stylesheet" href="css/app.css">
            </head>
            <body>
              <header class="top"><span class="brand">Tributary</span></header>
              <main id="view" class="sign-in">
                <h1>Sign in</h1>
                <p class="hint">With your organization's account (the REST proxy and the brokers see you as that user).</p>
                %s
                <div id="login-providers">%s</div>
              </main>
            </body>
            </html>
            """.formatted(notice, links);
    }

    private static String failure(HttpSession session) {
        Object failure = session == null ? null : session.getAttribute(WebAttributes.AUTHENTICATION_EXCEPTION);
        return failure instanceof AuthenticationException e && e.getMessage() != null
            ? "Sign-in failed: " + e.getMessage() : "Sign-in failed.";
    }
}
