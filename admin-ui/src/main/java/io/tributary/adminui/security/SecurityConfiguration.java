package io.tributary.adminui.security;

import io.tributary.adminui.proxy.CallerIdentity;
import io.tributary.adminui.proxy.RestProxyClient;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.security.config.ObjectPostProcessor;
import org.springframework.security.oauth2.client.oidc.web.logout.OidcClientInitiatedLogoutSuccessHandler;
import org.springframework.security.oauth2.client.registration.ClientRegistrationRepository;
import org.springframework.security.oauth2.client.web.DefaultOAuth2AuthorizationRequestResolver;
import org.springframework.security.oauth2.client.web.OAuth2AuthorizationRequestCustomizers;
import org.springframework.security.oauth2.client.web.OAuth2LoginAuthenticationFilter;
import org.springframework.security.web.authentication.AnonymousAuthenticationFilter;
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
 * <li>{@code oauth2}: the same, but the sign-in page ({@link OAuth2LoginPageController}) links to the
 * providers of {@code spring.security.oauth2.client.registration.*}: Spring Security's OAuth2 login
 * (authorization code with PKCE) signs the user in as a {@link BearerUser}, whose tokens
 * {@link BearerTokens} keeps and refreshes; before each request {@link BearerSessionCheck} ends the
 * session of a user whose token can no longer be refreshed; with
 * {@code admin-ui.authentication.provider-sign-out=true}, sign-out goes on to the provider's
 * end-session endpoint (OpenID Connect RP-initiated logout) and back to the sign-in page.</li>
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
            if (context.getAuthentication() instanceof BearerUser user) {
                user.signedOut();
            }
        });
    }

    /** The signed-in user's rights, checked before changes when users sign in. */
    @Bean
    public Rights rights(AuthenticationProperties properties, RestProxyClient proxy) {
        return new Rights(properties, proxy);
    }

    /**
     * The OAuth2 tokens of the signed-in users ({@code oauth2} only), timed by the {@link Clock} bean
     * when there is one (UTC system time otherwise).
     *
     * @throws IllegalStateException when no provider is configured
     */
    @Bean
    @ConditionalOnProperty(name = "admin-ui.authentication.method", havingValue = "oauth2")
    public BearerTokens bearerTokens(ObjectProvider<ClientRegistrationRepository> registrations,
            ObjectProvider<Clock> clock) {
        ClientRegistrationRepository providers = registrations.getIfAvailable();
        if (providers == null) {
            throw new IllegalStateException("admin-ui.authentication.method=oauth2 needs a provider: set "
                + "spring.security.oauth2.client.registration.<id>.* (and .provider.<id>.issuer-uri)");
        }
        return new BearerTokens(providers, clock.getIfAvailable(Clock::systemUTC));
    }

    /** The filter chain of the configured sign-in method. */
    @Bean
    public SecurityFilterChain adminUiSecurity(HttpSecurity http, AuthenticationProperties properties,
            ObjectProvider<BearerTokens> bearerTokens, ObjectProvider<ClientRegistrationRepository> registrations)
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
        http.authorizeHttpRequests(requests -> requests
                .requestMatchers(paths.matcher(HttpMethod.GET, "/login"), paths.matcher("/css/**"),
                    paths.matcher(HttpMethod.GET, "/js/theme.js"),
                    paths.matcher("/favicon.ico"), paths.matcher("/error"), paths.matcher("/actuator/**"))
                .permitAll()
                .anyRequest().authenticated());
        if (properties.method() == AuthenticationProperties.Method.OAUTH2) {
            oauth2Login(http, bearerTokens.getObject(), registrations.getObject());
        } else {
            // Sign-ins go to the one AuthenticationProvider bean, ProxySignIn (Spring Security's global manager).
            http.formLogin(form -> form.loginPage("/login").failureHandler(new SignInFailures("/login?error"))
                .defaultSuccessUrl("/", true));
        }
        if (properties.method() == AuthenticationProperties.Method.OAUTH2 && properties.providerSignOut()) {
            OidcClientInitiatedLogoutSuccessHandler provider = new OidcClientInitiatedLogoutSuccessHandler(
                registrations.getObject());
            provider.setPostLogoutRedirectUri("{baseUrl}/login?signed-out");
            provider.setDefaultTargetUrl("/login?signed-out"); // a provider without end_session_endpoint
            http.logout(logout -> logout.logoutSuccessHandler(provider));
        } else {
            http.logout(logout -> logout.logoutSuccessUrl("/login?signed-out"));
        }
        return http
            .exceptionHandling(errors -> errors
                .authenticationEntryPoint(DelegatingAuthenticationEntryPoint.builder()
                    .addEntryPointFor(apiErrors, api)
                    .defaultEntryPoint(new LoginUrlAuthenticationEntryPoint("/login"))
                    .build())
                .defaultAccessDeniedHandlerFor(apiErrors, api))
            .build();
    }

    /**
     * Spring Security's OAuth2 login: authorization code with PKCE (asked for explicitly, for confidential
     * clients too, rather than left to the library's defaults), the
     * result a {@link BearerUser} whose tokens {@link BearerTokens} keeps, and the per-request check
     * that ends sessions whose token can no longer be refreshed.
     */
    private static void oauth2Login(HttpSecurity http, BearerTokens tokens, ClientRegistrationRepository registrations)
            throws Exception {
        DefaultOAuth2AuthorizationRequestResolver pkce = new DefaultOAuth2AuthorizationRequestResolver(registrations,
            "/oauth2/authorization");
        pkce.setAuthorizationRequestCustomizer(OAuth2AuthorizationRequestCustomizers.withPkce());
        http.oauth2Login(login -> login.loginPage("/login").failureUrl("/login?error").defaultSuccessUrl("/", true)
                .clientRegistrationRepository(registrations)
                .authorizedClientRepository(tokens.repository())
                .authorizationEndpoint(endpoint -> endpoint.authorizationRequestResolver(pkce))
                .withObjectPostProcessor(new ObjectPostProcessor<OAuth2LoginAuthenticationFilter>() {
                    @Override
                    public <O extends OAuth2LoginAuthenticationFilter> O postProcess(O filter) {
                        filter.setAuthenticationResultConverter(tokens::signedIn);
                        return filter;
                    }
                }))
            .addFilterBefore(new BearerSessionCheck(), AnonymousAuthenticationFilter.class);
    }
}
