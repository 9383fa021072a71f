package io.tributary.restproxy.config;

import io.swagger.v3.core.converter.ModelConverters;
import io.swagger.v3.oas.models.Components;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.info.Info;
import io.swagger.v3.oas.models.media.Content;
import io.swagger.v3.oas.models.media.MediaType;
import io.swagger.v3.oas.models.media.Schema;
import io.swagger.v3.oas.models.responses.ApiResponse;
import io.swagger.v3.oas.models.security.SecurityRequirement;
import io.swagger.v3.oas.models.security.SecurityScheme;
import io.tributary.restproxy.error.ErrorResponse;
import io.tributary.restproxy.security.AuthenticationProperties;
import java.util.Map;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The OpenAPI document's title and the error body every operation may answer: each operation
 * gets a {@code default} response with the {@code ErrorResponse} schema
 * ({@code {"error_code", "message"}}); the codes each operation uses are in its description.
 */
@Configuration(proxyBeanMethods = false)
public class OpenApiConfiguration {

    @Bean
    OpenAPI restProxyOpenApi() {
        return new OpenAPI().info(new Info().title("Tributary REST proxy").version("v2, v3")
            .description("HTTP access to a Tributary (Apache Kafka protocol) cluster, compatible with the Confluent "
                + "REST Proxy API v2 and v3, plus stateless partition reads, Server-Sent Event streams, server-side "
                + "search and consumer group offset resets. Errors are {\"error_code\", \"message\"}: 40401 topic "
                + "not found, 40101 sign-in needed or refused, 40301 refused by the brokers' ACLs or another "
                + "principal's consumer instance, 40402 partition not found, 40403 consumer instance not found, 40601 format mismatch, "
                + "40901/40902/40903 consumer conflicts, 42204 invalid consumer config, 422 malformed body, 413 "
                + "body too large, 42901 over the rate limit, 50002 Kafka error, 50003 retriable Kafka error."));
    }

    /**
     * With {@code rest-proxy.authentication.method=basic} (or {@code bearer}), the document says so, and
     * Swagger UI asks for a login (or a token).
     */
    @Bean
    OpenApiCustomizer basicAuthentication(AuthenticationProperties authentication) {
        return openApi -> {
            if (!authentication.enabled()) {
                return;
            }
            if (openApi.getComponents() == null) {
                openApi.setComponents(new Components());
            }
            if (authentication.method() == AuthenticationProperties.Method.BEARER) {
                openApi.getComponents().addSecuritySchemes("bearer", new SecurityScheme()
                    .type(SecurityScheme.Type.HTTP).scheme("bearer").bearerFormat("JWT")
                    .description("An OAuth2 access token of the brokers' issuer; the proxy acts with it as its subject"));
                openApi.addSecurityItem(new SecurityRequirement().addList("bearer"));
                return;
            }
            openApi.getComponents().addSecuritySchemes("basic", new SecurityScheme().type(SecurityScheme.Type.HTTP)
                .scheme("basic").description("A user of the brokers (SCRAM or PLAIN); the proxy acts as that user"));
            openApi.addSecurityItem(new SecurityRequirement().addList("basic"));
        };
    }

    @Bean
    OpenApiCustomizer errorResponses() {
        return openApi -> {
            Map<String, Schema> schemas = ModelConverters.getInstance().read(ErrorResponse.class);
            if (openApi.getComponents() == null) {
                openApi.setComponents(new Components());
            }
            schemas.forEach(openApi.getComponents()::addSchemas);
            ApiResponse error = new ApiResponse().description("Error: {\"error_code\", \"message\"}")
                .content(new Content().addMediaType("application/json", new MediaType()
                    .schema(new Schema<>().$ref("#/components/schemas/ErrorResponse"))));
            openApi.getPaths().values().forEach(path -> path.readOperations().forEach(operation -> {
                if (operation.getResponses() != null && !operation.getResponses().containsKey("default")) {
                    operation.getResponses().addApiResponse("default", error);
                }
            }));
        };
    }
}
