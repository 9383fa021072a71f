package io.tributary.restproxy.security;

import jakarta.servlet.DispatcherType;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.ObjectPostProcessor;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.oauth2.jwt.JwtDecoder;
import org.springframework.security.oauth2.server.resource.authentication.JwtAuthenticationProvider;
import org.springframework.security.oauth2.server.resource.web.authentication.BearerTokenAuthenticationFilter;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.authentication.AuthenticationEntryPointFailureHandler;
import org.springframework.security.web.firewall.HttpFirewall;
import tools.jackson.databind.json.JsonMapper;

/**
 * Spring Security for the proxy. With {@code rest-proxy.authentication.method=none} (the default)
 * every request passes untouched, as before authentication existed. With {@code basic} every
 * request but these needs HTTP Basic credentials the brokers accept ({@link BrokerPasswordCheck}):
 * {@code /actuator/health/**}, {@code /actuator/prometheus} and {@code /actuator/info} (probes and
 * scrapers), the OpenAPI document and Swagger UI, and {@code /internal/v1/**} (replicas asking
 * each other which one holds a consumer instance: ids only, no records). No sessions: every
 * request carries its credentials; the brokers are asked again only after the cache TTL.
 *
 * <p>With {@code bearer} the same paths need an OAuth2 access token instead
 * ({@code Authorization: Bearer <jwt>}), checked by Spring Security's resource server with the
 * {@link JwtDecoder} Spring Boot makes from {@code spring.security.oauth2.resourceserver.jwt.*}
 * ({@code jwk-set-uri}, {@code issuer-uri}, {@code audiences}); the token's {@code sub} is the
 * caller ({@link BearerTokenLogins}), and its Kafka clients log in with the token itself.
 */
@Configuration(proxyBeanMethods = false)
public class SecurityConfiguration {

    private static final String[] OPEN_PATHS = {
        "/actuator/health", "/actuator/health/**", "/actuator/prometheus", "/actuator/info",
        "/v3/api-docs", "/v3/api-docs/**", "/v3/api-docs.yaml", "/swagger-ui.html", "/swagger-ui/**",
        "/internal/v1/**", "/error"};

    /** The callers' latest bearer tokens; empty unless {@code method=bearer}. */
    @Bean(destroyMethod = "close")
    BearerTokens bearerTokens(Clock clock) {
        return new BearerTokens(clock);
    }

    /** Spring Security's strict firewall with cheaper header checks ({@link HeaderCharacters}), same rules. */
    @Bean
    HttpFirewall httpFirewall() {
        return HeaderCharacters.firewall();
    }

    @Bean
    PasswordFingerprints passwordFingerprints() {
        return new PasswordFingerprints();
    }

    @Bean
    BrokerPasswordCheck brokerPasswordCheck(PasswordCheckClientSettings settings, PasswordFingerprints fingerprints,
            AuthenticationProperties authentication, Clock clock) {
        return new BrokerPasswordCheck(settings, fingerprints, authentication.cacheTtl(), clock);
    }

    /** The only authentication manager: also keeps Spring Boot from generating a default user and password. */
    @Bean
    AuthenticationManager authenticationManager(BrokerPasswordCheck check) {
        ProviderManager manager = new ProviderManager(check);
        manager.setEraseCredentialsAfterAuthentication(false);
        return manager;
    }

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http, AuthenticationProperties authentication,
            AuthenticationManager manager, JsonMapper mapper, ObjectProvider<JwtDecoder> jwtDecoder,
            BearerTokens tokens, Clock clock) throws Exception {
        http.csrf(csrf -> csrf.disable())
            .requestCache(cache -> cache.disable())
            .sessionManagement(sessions -> sessions.sessionCreationPolicy(SessionCreationPolicy.STATELESS))
            .formLogin(form -> form.disable())
            .logout(logout -> logout.disable());
        if (!authentication.enabled()) {
            // Exactly as without Spring Security: no headers added, nothing checked.
            return http.headers(headers -> headers.disable())
                .anonymous(anonymous -> anonymous.disable())
                .authorizeHttpRequests(requests -> requests.anyRequest().permitAll())
                .build();
        }
        RestAuthenticationEntryPoint entryPoint = new RestAuthenticationEntryPoint(mapper, authentication.method());
        if (authentication.method() == AuthenticationProperties.Method.BEARER) {
            JwtDecoder decoder = jwtDecoder.getIfAvailable();
            if (decoder == null) {
                throw new IllegalStateException("rest-proxy.authentication.method=bearer needs the token issuer's keys: "
                    + "set spring.security.oauth2.resourceserver.jwt.jwk-set-uri (or issuer-uri)");
            }
            JwtAuthenticationProvider provider = new JwtAuthenticationProvider(decoder);
            provider.setJwtAuthenticationConverter(new BearerTokenLogins(tokens, clock));
            http.oauth2ResourceServer(resourceServer -> resourceServer.authenticationEntryPoint(entryPoint)
                .jwt(jwt -> jwt.authenticationManager(new ProviderManager(provider)))
                .withObjectPostProcessor(answeringServiceErrors(entryPoint)));
        } else {
            http.authenticationManager(manager)
                .httpBasic(basic -> basic.realmName(RestAuthenticationEntryPoint.REALM).authenticationEntryPoint(entryPoint));
        }
        return http.exceptionHandling(errors -> errors.authenticationEntryPoint(entryPoint).accessDeniedHandler(entryPoint))
            .authorizeHttpRequests(requests -> requests
                // An async or error dispatch continues a request that was already let in.
                .dispatcherTypeMatchers(DispatcherType.ASYNC, DispatcherType.ERROR).permitAll()
                .requestMatchers(OPEN_PATHS).permitAll()
                .anyRequest().authenticated())
            .build();
    }

    /**
     * Lets the entry point answer an issuer whose keys could not be fetched (503) as it answers
     * the brokers being down for Basic; Spring Security's default would rethrow it as a 500.
     */
    private static ObjectPostProcessor<BearerTokenAuthenticationFilter> answeringServiceErrors(
            RestAuthenticationEntryPoint entryPoint) {
        return new ObjectPostProcessor<>() {
            @Override
            public <O extends BearerTokenAuthenticationFilter> O postProcess(O filter) {
                AuthenticationEntryPointFailureHandler failures = new AuthenticationEntryPointFailureHandler(entryPoint);
                failures.setRethrowAuthenticationServiceException(false);
                filter.setAuthenticationFailureHandler(failures);
                return filter;
            }
        };
    }
}
