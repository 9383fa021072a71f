package io.tributary.restproxy.error;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.concurrent.CompletionException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.errors.NotLeaderOrFollowerException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpStatus;

/** The one table from the proxy's exceptions to HTTP statuses and Confluent error codes. */
class RestExceptionHandlerTest {

    @Test
    void eachOfTheProxysExceptionsHasItsConfluentCode() {
        assertAnswer(new TopicNotFoundException("t"), HttpStatus.NOT_FOUND, 40401);
        assertAnswer(new PartitionNotFoundException("p"), HttpStatus.NOT_FOUND, 40402);
        assertAnswer(new ConsumerInstanceNotFoundException("i"), HttpStatus.NOT_FOUND, 40403);
        assertAnswer(new ClusterNotFoundException("a", "b"), HttpStatus.NOT_FOUND, 404);
        assertAnswer(new ConsumerGroupNotFoundException("g"), HttpStatus.NOT_FOUND, 404);
        assertAnswer(new SearchNotFoundException("s"), HttpStatus.NOT_FOUND, 404);
        assertAnswer(new ConsumerInstanceAccessDeniedException("i"), HttpStatus.FORBIDDEN, 40301);
        assertAnswer(new ConsumerAlreadySubscribedException("i"), HttpStatus.CONFLICT, 40901);
        assertAnswer(new ConsumerInstanceExistsException(), HttpStatus.CONFLICT, 40902);
        assertAnswer(new IllegalConsumerStateException(new IllegalStateException("x")), HttpStatus.CONFLICT, 40903);
        assertAnswer(new TopicAlreadyExistsException("t"), HttpStatus.CONFLICT, 409);
        assertAnswer(new ConsumerGroupNotEmptyException("g"), HttpStatus.CONFLICT, 409);
        assertAnswer(new InvalidArgumentException("a"), HttpStatus.BAD_REQUEST, 400);
        assertAnswer(new InvalidConsumerConfigException("c"), HttpStatus.UNPROCESSABLE_CONTENT, 42204);
        assertAnswer(new OperationTimeoutException("o"), HttpStatus.INTERNAL_SERVER_ERROR, 50003);
        assertAnswer(new CapacityExceededException("c"), HttpStatus.SERVICE_UNAVAILABLE, 503);
        assertAnswer(RestError.TOO_MANY_REQUESTS.exception("r"), HttpStatus.TOO_MANY_REQUESTS, 42901);
    }

    @Test
    void everyExceptionOfTheProxyHasAnEntry() {
        for (JavaClass type : new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.tributary.restproxy")) {
            boolean answeredByTheTable = !type.isEquivalentTo(RestErrorException.class)
                && !type.isEquivalentTo(KafkaOperationException.class);
            if (type.isAssignableTo(RestException.class) && !type.getModifiers().contains(JavaModifier.ABSTRACT)
                    && answeredByTheTable) {
                assertThat(RestExceptionHandler.hasEntry(type.reflect().asSubclass(RestException.class)))
                    .as(type.getName()).isTrue();
            }
        }
    }

    @Test
    void aKafkaFailureIsAnsweredByTheKafkaExceptionsType() {
        assertAnswer(new KafkaOperationException(new UnknownTopicOrPartitionException("u")), HttpStatus.NOT_FOUND,
            40401);
        assertAnswer(new KafkaOperationException(new AuthenticationException("a")), HttpStatus.UNAUTHORIZED, 40101);
        assertAnswer(new KafkaOperationException(new GroupAuthorizationException("g")), HttpStatus.FORBIDDEN, 40301);
        assertAnswer(new KafkaOperationException(new NotLeaderOrFollowerException("n")),
            HttpStatus.INTERNAL_SERVER_ERROR, 50003);
        assertAnswer(new KafkaOperationException(new RecordTooLargeException("r")), HttpStatus.INTERNAL_SERVER_ERROR,
            50002);
        assertAnswer(new KafkaOperationException(new InterruptedException()), HttpStatus.INTERNAL_SERVER_ERROR, 50002);
        assertThat(RestExceptionHandler.errorFor(new CompletionException(new TopicAuthorizationException("t"))))
            .as("a failed record of a produce request").isEqualTo(RestError.KAFKA_AUTHORIZATION);
    }

    @Test
    void theMessageIsTheExceptionsOwn() {
        RestException e = new KafkaOperationException(new UnknownTopicOrPartitionException("This server does not host "
            + "this topic-partition."));
        assertThat(ErrorResponse.of(e)).isEqualTo(new ErrorResponse(40401,
            "UnknownTopicOrPartitionException: This server does not host this topic-partition."));
        assertThat(ErrorResponse.of(new TopicNotFoundException("orders")))
            .isEqualTo(new ErrorResponse(40401, "Topic orders not found."));
    }

    private static void assertAnswer(RestException e, HttpStatus status, int code) {
        RestError error = RestExceptionHandler.errorFor(e);
        assertThat(error.status()).as(e.getClass().getSimpleName()).isEqualTo(status);
        assertThat(error.code()).as(e.getClass().getSimpleName()).isEqualTo(code);
    }
}
