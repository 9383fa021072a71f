package io.tributary.restproxy.architecture;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.belongToAnyOf;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.tributary.restproxy.config.OpenApiConfiguration;
import io.tributary.restproxy.error.ErrorResponse;
import io.tributary.restproxy.error.RestError;
import io.tributary.restproxy.error.RestErrorException;
import io.tributary.restproxy.error.RestExceptionHandler;
import io.tributary.restproxy.produce.PartitionOffset;
import io.tributary.restproxy.stream.RecordStreamer;
import java.util.Set;
import java.util.function.Predicate;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.web.bind.annotation.RestController;

/**
 * The Kafka-facing classes know nothing of HTTP (DESIGN.md section 7, the Strimzi Kafka Bridge
 * rule): the services and wrappers around Kafka's clients raise the proxy's exceptions, and only
 * the web layer and the one {@code @RestControllerAdvice} turn those into HTTP statuses and
 * Confluent error codes.
 */
class KafkaKnowsNoHttpTest {

    /** HTTP itself, and the proxy's HTTP error codes and bodies. */
    private static final DescribedPredicate<JavaClass> HTTP = resideInAnyPackage("org.springframework.http..",
            "org.springframework.web..", "jakarta.servlet..")
        .or(belongToAnyOf(RestError.class, RestErrorException.class, RestExceptionHandler.class, ErrorResponse.class))
        .as("belong to HTTP, Spring web or the proxy's HTTP errors");

    /**
     * The classes of the feature packages that read or write HTTP themselves: controllers and,
     * beside them, the v2 produce answer (its per-record error code), the v3 record codec (errors
     * of the request body) and links (from the current request), the batch bodies' entries (their
 * 400s), the offset resets' targets (400s of their bodies), the Server-Sent Events writer,
     * and the OpenAPI document's error bodies.
     */
    private static final DescribedPredicate<JavaClass> WEB_LAYER = controllers()
        .or(belongToAnyOf(PartitionOffset.class, RecordStreamer.class, OpenApiConfiguration.class))
        .or(named("io.tributary.restproxy.v3.V3RecordCodec", "io.tributary.restproxy.v3.V3Links",
            "io.tributary.restproxy.v3.V3BatchEntries", "io.tributary.restproxy.v3.OffsetResetTargets"))
        .as("in the web layer");

    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.tributary.restproxy");
    }

    @Test
    void kafkaFacingClassesDoNotDependOnHttp() {
        noClasses().that(resideInAnyPackage("..restproxy.atomic..", "..restproxy.config..", "..restproxy.consumer..", "..restproxy.metadata..",
                "..restproxy.produce..", "..restproxy.search..", "..restproxy.share..", "..restproxy.simple..", "..restproxy.stream..",
                "..restproxy.v3..").and(not(WEB_LAYER)))
            .should().dependOnClassesThat(HTTP)
            .check(classes);
    }

    @Test
    void theProxysExceptionsDoNotDependOnHttp() {
        noClasses().that(resideInAnyPackage("..restproxy.error..").and(not(HTTP)))
            .should().dependOnClassesThat(HTTP)
            .check(classes);
    }

    /** {@code @RestController} classes and the classes nested in them. */
    private static DescribedPredicate<JavaClass> controllers() {
        return selfOrEnclosing("controllers", c -> c.isAnnotatedWith(RestController.class));
    }

    /** The classes named (package-private ones too) and the classes nested in them. */
    private static DescribedPredicate<JavaClass> named(String... names) {
        Set<String> wanted = Set.of(names);
        return selfOrEnclosing(String.join(", ", names), c -> wanted.contains(c.getName()));
    }

    private static DescribedPredicate<JavaClass> selfOrEnclosing(String description, Predicate<JavaClass> test) {
        return new DescribedPredicate<>(description) {
            @Override
            public boolean test(JavaClass javaClass) {
                for (JavaClass c = javaClass; c != null; c = c.getEnclosingClass().orElse(null)) {
                    if (test.test(c)) {
                        return true;
                    }
                }
                return false;
            }
        };
    }
}
