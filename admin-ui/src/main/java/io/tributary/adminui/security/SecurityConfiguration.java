package io.tributary.adminui.security;

import io.tributary.adminui.proxy.CallerIdentity;
import io.tributary.adminui.proxy.RestProxyClient;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.core.session.SessionDestroyedEvent;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.session.HttpSessionEventPublisher;
import org.springframework.security.web.authentication.DelegatingAuthenticationEntryPoint;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;

/**
 * The UI's web security, by {@code admin-ui.authentication.method}:
 * <ul>
 * <li>{@code none}: everything open, no session, no CSRF check (the quickstart as it always was);</li>
 * <li>{@code basic}: a sign-in form at {@code /login} ({@link LoginPageController}) checked by
 * {@link ProxySignIn}, the user kept in a server-side session; pages redirect to the form, {@code /api}
 * answers 401 JSON without a session; every state-changing request needs the session's CSRF token
 * (the page's script reads it from {@code GET /api/session} and sends it as {@code X-CSRF-TOKEN});
 * {@code POST /logout} signs out. The actuator (health probes, metrics) stays open.</li>
 * </ul>
 */
@Configuration(proxyBeanMethods = false)
public class SecurityConfiguration {

    /** Checks sign-ins with the REST proxy; a bean so Spring Boot makes up no user of its own. */
    @Bean
    public ProxySignIn proxySignIn(RestProxyClient proxy) {
        return new ProxySignIn(proxy);
    }

    /** Tells the application when a session ends, so {@link #forgetEndedSessions} hears of it. */
    @Bean
    public HttpSessionEventPublisher httpSessionEventPublisher() {
        return new HttpSessionEventPublisher();
    }

    /**
     * When a signed-in session ends (sign-out or expiry), the throughput chart's scrapes stop using
     * that user's credentials.
     */
    @Bean
    public ApplicationListener<SessionDestroyedEvent> forgetEndedSessions(CallerIdentity.LastCaller throughputViewer) {
        return event -> event.getSecurityContexts().forEach(context -> {
            if (context.getAuthentication() != null) {
                throughputViewer.forget(context.getAuthentication().getName());
            }
        });
    }

    /** The signed-in user's rights, checked before changes when users sign in. */
    @Bean
    public Rights rights(AuthenticationProperties properties, RestProxyClient proxy) {
        return new Rights(properties, proxy);
    }

    /** The filter chain of the configured sign-in method. */
    @Bean
    public SecurityFilterChain adminUiSecurity(HttpSecurity http, AuthenticationProperties properties)
            throws Exception {
        if (!properties.signInRequired()) {
            return http.authorizeHttpRequests(requests -> requests.anyRequest().permitAll())
                .csrf(csrf -> csrf.disable())
                .sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
                .build();
        }
        PathPatternRequestMatcher.Builder paths = PathPatternRequestMatcher.withDefaults();
        RequestMatcher api = paths.matcher("/api/**");
        ApiSecurityErrors apiErrors = new ApiSecurityErrors();
        // Sign-ins go to the one AuthenticationProvider bean, ProxySignIn (Spring Security's global manager).
        return http
            .authorizeHttpRequests(requests -> requests
                .requestMatchers(paths.matcher(HttpMethod.GET, "/login"), paths.matcher("/css/**"),
                    paths.matcher("/favicon.ico"), paths.matcher("/error"), paths.matcher("/actuator/**"))
                .permitAll()
                .anyRequest().authenticated())
            .formLogin(form -> form.loginPage("/login").failureHandler(new SignInFailures("/login?error"))
                .defaultSuccessUrl("/", true))
            .logout(logout -> logout.logoutSuccessUrl("/login?signed-out"))
            .exceptionHandling(errors -> errors
                .authenticationEntryPoint(DelegatingAuthenticationEntryPoint.builder()
                    .addEntryPointFor(apiErrors, api)
                    .defaultEntryPoint(new LoginUrlAuthenticationEntryPoint("/login"))
                    .build())
                .defaultAccessDeniedHandlerFor(apiErrors, api))
            .build();
    }
}
