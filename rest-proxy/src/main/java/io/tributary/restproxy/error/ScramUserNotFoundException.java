package io.tributary.restproxy.error;

/** The user has no SCRAM credential (of the mechanism named, when one is). */
public final class ScramUserNotFoundException extends RestException {

    public ScramUserNotFoundException(String message) {
        super(message);
    }
}
