package io.tributary.restproxy.security;

import io.tributary.restproxy.config.KafkaClientSettings;
import jakarta.servlet.DispatcherType;
import java.time.Clock;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.authentication.AuthenticationManager;
import org.springframework.security.authentication.ProviderManager;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.config.http.SessionCreationPolicy;
import org.springframework.security.web.SecurityFilterChain;
import tools.jackson.databind.json.JsonMapper;

/**
 * Spring Security for the proxy. With {@code rest-proxy.authentication.method=none} (the default)
 * every request passes untouched, as before authentication existed. With {@code basic} every
 * request but these needs HTTP Basic credentials the brokers accept ({@link BrokerPasswordCheck}):
 * {@code /actuator/health/**}, {@code /actuator/prometheus} and {@code /actuator/info} (probes and
 * scrapers), the OpenAPI document and Swagger UI, and {@code /internal/v1/**} (replicas asking
 * each other which one holds a consumer instance: ids only, no records). No sessions: every
 * request carries its credentials; the brokers are asked again only after the cache TTL.
 */
@Configuration(proxyBeanMethods = false)
public class SecurityConfiguration {

    private static final String[] OPEN_PATHS = {
        "/actuator/health", "/actuator/health/**", "/actuator/prometheus", "/actuator/info",
        "/v3/api-docs", "/v3/api-docs/**", "/v3/api-docs.yaml", "/swagger-ui.html", "/swagger-ui/**",
        "/internal/v1/**", "/error"};

    @Bean
    PasswordFingerprints passwordFingerprints() {
        return new PasswordFingerprints();
    }

    @Bean
    BrokerPasswordCheck brokerPasswordCheck(KafkaClientSettings settings, PasswordFingerprints fingerprints,
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
            AuthenticationManager manager, JsonMapper mapper) throws Exception {
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
        RestAuthenticationEntryPoint entryPoint = new RestAuthenticationEntryPoint(mapper);
        return http.authenticationManager(manager)
            .httpBasic(basic -> basic.realmName(RestAuthenticationEntryPoint.REALM).authenticationEntryPoint(entryPoint))
            .exceptionHandling(errors -> errors.authenticationEntryPoint(entryPoint).accessDeniedHandler(entryPoint))
            .authorizeHttpRequests(requests -> requests
                // An async or error dispatch continues a request that was already let in.
                .dispatcherTypeMatchers(DispatcherType.ASYNC, DispatcherType.ERROR).permitAll()
                .requestMatchers(OPEN_PATHS).permitAll()
                .anyRequest().authenticated())
            .build();
    }
}
