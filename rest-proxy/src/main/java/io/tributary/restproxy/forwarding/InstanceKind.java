package io.tributary.restproxy.forwarding;

import java.util.regex.Pattern;

/**
 * The kinds of stateful instances a proxy replica holds and forwards requests for: v2 consumer
 * instances and share consumer instances (KIP-932). Each has its public path, the prefix of the ids
 * it generates ({@code <prefix><replica id>-<uuid>}) and the internal path a peer answers 200 on
 * when it holds an instance.
 */
enum InstanceKind {
    CONSUMER("^/consumers/([^/]+)/instances/([^/]+)(/.*)?$", "rest-consumer-",
        InternalController.INSTANCES_PATH),
    SHARE("^/share-groups/([^/]+)/instances/([^/]+)(/.*)?$", "rest-share-",
        InternalController.SHARE_INSTANCES_PATH);

    private final Pattern path;
    private final Pattern generatedId;
    private final String internalPath;

    InstanceKind(String path, String idPrefix, String internalPath) {
        this.path = Pattern.compile(path);
        this.generatedId = Pattern.compile(Pattern.quote(idPrefix) + "([A-Za-z0-9]{1,32})-.+");
        this.internalPath = internalPath;
    }

    /** A request path under an instance: group 1 is the group, group 2 the instance id (both URL-encoded). */
    Pattern path() {
        return path;
    }

    /** A generated instance id: group 1 is the id of the replica that created it. */
    Pattern generatedId() {
        return generatedId;
    }

    /** The internal path template with {@code {group}} and {@code {instance}}. */
    String internalPath() {
        return internalPath;
    }
}
