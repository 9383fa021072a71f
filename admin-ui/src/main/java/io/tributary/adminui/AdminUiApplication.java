package io.tributary.adminui;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The Tributary admin UI: static pages under {@code /} and their JSON API under {@code /api},
 * which reads and changes the cluster only through the REST proxy ({@code admin-ui.rest-proxy-url}).
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class AdminUiApplication {

    /** Starts the UI; arguments are Spring Boot's ({@code --server.port=...}, {@code --admin-ui.rest-proxy-url=...}). */
    public static void main(String[] args) {
        SpringApplication.run(AdminUiApplication.class, args);
    }
}
