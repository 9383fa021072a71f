package io.tributary.adminui.security;

import jakarta.servlet.http.HttpServletRequest;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.security.oauth2.client.registration.ClientRegistration;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
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
        StringBuilder links = new StringBuilder();
        for (ClientRegistration provider : providers) {
            links.append("<p><a class=\"button\" id=\"login-").append(HtmlUtils.htmlEscape(provider.getRegistrationId()))
                .append("\" href=\"oauth2/authorization/").append(HtmlUtils.htmlEscape(provider.getRegistrationId()))
                .append("\">Sign in with ").append(HtmlUtils.htmlEscape(provider.getClientName())).append("</a></p>");
        }
        return SignInPage.render(
            "With your organization's account (the REST proxy and the brokers see you as that user).",
            SignInPage.notice(request, reason -> "Sign-in failed: " + reason),
            "<div id=\"login-providers\">" + links + "</div>");
    }
}
