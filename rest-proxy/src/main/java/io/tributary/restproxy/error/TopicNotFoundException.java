package io.tributary.restproxy.error;

/** The topic does not exist (or the caller may not see it). */
public final class TopicNotFoundException extends RestException {

    private final String topic;

    public TopicNotFoundException(String topic) {
        super("Topic " + topic + " not found.");
        this.topic = topic;
    }

    public String topic() {
        return topic;
    }
}
