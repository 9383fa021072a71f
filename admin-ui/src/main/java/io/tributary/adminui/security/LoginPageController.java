package io.tributary.adminui.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.http.MediaType;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.WebAttributes;
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
        String notice = "";
        if (request.getParameter("error") != null) {
            notice = "<p id=\"login-error\" class=\"form-message\" role=\"alert\">" + HtmlUtils.htmlEscape(
                failure(request.getSession(false))) + "</p>";
        } else if (request.getParameter("signed-out") != null) {
            notice = "<p id=\"login-signed-out\" role=\"status\">You are signed out.</p>";
        }
        CsrfToken csrf = (CsrfToken) request.getAttribute(CsrfToken.class.getName());
        String token = csrf == null ? "" : "<input type=\"hidden\" name=\"" + HtmlUtils.htmlEscape(
            csrf.getParameterName()) + "\" value=\"" + HtmlUtils.htmlEscape(csrf.getToken()) + "\">";
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
                <p class="hint">With your Kafka user name and password (the REST proxy checks them).</p>
                %s
                <form id="login-form" method="post" action="login">
                  <div class="field"><label for="username">User name</label>
                    <input id="username" name="username" autocomplete="username" required autofocus></div>
                  <div class="field"><label for="password">Password</label>
                    <input id="password" name="password" type="password" autocomplete="current-password" required></div>
                  %s
                  <div class="field"><button type="submit" id="login-submit">Sign in</button></div>
                </form>
              </main>
            </body>
            </html>
            """.formatted(notice, token);
    }

    private static String failure(HttpSession session) {
        Object failure = session == null ? null : session.getAttribute(WebAttributes.AUTHENTICATION_EXCEPTION);
        return failure instanceof AuthenticationException e && e.getMessage() != null ? e.getMessage()
            : "Sign-in failed.";
    }
}
