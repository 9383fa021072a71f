package io.tributary.broker.api;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.protocol.Errors;

/** What the share-group state handlers (KIP-932, inter-broker) share: waiting on one call per partition. */
final class ShareStateCalls {

    private ShareStateCalls() {
    }

    /** Completes with every call's result, in order, once all are done. */
    static <R> CompletableFuture<List<R>> all(List<CompletableFuture<R>> calls) {
        return CompletableFuture.allOf(calls.toArray(new CompletableFuture<?>[0]))
            .thenApply(done -> calls.stream().map(CompletableFuture::join).toList());
    }

    /** The message of an error, null for NONE. */
    static String message(Errors error) {
        return error == Errors.NONE ? null : error.message();
    }
}
