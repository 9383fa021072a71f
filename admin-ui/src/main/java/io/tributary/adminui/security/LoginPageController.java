package io.tributary.adminui.security;

import jakarta.servlet.http.HttpServletRequest;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.util.HtmlUtils;

/**
 * {@code GET /login}: the sign-in page of {@code admin-ui.authentication.method=basic}, a user name
 * and password form posting to {@code /login} with the session's CSRF token. After a refused sign-in
 * ({@code ?error}) it says why (wrong password, or the proxy could not check it); after sign-out
 * ({@code ?signed-out}) it says so. Rendered here rather than served static so the token and the
 * message are in the page; everything shown is HTML-escaped.
 */
@RestController
@ConditionalOnProperty(name = "admin-ui.authentication.method", havingValue = "basic")
public class LoginPageController {

    /** The sign-in page. */
    @GetMapping(path = "/login", produces = MediaType.TEXT_HTML_VALUE)
    public String login(HttpServletRequest request) {
        CsrfToken csrf = (CsrfToken) request.getAttribute(CsrfToken.class.getName());
        String token = csrf == null ? "" : "<input type=\"hidden\" name=\"" + HtmlUtils.htmlEscape(
            csrf.getParameterName()) + "\" value=\"" + HtmlUtils.htmlEscape(csrf.getToken()) + "\">";
        String form = """
            <form id="login-form" method="post" action="login">
              <div class="field"><label for="username">User name</label>
                <input id="username" name="username" autocomplete="username" required autofocus></div>
              <div class="field"><label for="password">Password</label>
                <input id="password" name="password" type="password" autocomplete="current-password" required></div>
              %s
              <div class="field"><button type="submit" id="login-submit">Sign in</button></div>
            </form>""".formatted(token);
        return SignInPage.render("With your Kafka user name and password (the REST proxy checks them).",
            SignInPage.notice(request, reason -> reason), form);
    }
}
