package io.tributary.restproxy.error;

/** A topic of the name asked for exists already. */
public final class TopicAlreadyExistsException extends RestException {

    public TopicAlreadyExistsException(String topic) {
        super("Topic " + topic + " already exists.");
    }
}
