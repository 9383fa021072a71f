package io.tributary.adminui.security;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpSession;
import java.util.function.UnaryOperator;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.web.WebAttributes;
import org.springframework.web.util.HtmlUtils;

/**
 * The HTML of the admin UI's sign-in page, shared by the {@code basic} and {@code oauth2} methods:
 * the page frame, and the notice after a refused sign-in ({@code ?error}: the reason Spring Security
 * kept in the session) or after sign-out ({@code ?signed-out}). Everything taken from the request or
 * the session is HTML-escaped here; the {@code content} a caller passes must already be. Stateless.
 */
final class SignInPage {

    private SignInPage() {
    }

    /**
     * The notice for this request: empty, the refusal's reason or "You are signed out."
     *
     * @param describeFailure turns the refusal's message (never null) into the text shown
     */
    static String notice(HttpServletRequest request, UnaryOperator<String> describeFailure) {
        if (request.getParameter("error") != null) {
            HttpSession session = request.getSession(false);
            Object failure = session == null ? null : session.getAttribute(WebAttributes.AUTHENTICATION_EXCEPTION);
            String reason = failure instanceof AuthenticationException e && e.getMessage() != null
                ? describeFailure.apply(e.getMessage()) : "Sign-in failed.";
            return "<p id=\"login-error\" class=\"form-message\" role=\"alert\">" + HtmlUtils.htmlEscape(reason) + "</p>";
        }
        if (request.getParameter("signed-out") != null) {
            return "<p id=\"login-signed-out\" role=\"status\">You are signed out.</p>";
        }
        return "";
    }

    /**
     * The whole page.
     *
     * @param hint    plain text under the heading (escaped here)
     * @param notice  from {@link #notice}
     * @param content the form or links, HTML the caller has escaped
     */
    static String render(String hint, String notice, String content) {
        return """
            <!doctype html>
            <html lang="en">
            <head>
              <meta charset="utf-8">
              <meta name="viewport" content="width=device-width, initial-scale=1">
              <meta name="color-scheme" content="light dark">
              <title>Sign in · Tributary admin</title>
              <link rel="stylesheet" href="css/theme.css">
              <link rel="stylesheet" href="css/app.css">
              <script src="js/theme.js"></script>
            </head>
            <body>
              <header class="top"><span class="brand">Tributary</span></header>
              <main id="view" class="sign-in">
                <h1>Sign in</h1>
                <p class="hint">%s</p>
                %s
                %s
              </main>
            </body>
            </html>
            """.formatted(HtmlUtils.htmlEscape(hint), notice, content);
    }
}
